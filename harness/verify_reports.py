"""Under a profile, an engine or a recorded answer is correct when its report stream is the oracle's (``oracles.reports``), report by report.

``verify_engine_reports``: the engine driven under the profile (``engines.profiled``), or relayed when it
reports natively under that profile (``engines.native_reports``), against the oracle's reports, both pushed the stream event by event as it is read and compared as they come, so
verify holds the window, not the stream; a wrong engine is named at its first divergent report
(``harness.report_compare``).

``judge_answers``: a recorded report stream (``harness.recorded_reports``) against the oracle's, the
whole stream or, with ``match = "run"``, a contiguous run of it. With ``t0 = "any"`` the origins
are searched as CSRBench's oracle searches them (``Oracle.main``): t0 from ``first_t0`` (0) to
``first_t0`` plus the window's range, in steps of ``t0_step`` (CSRBench's ``system.timeunit``,
1000 ms, read from its config by ``harness.csrbench.oracle_time_unit``), stopping at the first t0
that explains the answer; when none does, the verdict keeps the divergence of the first t0 tried.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path

from common.errors import ConfigError
from engines.model.semantics import Profile
from engines.model.stream import ContinuousQuery
from engines.native_reports import report_run
from harness.engines_setup import build_engine, close_engine, engine_class_for
from harness.projection import Projection
from harness.recorded_reports import read_recorded
from harness.report_compare import ReportVerdict, RunningComparison, compare, from_reports, numeric_key
from oracles.reports import OracleReports, expected_reports

REPORT_ORACLES = ("rdflib", "plain")


@dataclass
class ProfileVerdict:
    """A verdict under a profile; ``t0`` is the origin that explains the answer (or was tried), ``tried`` every one tried."""

    profile: str
    verdict: ReportVerdict
    t0: int | str | None = None
    tried: list[int] = field(default_factory=list)

    @property
    def agrees(self) -> bool:
        return self.verdict.agrees


def report_oracle(oracle: str) -> str:
    """The oracle that computes report streams: ``auto`` is rdflib; the others are refused by name."""
    if oracle == "auto":
        return "rdflib"
    if oracle not in REPORT_ORACLES:
        raise ConfigError(f"--semantics is verified with the rdflib or plain oracle, not {oracle}")
    return oracle


def verify_engine_reports(engine: str | type, query: ContinuousQuery, stream, profile: Profile,
                          oracle: str = "rdflib", master: str | None = None) -> tuple[str, ProfileVerdict]:
    """``(the engine's name, its verdict)``: its reports under ``profile`` against the oracle's, the stream read once."""
    engine_cls = engine_class_for(engine, query, stream, profile)
    instance = build_engine(engine_cls, query, stream, profile=profile, master=master)
    projection = Projection(query)
    running = RunningComparison(distinct=query.distinct)
    try:
        run = report_run(instance, query, profile)
        expected = OracleReports(query, stream.static, stream.schema, profile, report_oracle(oracle))
        for event in stream.events:
            running.add(from_reports(expected.push(event), projection), from_reports(run.push(event), projection))
        running.add(from_reports(expected.finish(), projection), from_reports(run.finish(), projection))
    finally:
        close_engine(instance)
    return engine_cls.name, ProfileVerdict(profile.name, running.verdict(), profile.t0)


def origins(query: ContinuousQuery, first_t0: int, step: int) -> list[int]:
    """CSRBench's search: t0 from ``first_t0`` to ``first_t0`` + the window's range, in steps of ``step``."""
    if step < 1:
        raise ConfigError(f"--t0-step must be at least 1 ms, got {step}")
    if query.window.kind != "sliding" or query.named_windows:
        raise ConfigError("t0 = any is searched over a time-based window; the query has none")
    return list(range(first_t0, first_t0 + query.window.range_ms + 1, step))


def judge_answers(path: Path, form: str, query: ContinuousQuery, stream, profile: Profile, *, match: str = "all",
                  oracle: str = "rdflib", first_t0: int = 0, t0_step: int = 1000) -> ProfileVerdict:
    """The verdict on the recorded answer at ``path`` (module docstring)."""
    recorded = read_recorded(path, form, query, profile)
    projection = Projection(query)
    # CSRBench compares numeric literals by value; a trace is compared term by term, as our oracles give them
    term_key = numeric_key if form == "csrbench" else (lambda term: term)
    candidates = origins(query, first_t0, t0_step) if profile.t0 == "any" else [profile.t0]
    first: ProfileVerdict | None = None
    for t0 in candidates:
        fixed = replace(profile, t0=t0)
        expected = from_reports(expected_reports(query, stream, fixed, report_oracle(oracle)), projection)
        verdict = ProfileVerdict(profile.name, compare(expected, recorded, distinct=query.distinct, match=match,
                                                       term_key=term_key), t0)
        first = first or verdict
        if verdict.agrees:
            verdict.tried = candidates[:candidates.index(t0) + 1]
            return verdict
    first.tried = candidates
    if profile.t0 == "any":
        first.t0 = None  # no origin explains it; the divergence shown is the first origin's
    return first


def describe(verdict: ProfileVerdict) -> str:
    """One line: agrees or not, the span under a run, the origin searched."""
    result = verdict.verdict
    text = "correct" if result.agrees else "NOT correct"
    if result.span is not None:
        text += f": reports {result.span[0]} to {result.span[1]} of the oracle's {result.expected}"
    else:
        text += f": {result.recorded} reports against the oracle's {result.expected}"
    if len(verdict.tried) > 1 or verdict.t0 is None:
        searched = f"t0 searched over {verdict.tried[0]}..{verdict.tried[-1]} ({len(verdict.tried)} tried)"
        text += f"; {searched}, explained by t0 = {verdict.t0}" if verdict.agrees else f"; {searched}, no t0 explains it"
    return text
