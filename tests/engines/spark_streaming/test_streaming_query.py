"""The spark-streaming engine's Structured Streaming query gives the oracle's reports under its profile, end to end on tiny streams.

Spark time is kept small: one session for the test session (``tests/oracles/conftest.py``), two streaming
queries of a few micro-batches each. The first goes through ``cgpm verify --semantics``'s own function,
over a chain with a triple repeated inside the window (one mapping, several combinations: ISTREAM reports
it once), a stream-static join, static-only answers, a FILTER the plan compares as strings and one the
FILTER model evaluates. The second chains three stream-stream joins over a mapping that leaves the window
and comes back.
"""

from __future__ import annotations

import pytest

from engines.model.query import parse_query
from engines.model.semantics import profile_from_table
from engines.native_reports import run_profiled
from harness.verify_reports import verify_engine_reports
from oracles.reports import expected_reports
from tests.conformance.checks import PREFIXES, build_stream

# two streaming queries of 3-6 micro-batches: each batch plans and runs several stateful operators (about a second
# on a quiet machine), so the file takes about a minute
pytestmark = [pytest.mark.spark, pytest.mark.slow]


def _profile(period: int):
    return profile_from_table(f"tick{period}", {"t0": "aligned", "bounds": "[o,c)", "tick": f"time:{period}",
                                                "report": ["every-tick"], "empty": False, "output": "istream"})


def test_a_join_with_repeats_static_data_and_filters_reports_as_the_oracle(spark):
    events = [(0, ["+ :a :p :b"]), (1, ["+ :b :q :c"]), (2, ["+ :a :p :b"]), (3, ['+ :b :q "5"^^xsd:integer']),
              (5, ["+ :e :p :b", "+ :b :q :c"]), (8, ["+ :a :p :b"]), (9, ["+ :f :p :g"]), (10, ["+ :z :z :z"])]
    stream = build_stream(events, static=[":g :q :c", ":s :p :g"])
    query = parse_query(PREFIXES + "SELECT * WHERE { ?x :p ?y . ?y :q ?z . FILTER(?x != :e) "
                        "FILTER(!isLiteral(?z) || ?z > 3) }", window="sliding:5:1")
    profile = _profile(2)
    name, verdict = verify_engine_reports("spark-streaming", query, stream, profile)
    assert name == "spark-streaming" and verdict.agrees, verdict.verdict.divergence
    reports = expected_reports(query, stream, profile)
    assert [report.time for report in reports] == [0, 2, 4, 10]
    static_only = ("<http://ex/s>", "<http://ex/g>", "<http://ex/c>")
    assert static_only in reports[0].added  # every triple static: in every window, reported at the first tick


def test_three_joins_and_a_mapping_that_leaves_the_window_and_comes_back(spark):
    from engines.spark_streaming import SparkStreamingEngine

    events = [(1, ["+ :a :p :b", "+ :b :q :c"]), (2, ["+ :c :r :d"]), (3, ["+ :d :s :e"]), (9, ["+ :a :p :b"]),
              (10, ["+ :b :q :c", "+ :c :r :d", "+ :d :s :e"]), (13, ["+ :x :y :z"]), (14, ["+ :d :s :e"])]
    stream = build_stream(events)
    chain = parse_query(PREFIXES + "SELECT * WHERE { ?w :p ?x . ?x :q ?y . ?y :r ?z . ?z :s ?v }", window="sliding:6:2")
    profile = _profile(3)
    engine = SparkStreamingEngine(chain, profile=profile)
    try:
        reports = run_profiled(engine, chain, profile, stream.events)
        stats = engine.stats()
    finally:
        engine.close()
    assert reports == expected_reports(chain, stream, profile)
    assert [report.time for report in reports] == [3, 12]  # gone at 6 and 9, back at 12; tick 15 never comes
    assert stats["micro_batches"] == stats["ticks"] == 3 and stats["triples"] == 8
    assert stats["input_rows"] >= 8 and stats["batch_ms_total"] > 0  # Spark's own figures: each scan reads the source
