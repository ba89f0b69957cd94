"""The oracle's report stream: under cgpm it is today's deltas exactly; the other profiles follow their rules on small cases."""

from __future__ import annotations

import pytest

from common.errors import ConfigError
from engines.model.query import parse_query
from engines.model.semantics import load_profile, profile_from_table
from oracles.evaluate import oracle_answers
from oracles.reports import expected_reports
from tests.conformance.checks import CHECKS, PREFIXES, build_stream


def _query(check):
    return parse_query(check.query_text(), window=check.window, entailment=check.entailment, name=check.name)


@pytest.mark.parametrize("check", CHECKS, ids=[check.name for check in CHECKS])
def test_cgpm_reports_are_todays_deltas(check):
    query, stream = _query(check), check.stream()
    previous, today = frozenset(), []
    for _, ts, answers in oracle_answers(query, stream):
        today.append((ts, answers - previous, previous - answers))
        previous = answers
    reports = expected_reports(query, stream, load_profile("cgpm"))
    assert [(r.time, r.added, r.removed) for r in reports] == today
    if query.window.kind == "sliding":  # the reported instance is the oldest that holds τ, as τ_b says
        assert all(r.window[0] == query.window.start(r.time) for r in reports)


ONE = parse_query(PREFIXES + "SELECT * WHERE { ?x :p ?y }", window="sliding:4:2")


def _profile(**changes):
    table = {"t0": 0, "bounds": "[o,c)", "tick": "tuple", "report": ["window-close"], "empty": True, "output": "rstream"}
    return profile_from_table("test", {**table, **changes})


def test_an_integer_t0_opens_the_first_instance_there_and_drops_what_comes_before():
    stream = build_stream([(0, ["+ :a :p :b"]), (3, ["+ :c :p :d"]), (9, ["+ :e :p :f"])])
    reports = expected_reports(ONE, stream, _profile(t0=3))
    assert [r.window for r in reports] == [(3, 7), (5, 9), (7, 11), (9, 13)]
    assert [len(r.relation) for r in reports] == [1, 0, 1, 1]


def test_window_close_reports_each_instance_once_then_flushes_at_the_end():
    stream = build_stream([(1, ["+ :a :p :b"]), (2, ["+ :c :p :d"]), (6, ["+ :e :p :f"])])
    reports = expected_reports(ONE, stream, _profile())
    # [0,4) and [2,6) close when ts 6 arrives; [4,8) and [6,10) are flushed, each at its close
    assert [(r.time, r.window, len(r.relation)) for r in reports] == [
        (6, (0, 4), 2), (6, (2, 6), 1), (8, (4, 8), 1), (10, (6, 10), 1)]
    non_empty = expected_reports(ONE, stream, _profile(report=["window-close", "non-empty"], empty=False))
    assert len(non_empty) == 4 and all(r.relation for r in non_empty)


def test_istream_rows_are_what_the_previous_evaluation_lacked():
    stream = build_stream([(0, ["+ :a :p :b"]), (1, ["+ :c :p :d"]), (5, ["+ :c :p :d"])])
    reports = expected_reports(ONE, stream, _profile(report=["every-tick"], output="istream", empty=False))
    assert [(r.time, sorted(r.added)) for r in reports] == [
        (0, [("<http://ex/a>", "<http://ex/b>")]), (1, [("<http://ex/c>", "<http://ex/d>")])]


def test_t0_any_and_windows_without_instances_are_refused_by_name():
    stream = build_stream([(0, ["+ :a :p :b"])])
    with pytest.raises(ConfigError, match="t0 = any is searched only by verify --answers"):
        expected_reports(ONE, stream, _profile(t0="any"))
    with pytest.raises(ConfigError, match="time-based windows; the query's window is event"):
        expected_reports(ONE.with_window(ONE.window.__class__("event")), stream, load_profile("csparql"))
