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
    assert "| `engines/x.py` | 6 | 2 | 2 | 1 | 1 | 0 | 1 | 50.0% |" in table


def test_targets_sum_their_modules():
    rows = mutate.summarise({"a.py": {"x": 1, "y": 0}, "b.py": {"z": 36, "w": 1}}, {})
    totals = mutate.by_target(rows, {"engine": ["a.py", "b.py"], "none": []})
    assert totals["engine"]["checked"] == 4 and totals["engine"]["score"] == 3 / 4 and totals["none"]["score"] is None
