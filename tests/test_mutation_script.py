"""scripts/mutate.py counts mutants per module as mutmut records them, samples the same mutants every time, and finds every target's modules."""

from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
spec = importlib.util.spec_from_file_location("mutate_script", ROOT / "scripts" / "mutate.py")
mutate = importlib.util.module_from_spec(spec)
spec.loader.exec_module(mutate)


def test_every_target_names_existing_modules_and_tests():
    config = mutate.load_config()
    chosen = mutate.target_modules(config, list(config["targets"]))
    assert all(chosen.values()), {name: files for name, files in chosen.items() if not files}
    assert "engines/delta/explain.py" not in chosen["delta"] and chosen["delta-explain"] == ["engines/delta/explain.py"]
    for test in mutate.killing_suite(config) + mutate.killing_suite(config, config["quick"]["tests"]):
        assert (ROOT / test).exists(), test


def test_the_sample_is_fixed_by_its_seed_and_takes_all_when_asked():
    names = [f"m{i}" for i in range(50)]
    assert mutate.sample(names, 5, "14:x") == mutate.sample(list(reversed(names)), 5, "14:x")
    assert mutate.sample(names, 5, "14:x") != mutate.sample(names, 5, "15:x")
    assert mutate.sample(names, 0, 1) == sorted(names) and mutate.sample(names, 99, 1) == sorted(names)


def test_the_summary_counts_each_status_and_scores_timeouts_as_killed_and_equivalents_apart():
    found = {"engines/x.py": {"a": 1, "b": 0, "c": 36, "d": None, "e": 33, "f": 0, "g": 3}}
    row = mutate.summarise(found, {"f": "the same behaviour"})["engines/x.py"]
    assert (row["killed"], row["survived"], row["timeout"], row["not checked"], row["no tests"], row["equivalent"]) == (2, 1, 1, 1, 1, 1)
    assert row["checked"] == 5 and row["score"] == 3 / 5
    only = mutate.summarise(found, {}, only={"a", "b"})["engines/x.py"]
    assert only["checked"] == 2 and only["score"] == 0.5
    table = mutate.markdown(mutate.summarise(found, {}))
    # mutants, sampled, killed, survived, timed out, no test reaches, equivalent, not run, checked, score, CI
    assert "| `engines/x.py` | 7 | 7 | 2 | 2 | 1 | 1 | 0 | 1 | 6 | 50.0% | 18.8% to 81.2% |" in table
    sampled = mutate.markdown(mutate.summarise(found, {}, only={"a", "b", "d"}))
    assert "| `engines/x.py` | 7 | 3 | 1 | 1 | 0 | 0 | 0 | 1 | 2 | 50.0% | 9.5% to 90.5% |" in sampled


def test_targets_sum_their_modules():
    rows = mutate.summarise({"a.py": {"x": 1, "y": 0}, "b.py": {"z": 36, "w": 1}}, {})
    totals = mutate.by_target(rows, {"engine": ["a.py", "b.py"], "none": []})
    assert totals["engine"]["checked"] == 4 and totals["engine"]["score"] == 3 / 4 and totals["none"]["score"] is None


def test_a_larger_draw_extends_a_smaller_one_and_the_seed_fixes_it():
    names = [f"m{i}" for i in range(60)]
    small, large = mutate.draw(names, 8, "14:x"), mutate.draw(list(reversed(names)), 25, "14:x")
    assert set(small) < set(large) and len(large) == 25
    assert mutate.draw(names, 8, "15:x") != small and mutate.draw(names, 99, 1) == sorted(names)


def test_the_allocation_gives_every_module_its_floor_and_the_rest_by_size():
    assert mutate.allocate({"big": 300, "mid": 90, "tiny": 10}, 40, 1) == {"big": 30, "mid": 9, "tiny": 1}  # 400 mutants: 1 in 10
    assert mutate.allocate({"a": 500, "b": 30, "c": 2}, 4, 1) == {"a": 2, "b": 1, "c": 1}
    assert mutate.allocate({"a": 3, "b": 2}, 40, 1) == {"a": 3, "b": 2}  # never more than a module holds
    assert sum(mutate.allocate({f"m{i}": 7 * i + 1 for i in range(10)}, 33, 1).values()) == 33


def test_the_stratified_draw_samples_every_module_of_every_target():
    found = {"a.py": {f"a{i}": None for i in range(200)}, "b.py": {"b0": None, "b1": None}, "c.py": {f"c{i}": 1 for i in range(50)}}
    picked = mutate.stratified(found, {"one": ["a.py", "b.py"], "two": ["c.py"]}, 12, 1, 14)
    assert len(picked["a.py"]) == 11 and len(picked["b.py"]) == 1 and len(picked["c.py"]) == 12
    assert picked == mutate.stratified(found, {"one": ["a.py", "b.py"], "two": ["c.py"]}, 12, 1, 14)


def test_the_interval_is_wilson_s():
    low, high = mutate.wilson(20, 20)
    assert high == 1.0 and round(low, 3) == 0.839
    assert mutate.wilson(0, 0) is None
