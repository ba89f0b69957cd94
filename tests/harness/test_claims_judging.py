"""The judging functions on small hand-made frames: paired ratios, bounds from time-outs, growth, break-even, verdicts."""

from __future__ import annotations

import pandas as pd
import pytest

from harness.claims import ratios
from harness.claims.judge import _verdict
from harness.claims.model import Claim, parse_relation


def cell(engine: str, values: list[float | None], status: str = "ok", metric: str = "events_per_s", **extra) -> pd.DataFrame:
    return pd.DataFrame({"engine": engine, "repetition": range(len(values)), "status": status, metric: values, **extra})


def test_a_ratio_is_taken_round_by_round_and_summarised_by_median_and_iqr():
    fast = cell("a", [10.0, 20.0, 30.0, 40.0, 50.0])
    slow = cell("b", [5.0, 5.0, 10.0, 10.0, 10.0])
    statistic = ratios.ratio(fast, slow, "events_per_s", None, per_repetition=True)
    assert statistic.value == pytest.approx(4.0)  # per round: 2, 4, 3, 4, 5
    assert statistic.spread == pytest.approx((3.0, 4.0)) and statistic.n == 5 and not statistic.bound


def test_rounds_pair_by_repetition_not_by_position():
    fast = cell("a", [10.0, 40.0])
    slow = cell("b", [40.0, 10.0]).iloc[::-1]
    assert ratios.paired(ratios.side(fast, "events_per_s", None)[1],
                         ratios.side(slow, "events_per_s", None)[1]).tolist() == [0.25, 4.0]


def test_a_timed_out_denominator_makes_the_ratio_a_lower_bound_from_its_mean_latency():
    fast = cell("a", [1000.0, 1000.0, 1000.0])
    timed_out = cell("b", [None], status="timeout", latency_mean_ms=[20.0], events=[500], triples=[500])
    statistic = ratios.ratio(fast, timed_out, "events_per_s", 10.0, per_repetition=True)
    assert statistic.bound and statistic.value == pytest.approx(1000.0 / 50.0)  # 50 events/s at most


def test_without_latencies_a_time_out_bounds_the_rate_by_its_stream_over_the_time_out():
    fast = cell("a", [4000.0], metric="triples_per_s")
    timed_out = cell("b", [None], status="timeout", metric="triples_per_s", triples=[20000], events=[1000])
    statistic = ratios.ratio(fast, timed_out, "triples_per_s", 10.0, per_repetition=False)
    assert statistic.bound and statistic.value == pytest.approx(4000.0 / 2000.0)


def test_a_timed_out_numerator_or_missing_rows_show_nothing():
    timed_out = cell("a", [None], status="timeout", latency_mean_ms=[1.0])
    assert not ratios.ratio(timed_out, cell("b", [1.0]), "events_per_s", 10.0, True).shown
    assert not ratios.ratio(cell("a", [1.0]), cell("b", [])[0:0], "events_per_s", 10.0, True).shown


def test_growth_is_the_cost_at_the_end_over_the_start_for_a_rate_and_for_a_cost():
    start, end = cell("a", [100.0, 200.0]), cell("a", [50.0, 200.0])
    assert ratios.growth(start, end, "events_per_s", True).value == pytest.approx(1.5)  # costs 2x and 1x
    start, end = cell("a", [2.0, 2.0], metric="us_per_update"), cell("a", [3.0, 5.0], metric="us_per_update")
    assert ratios.growth(start, end, "us_per_update", True).value == pytest.approx(2.0)


def test_break_even_is_the_first_window_from_which_the_ratio_stays_ahead():
    shown = {100: ratios.Statistic(1.2, None, 5), 1000: ratios.Statistic(0.9, None, 5),
             10000: ratios.Statistic(1.5, None, 5), 100000: ratios.Statistic(3.0, None, 1, bound=True)}
    assert ratios.break_even(shown).value == 10000
    assert ratios.break_even({100: ratios.Statistic(0.5, None, 5)}).value == float("inf")


def test_a_timed_out_numerator_above_a_window_is_behind_there_and_an_unknown_window_is_a_gap():
    ahead = ratios.Statistic(1.5, None, 5)
    behind = ratios.not_shown(ratios.NUMERATOR_BEHIND)
    # the numerator timed out at the largest window where the denominator finished: it never stays ahead
    assert ratios.break_even({100: ahead, 1000: ahead, 10000: behind}).value == float("inf")
    assert ratios.break_even({100: behind, 1000: ahead, 10000: ahead}).value == 1000
    # both timed out at 10000: whether the numerator stays ahead there is not known
    unknown = ratios.not_shown("the numerator's cell did not finish")
    assert not ratios.break_even({100: ahead, 1000: ahead, 10000: unknown}).shown
    assert ratios.break_even({100: unknown, 1000: ahead}).value == 1000


def test_memory_per_window_triple_is_the_growth_over_the_baseline_s():
    engine = cell("a", [1.0], rss_growth_bytes=[3_000_000])
    scan = cell("scan", [1.0], rss_growth_bytes=[1_000_000])
    assert ratios.memory_per_triple(engine, scan, 10_000).value == pytest.approx(200.0)


def claim(relation: str, paper_value: float | None = None) -> Claim:
    return Claim("spectra", "t", "t.c", "text", "ratio", "events_per_s", "a", "b", (), parse_relation(relation, "here"),
                 paper_value, "met")


@pytest.mark.parametrize(("relation", "value", "bound", "paper", "expected"), [
    (">= 3", 3.5, False, None, "met"), (">= 3", 2.5, False, None, "missed"),
    (">= 3", 3.5, True, None, "met"), (">= 3", 2.5, True, None, "not-shown"),  # a short lower bound proves nothing
    ("<= 1.5", 2.0, True, None, "missed"), ("<= 1.5", 1.0, True, None, "not-shown"),
    (">= paper", 120.0, False, 100.0, "met"), (">= paper", 120.0, False, None, "not-shown"),
    ("within 1.5x of the paper", 140.0, False, 100.0, "met"), ("within 1.5x of the paper", 60.0, False, 100.0, "missed"),
])
def test_a_verdict_follows_from_relation_value_and_bound(relation, value, bound, paper, expected):
    verdict = _verdict(claim(relation, paper), ratios.Statistic(value, None, 5, bound), "folder")
    assert verdict.verdict == expected
    assert _verdict(claim(relation, paper), ratios.not_shown("no rows"), "folder").verdict == "not-shown"
