"""The bisection probe (benchmarks/diagnostics/bisect_engine.py) pairs its measurements and reports their ratios honestly.

No process is started: ``measure`` is replaced by a fake whose figures are data, so the order of the
measurements, the pairing, the ratios and the answers check are tested, not the machine.
"""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from benchmarks.diagnostics import bisect_engine


def test_ratio_summary_is_run_over_base_per_pair():
    summary = bisect_engine.ratio_summary([1.0, 2.0, 4.0, 1.0], [2.0, 4.4, 7.2, 2.0])
    assert summary["pairs"] == [2.0, 2.2, 1.8, 2.0]
    assert summary["median"] == 2.0
    low, high = summary["ci95"]
    assert low < summary["geomean"] < high and 1.7 < low and high < 2.3
    assert summary["p"] < 0.01


def test_an_unchanged_commit_has_an_interval_around_one():
    summary = bisect_engine.ratio_summary([1.0, 1.1, 0.9, 1.0, 1.05], [1.02, 1.08, 0.91, 0.99, 1.04])
    low, high = summary["ci95"]
    assert low < 1.0 < high and summary["p"] > 0.05


def fake_measurements(monkeypatch, figures):
    order = []

    def fake(checkout, engine, cell, core, probe):
        order.append(checkout)
        return figures(checkout, len(order))

    monkeypatch.setattr(bisect_engine, "measure", fake)
    return order


def test_pairs_alternate_which_commit_goes_first(monkeypatch):
    order = fake_measurements(monkeypatch, lambda side, n: {"cpu_s": 2.0 if side == "new" else 1.0, "wall_s": 1.0,
                                                            "answers": (3, 1, 2)})
    args = SimpleNamespace(pairs=4, core=1, gc=False, freeze=False, collector_off=False)
    result = bisect_engine.interleaved("sparkwave", {"base": "old", "run": "new"}, [], args)
    assert order == ["old", "new", "new", "old", "old", "new", "new", "old"]
    assert result["same_answers"]
    assert result["cpu_s"]["run_over_base"]["pairs"] == [2.0] * 4
    assert "engine_cpu_s" not in result  # not measured without --gc: no ratio made up


def test_commits_that_answer_differently_are_flagged(monkeypatch):
    fake_measurements(monkeypatch, lambda side, n: {"cpu_s": 1.0 + n / 10, "wall_s": 1.0,
                                                    "answers": (3, 1, 2) if side == "old" else (3, 0, 3)})
    args = SimpleNamespace(pairs=3, core=1, gc=False, freeze=False, collector_off=False)
    result = bisect_engine.interleaved("sparkwave", {"base": "old", "run": "new"}, [], args)
    assert not result["same_answers"]
    report = {"base": "a", "run": "b", "cell": [], "core": 1, "engines": {"sparkwave": result}}
    assert any("ANSWERS DIFFER" in line for line in bisect_engine.lines_of(report))


@pytest.mark.parametrize("flags, probe", [((False, False, False), None), ((True, False, False), "gc"),
                                          ((False, True, False), "freeze"), ((True, True, True), "off")])
def test_the_strongest_probe_asked_for_is_used(flags, probe):
    gc, freeze, off = flags
    assert bisect_engine.probe_of(SimpleNamespace(gc=gc, freeze=freeze, collector_off=off)) == probe
