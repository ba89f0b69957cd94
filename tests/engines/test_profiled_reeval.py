"""reeval, TP-Join and SPECTRA under every profile with [o,c) bounds give the oracle's report stream on the conformance checks; others are refused by name."""

from __future__ import annotations

from functools import cache

import pytest

from common.errors import EngineError
from engines.baselines.reeval import ReevalEngine
from engines.model.query import parse_query
from engines.model.semantics import load_profile, named_profiles, profile_from_table
from engines.native_reports import run_profiled
from engines.profiled import ProfiledRun, check_profile
from engines.spectra import SpectraEngine, SpectraRevEngine, SpectraRevOnChangeEngine
from engines.tpjoin import TPJoinEagerEngine, TPJoinEventEngine, TPJoinIncrementalEngine
from oracles.reports import expected_reports
from tests.conformance.checks import CHECKS

SLIDING = [check for check in CHECKS if check.window.startswith(("sliding", "tumbling"))]
# beyond the shipped profiles: each tick, periodic reports, every output operator, an origin inside the stream
FILES = {
    "batch-delta": {"t0": "aligned", "tick": "batch", "report": ["every-tick"], "empty": False, "output": "delta"},
    "time2-dstream": {"t0": 1, "tick": "time:2", "report": ["content-change"], "empty": True, "output": "dstream"},
    "time3-close": {"t0": 0, "tick": "time:3", "report": ["window-close"], "empty": True, "output": "rstream"},
    "periodic2-istream": {"t0": 1, "tick": "tuple", "report": ["periodic:2", "non-empty"], "empty": True,
                          "output": "istream"},
    # window-close counted after c (RSP4J's test) on batch ticks: a content taken at c waits for a later tick
    "batch-close-after-c": {"t0": 1, "tick": "batch", "report": ["window-close"], "empty": True, "output": "istream",
                            "close": "after-c"},
}
PROFILES = [profile for profile in named_profiles().values() if profile.bounds == "[o,c)"] + [
    profile_from_table(name, {"bounds": "[o,c)", **table}) for name, table in FILES.items()]


# The incremental engines: each profile whose rules differ (sparqlstream is csparql with cqels's empty = false;
# cgpm is their own semantics, checked by the conformance suite) on the checks whose rules
# differ: a duplicate triple (content-change), equal timestamps (batch tick, closes), an exact boundary, slide 2,
# tumbling, static data (non-empty content with static answers). Without entailment, which they do not take.
INCREMENTAL = (TPJoinIncrementalEngine, TPJoinEagerEngine, SpectraEngine, SpectraRevEngine, SpectraRevOnChangeEngine)
DISTINCT_PROFILES = [profile for profile in PROFILES if profile.name not in ("cgpm", "sparqlstream")]
DISTINCT_CHECKS = [check for check in SLIDING if check.name in (
    "sliding-chain-duplicates", "sliding-star-equal-timestamps", "sliding-boundary-exact", "sliding-slide-two",
    "tumbling-boundary", "static-only-answers-empty-first-event")]


def _query(check):
    return parse_query(check.query_text(), window=check.window, entailment=check.entailment, name=check.name)


@cache
def _expected(profile_name: str, check_name: str):
    """The oracle's reports, computed once for every engine that runs the pair."""
    profile = next(profile for profile in PROFILES if profile.name == profile_name)
    check = next(check for check in SLIDING if check.name == check_name)
    return expected_reports(_query(check), check.stream(), profile, "plain")


@pytest.mark.parametrize(("engine_cls", "profile", "check"), [
    pytest.param(ReevalEngine, profile, check, id=f"reeval:{profile.name}:{check.name}")
    for profile in PROFILES for check in SLIDING] + [
    pytest.param(engine_cls, profile, check, id=f"{engine_cls.name}:{profile.name}:{check.name}")
    for engine_cls in INCREMENTAL for profile in DISTINCT_PROFILES for check in DISTINCT_CHECKS])
def test_an_engine_under_a_profile_reports_what_the_oracle_expects(engine_cls, profile, check):
    query, stream = _query(check), check.stream()
    engine = engine_cls(query, static=stream.static, schema=stream.schema)
    assert run_profiled(engine, query, profile, stream.events) == _expected(profile.name, check.name)


def test_the_profiles_tested_report_something_and_differ():
    """A profile whose reports are always empty, or equal to another's, would prove little here."""
    seen = {}
    for profile in PROFILES:
        reports = [expected_reports(_query(check), check.stream(), profile, "plain")
                   for check in SLIDING if check.entailment == "none"]  # closing each graph costs, and adds no contrast
        assert any(r.relation or r.added or r.removed for rs in reports for r in rs), profile.name
        seen.setdefault(repr(reports), []).append(profile.name)
    twins = [names for names in seen.values() if len(names) > 1]
    assert not twins, twins


def test_a_dropped_flush_is_caught():
    """Planted: an adapter that forgets the end-of-stream flush disagrees with the oracle."""
    check, profile = SLIDING[0], load_profile("csparql")
    query, stream = _query(check), check.stream()
    run = ProfiledRun(ReevalEngine(query), query, profile)
    without_flush = [report for event in stream.events for report in run.push(event)]
    assert without_flush != expected_reports(query, stream, profile)


def test_profiles_reeval_cannot_apply_are_refused_by_name():
    query = _query(SLIDING[0])
    with pytest.raises(EngineError, match=r"'reeval' does not support the semantics profile kolibrie \(it supports: \[o,c\)\)"):
        check_profile(ReevalEngine, query, load_profile("kolibrie"))
    with pytest.raises(EngineError, match=r"'tpjoin-event' does not support the semantics profile csparql \(it supports: cgpm\)"):
        check_profile(TPJoinEventEngine, query, load_profile("csparql"))
    check_profile(TPJoinIncrementalEngine, query, load_profile("csparql"))
    with pytest.raises(EngineError, match="'spectra' does not support the semantics profile kolibrie"):
        check_profile(SpectraEngine, query, load_profile("kolibrie"))
    event = parse_query(SLIDING[0].query_text(), window="event")
    with pytest.raises(EngineError, match="profile cqels on an event window"):
        check_profile(ReevalEngine, event, load_profile("cqels"))
    check_profile(ReevalEngine, event, load_profile("cgpm"))


@pytest.mark.parametrize("profile", [p for p in named_profiles().values() if p.bounds == "[o,c)"], ids=lambda p: p.name)
@pytest.mark.parametrize("check", DISTINCT_CHECKS, ids=lambda check: check.name)
def test_the_rdflib_and_plain_oracles_give_one_report_stream_under_every_profile(check, profile):
    """The two re-evaluating oracles are independent evaluators: under each profile their reports are equal."""
    query, stream = _query(check), check.stream()
    assert expected_reports(query, stream, profile, oracle="rdflib") == expected_reports(query, stream, profile, oracle="plain")
