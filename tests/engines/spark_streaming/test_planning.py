"""The spark-streaming engine's planning, without Spark: join order and keys, FILTER placement, the event-time formulas, ISTREAM's rule.

The formulas are checked twice: the Python ones against ``Window.start`` and a brute-force window, and
the Spark SQL text (evaluated here with ``pmod`` as Python's non-negative ``%``) against the Python
ones; ISTREAM (``new_ticks``) against presence computed from its definition over random combinations.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from common.errors import EngineError
from engines.model.query import parse_query
from engines.model.semantics import load_profile, profile_from_table
from engines.model.stream import Window
from engines.spark_streaming.istream import new_ticks
from engines.spark_streaming.plan import NativeFilter, column, plan_query
from engines.spark_streaming.progress import BatchFigures
from engines.spark_streaming.timing import Timing
from tests.conformance.checks import PREFIXES


def _plan(body: str, window: str = "sliding:10:1"):
    return plan_query(parse_query(PREFIXES + f"SELECT * WHERE {{ {body} }}", window=window))


def test_the_most_constant_pattern_comes_first_and_each_next_one_joins_on_what_it_shares():
    query = parse_query(PREFIXES + "SELECT * WHERE { ?x :advisor ?y . ?x :takes ?z . ?y :teaches ?z . ?y a :Professor }",
                        window="sliding:10:1")
    plan = plan_query(query)
    predicates = [query.patterns[scan.pattern][1].split("/")[-1] for scan in plan.scans]
    assert predicates == ["22-rdf-syntax-ns#type>", "advisor>", "teaches>", "takes>"]
    x, y, z = (query.variables.index(name) for name in ("?x", "?y", "?z"))
    assert [step.keys for step in plan.steps] == [(y,), (y,), tuple(sorted((x, z)))]
    assert plan.first.constants == (("p", "<http://www.w3.org/1999/02/22-rdf-syntax-ns#type>"),
                                    ("o", "<http://ex/Professor>"))


def test_a_cross_product_and_a_pattern_without_variables_are_refused_by_name():
    with pytest.raises(EngineError, match="does not support a cross product: triple pattern 2 shares no variable"):
        _plan("?x :p ?y . ?a :q ?b")
    with pytest.raises(EngineError, match="triple pattern without variables"):
        _plan(":a :p :b . ?x :q ?y")


def test_a_variable_used_twice_in_a_pattern_is_an_equality_of_positions():
    scan = _plan("?x :p ?x").first
    assert scan.equal == (("s", "o"),) and scan.binds == (("s", 0),)
    assert scan.matches(("<a>", "<http://ex/p>", "<a>")) == ("<a>",)
    assert scan.matches(("<a>", "<http://ex/p>", "<b>")) is None


def test_filters_go_to_the_scan_or_join_that_first_binds_their_variables():
    plan = _plan("?x :p ?y . ?y :q ?z . FILTER(?z > 3) FILTER(?x != ?z) FILTER(?x != :e) FILTER(?nowhere = 1)")
    by_pattern = {scan.pattern: scan.filters for scan in plan.scans}
    assert by_pattern == {0: (2,), 1: (0,)}
    assert plan.steps[0].filters == (1,)
    assert plan.final_filters == (3,)  # an unbound variable: an error, evaluated (false) on the whole mapping


def test_only_term_identity_becomes_a_string_comparison():
    plan = _plan("?x :p ?y . ?y :q ?z . FILTER(?x != :e) FILTER(sameTerm(?x, ?z)) FILTER(?x = ?z) "
                 "FILTER(?z = \"a\")")
    assert plan.native[0] == NativeFilter("!=", ("column", column(0)), ("term", "<http://ex/e>"))
    assert plan.native[1] == NativeFilter("=", ("column", column(0)), ("column", column(2)))
    # two literals compare by value ("1"^^xsd:integer = "1.0"^^xsd:decimal): the FILTER model decides
    assert plan.native[2] is None and plan.native[3] is None


def _sql(text: str, **values: int) -> int:
    return eval(text.replace("pmod", "_pmod"), {"_pmod": lambda a, b: a % b, **values})  # noqa: S307 (our own text)


@given(st.integers(-50, 200), st.integers(1, 12), st.integers(1, 12), st.integers(1, 9))
def test_the_tick_and_window_formulas_agree_with_the_window_and_their_sql(ts, range_ms, slide, period):
    slide = min(slide, range_ms)
    timing = Timing.of(Window.sliding(range_ms, slide), period)
    tick = timing.tick(ts)
    assert tick % period == 0 and tick - period < ts <= tick
    assert timing.window_start(tick) == Window.sliding(range_ms, slide).start(tick)
    assert _sql(timing.tick_sql("ts"), ts=ts) == tick
    assert _sql(timing.window_start_sql("t"), t=tick) == timing.window_start(tick)
    for oldest in range(ts - range_ms - 1, ts + 1):
        in_window = timing.window_start(tick) <= oldest
        assert _sql(timing.condition_sql("a", "b"), a=oldest, b=ts) == in_window == timing.is_match_at_its_tick(oldest, ts)
        if in_window:
            assert ts - oldest <= timing.range_bound_ms  # the range condition Spark evicts state by is implied


COMBINATIONS = st.lists(st.tuples(st.integers(0, 40), st.integers(0, 6)), max_size=12)


@given(COMBINATIONS, st.integers(2, 9), st.integers(1, 9), st.integers(1, 6), st.integers(1, 3))
def test_istream_reports_a_mapping_exactly_when_it_enters_the_window(occurrences, range_ms, slide, period, split):
    """Combinations of one mapping, emitted at their newest triple's tick when they fit its window, fed tick by tick
    (each tick's split over ``split`` micro-batches); reported ticks are those where it is present and was not."""
    timing = Timing.of(Window.sliding(range_ms, min(slide, range_ms)), period)
    combos = sorted({(newest - span, newest) for newest, span in occurrences if span < range_ms})
    emitted = [(timing.tick(newest), oldest) for oldest, newest in combos if timing.is_match_at_its_tick(oldest, newest)]
    state, reported = None, []
    for tick in sorted({tick for tick, _ in emitted}):
        of_tick = [combination for combination in emitted if combination[0] == tick]
        for part in range(split):
            ticks, state = new_ticks(timing, of_tick[part::split], state)
            reported += ticks

    def present(time: int) -> bool:
        return any(timing.present_at(oldest, newest, time) for oldest, newest in combos)

    expected = [tick for tick in sorted({tick for tick, _ in emitted}) if present(tick) and not present(tick - period)]
    assert reported == expected


def test_batch_figures_come_from_each_progress_report_once():
    def report(batch, ms, rows, state):
        return {"batchId": batch, "durationMs": {"triggerExecution": ms}, "numInputRows": rows,
                "stateOperators": [{"numRowsTotal": state, "memoryUsedBytes": 10 * state}, {"numRowsTotal": 1}]}

    figures = BatchFigures()
    figures.add([report(0, 300, 10, 4)])
    figures.add([report(0, 300, 10, 4), report(1, 100, 30, 6)])  # recentProgress repeats what was folded
    stats = figures.stats()
    assert stats["micro_batches"] == 2 and stats["input_rows"] == 40 and stats["batch_ms_total"] == 400
    assert stats["rows_per_s"] == 100 and stats["state_rows"] == 7 and stats["state_rows_peak"] == 7
    assert stats["batch_ms_max"] == 300 and stats["state_bytes_peak"] == 60


def test_the_engine_takes_its_profile_with_any_micro_batch_period_and_nothing_else():
    from engines.spark_streaming import SparkStreamingEngine

    capabilities = SparkStreamingEngine.capabilities
    query = parse_query(PREFIXES + "SELECT * WHERE { ?x :p ?y }", window="sliding:10:1")
    shipped = load_profile("spark-microbatch")
    assert shipped.tick_period == 1000 and capabilities.native_refusal(query, shipped) is None
    table = {"t0": "aligned", "bounds": "[o,c)", "tick": "time:1h", "report": ["every-tick"], "empty": False,
             "output": "istream"}
    assert capabilities.native_refusal(query, profile_from_table("hourly", table)) is None
    for key, value in (("output", "delta"), ("tick", "tuple"), ("empty", True), ("t0", 0)):
        refusal = capabilities.native_refusal(query, profile_from_table("x", {**table, key: value}))
        assert refusal.startswith("the semantics profile x on sliding windows (it reports natively under spark-microbatch")
    assert "sliding windows under this project's semantics" in capabilities.native_refusal(query, load_profile("cgpm"))


def test_what_a_streaming_query_cannot_express_is_refused_by_name():
    from engines.spark_streaming import SparkStreamingEngine

    capabilities = SparkStreamingEngine.capabilities
    query = parse_query(PREFIXES + "SELECT * WHERE { ?x :p ?y }", window="sliding:10:1")
    assert capabilities.refusal(query, profile=load_profile("spark-microbatch")) is None
    assert capabilities.refusal(query.with_window(Window("event"))) == "event windows (it supports: sliding)"
    assert capabilities.refusal(query.with_window(Window("unbounded"))) == "unbounded windows (it supports: sliding)"
    assert capabilities.refusal(query.with_entailment("rdfs")) == "entailment 'rdfs' (it supports: none)"
    assert capabilities.refusal(query, has_deletions=True) == "streams with deletions"
