"""RSP-JS on sliding windows, under its own profile rspjs: every report it makes is the oracle's, and the ones it leaves out are the ones docs/external-engines.md lists, each named by verify as a skipped instance."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from common.errors import EngineError
from engines.model.query import parse_query
from engines.model.semantics import load_profile
from engines.native_reports import NativeRun
from engines.registry import get_engine
from harness.engines_setup import build_engine, close_engine
from harness.projection import Projection
from harness.report_compare import RunningComparison, from_reports
from oracles.reports import expected_reports
from tests.conformance.checks import CHECKS
from tests.test_docs_reports import QUERY as DOC_QUERY
from tests.test_docs_reports import _stream as doc_stream

RSPJS = load_profile("rspjs")
DOC = Path(__file__).resolve().parents[3] / "docs" / "external-engines.md"
# | `check` | `window` | agrees, or skipped: TIME [O,C); TIME [O,C) ... |
ROW = re.compile(r"^\| `([a-z0-9-]+)` \| `([a-z0-9:]+)` \| (agrees|skipped: [^|]+?) \|", re.M)
INSTANCE = re.compile(r"(-?\d+) \[(-?\d+),(-?\d+)\)")
ROWS = {name: (window, verdict) for name, window, verdict in ROW.findall(DOC.read_text(encoding="utf-8"))}


@pytest.fixture(scope="module", autouse=True)
def _installed():
    reason = get_engine("rsp-js").descriptor.unavailable()
    if reason:
        pytest.skip(reason)


def _native_reports(query, stream) -> list:
    engine = build_engine("rsp-js", query, stream, profile=RSPJS)
    try:
        run = NativeRun(engine, query, RSPJS)
        return [report for event in stream.events for report in run.push(event)] + run.finish()
    finally:
        close_engine(engine)


def _is_subsequence(part: list, whole: list) -> bool:
    remaining = iter(whole)
    return all(any(report == candidate for candidate in remaining) for report in part)


def test_the_docs_list_every_sliding_check_without_entailment():
    sliding = {
        check.name
        for check in CHECKS
        if check.window.startswith(("sliding", "tumbling")) and check.entailment == "none"
    }
    assert set(ROWS) == sliding


@pytest.mark.parametrize("name", sorted(ROWS))
def test_rsp_js_reports_are_the_oracles_but_the_instances_the_docs_say_it_skips(name):
    check = next(check for check in CHECKS if check.name == name)
    window, verdict = ROWS[name]
    assert window == check.window
    query, stream = parse_query(check.query_text(), window=check.window, name=name), check.stream()
    expected, got = expected_reports(query, stream, RSPJS, "plain"), _native_reports(query, stream)
    assert _is_subsequence(got, expected)
    skipped = [report for report in expected if report not in got]
    listed = [(int(ts), (int(o), int(c))) for ts, o, c in INSTANCE.findall(verdict)]
    assert [(report.time, report.window) for report in skipped] == listed
    slide = query.window.slide_ms
    # each is left out at a time that closed the next instance too (after c: c + slide earlier than that time)
    assert all(report.window[1] + slide < report.time for report in skipped)
    running = RunningComparison(distinct=query.distinct)
    running.add(from_reports(expected, Projection(query)), from_reports(got, Projection(query)))
    result = running.verdict()
    assert result.agrees == (verdict == "agrees")
    if not result.agrees:
        assert result.divergence.what == "skipped-instance" and result.divergence.window == skipped[0].window


def test_design_md_first_example_through_rsp_js_only_the_newer_instance_at_7():
    reports = _native_reports(DOC_QUERY, doc_stream("events: 1 :a | 2 :b | 4 :b | 7 :c"))
    written = [(r.time, r.window, sorted(m[0].rsplit("/", 1)[1][:-1] for m in r.relation)) for r in reports]
    assert written == [(4, (-2, 2), ["a"]), (7, (2, 6), ["b"]), (9, (4, 8), ["b", "c"]), (11, (6, 10), ["c"])]


def test_other_semantics_and_windows_it_cannot_take_are_refused_by_name():
    check = next(check for check in CHECKS if check.name == "sliding-slide-two")
    query, stream = parse_query(check.query_text(), window=check.window), check.stream()
    with pytest.raises(EngineError, match="sliding windows under this project's semantics \\(it reports natively"):
        build_engine("rsp-js", query, stream)
    with pytest.raises(EngineError, match="profile csparql on sliding windows \\(it reports natively under rspjs"):
        build_engine("rsp-js", query, stream, profile=load_profile("csparql"))
    uneven = parse_query(check.query_text(), window="sliding:5:2")
    with pytest.raises(
        EngineError, match="refused: RANGE 5 is not a multiple of STEP 2: RSP-JS's instances then close"
    ):
        build_engine("rsp-js", uneven, stream, profile=RSPJS)
