"""Two report streams agree when, report by report, their times, windows and rows are equal, rows a bag (a set under SELECT DISTINCT).

A report to compare is a ``Compared``: its time and window (None where the recording does not
carry them: CSRBench's answers are stamped with the engine's own clock and name no window, so only
their rows count, as in CSRBench's oracle) and its rows per key (``relation``, ``added``,
``removed``), each a ``Counter`` of projected rows. A row's terms are compared through a *term key*:
the N-Triples term itself, or for CSRBench numeric literals their value (``numeric_key``).

``compare`` checks a whole stream (``match = "all"``, by a ``RunningComparison``, which also compares two
streams as they are made, holding only the reports one side has given and the other not yet) or a
contiguous run of the expected stream
(``match = "run"``: CSRBench's ``StreamProcessorOutput.contains``, since a recording starts and stops
at arbitrary moments) and names the first divergent report: its position, time and window, and per
key the rows missing from the recording and the extra ones. When the recording's report there is one
the oracle makes later (its time and window), the divergence is a *skipped instance*: the engine left
this instance out and went on, and it says so rather than that times or windows differ; at the same
time, the event that closed this instance closed the one reported too (RSP-JS and RSP4J report only the
newest of the instances one element closes; docs/external-engines.md).
"""

from __future__ import annotations

from collections import Counter, deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from engines.model.semantics import Report
from engines.model.values import NUMERIC, term_value
from harness.projection import Projection

KEYS = ("relation", "added", "removed")


@dataclass(frozen=True)
class Compared:
    """One report as compared: ``time``/``window`` None when unknown, ``rows`` per key present."""

    time: int | None
    window: tuple[int, int] | None
    rows: dict[str, Counter] = field(default_factory=dict)


@dataclass
class ReportDivergence:
    """The first report where the recording (or engine) departs from the oracle's stream."""

    position: int  # in the expected stream
    time: int | None
    window: tuple[int, int] | None
    missing: dict[str, list] = field(default_factory=dict)
    extra: dict[str, list] = field(default_factory=dict)
    what: str = "rows"  # rows | time | window | skipped-instance | missing-report | extra-report
    reported: Compared | None = None  # skipped-instance: the recording's report, which the oracle makes later

    def as_json(self) -> dict:
        found = {"report": self.position, "ts": self.time, "window": None if self.window is None else list(self.window),
                 "what": self.what, "missing": self.missing, "extra": self.extra}
        if self.reported is not None:
            found["reported"] = {"ts": self.reported.time, "window": list(self.reported.window)}
        return found

    def describe(self) -> str:
        where = f"report {self.position} (ts {self.time}, window {list(self.window) if self.window else None})"
        if self.what == "skipped-instance":
            window, time = list(self.reported.window), self.reported.time
            if time == self.time:
                return (f"{where}: not reported; the engine reports the newer instance {window} at ts {time} in its "
                        f"place, though the same event closed both (it reports only the newest of the instances one "
                        f"event closes)")
            return (f"{where}: not reported; the engine's next report, {window} at ts {time}, is one the oracle makes "
                    f"later, so it left this instance out")
        if self.what in ("missing-report", "extra-report"):
            return f"{where}: {'no such report in the recording' if self.what == 'missing-report' else 'a report the oracle does not make'}"
        parts = [f"{key}: missing {self.missing.get(key, [])[:5]}, extra {self.extra.get(key, [])[:5]}"
                 for key in sorted(set(self.missing) | set(self.extra))]
        return f"{where}, {self.what} differ: " + "; ".join(parts) if parts else f"{where}: {self.what} differ"


@dataclass
class ReportVerdict:
    agrees: bool
    expected: int  # reports in the oracle's stream
    recorded: int
    span: tuple[int, int] | None = None  # under match = run: the expected reports [first, last] the recording is
    divergence: ReportDivergence | None = None


def numeric_key(term):
    """A numeric literal by its value (CSRBench compares them as doubles), any other term as itself."""
    if term is None:
        return None
    value = term_value(term)
    return ("numeric", float(value.value)) if value.kind == NUMERIC else term


def _keyed(rows: Counter, term_key: Callable) -> Counter:
    keyed: Counter = Counter()
    for row, count in rows.items():
        keyed[tuple(term_key(term) for term in row)] += count
    return keyed


def from_reports(reports: Iterable[Report], projection: Projection) -> list[Compared]:
    """Oracle or engine reports (full mappings) projected as a trace shows them."""
    return [Compared(report.time, report.window,
                     {key: projection.answers(set(getattr(report, key))) for key in KEYS if getattr(report, key) is not None})
            for report in reports]


def _rows_equal(expected: Counter, recorded: Counter, distinct: bool) -> bool:
    return set(expected) == set(recorded) if distinct else expected == recorded


def _differ(expected: Compared, recorded: Compared, position: int, distinct: bool, term_key) -> ReportDivergence | None:
    if recorded.time is not None and recorded.time != expected.time:
        return ReportDivergence(position, expected.time, expected.window, what="time")
    if recorded.window is not None and recorded.window != expected.window:
        return ReportDivergence(position, expected.time, expected.window, what="window")
    missing, extra = {}, {}
    for key in sorted(set(expected.rows) | set(recorded.rows)):
        want = _keyed(expected.rows.get(key, Counter()), term_key)
        got = _keyed(recorded.rows.get(key, Counter()), term_key)
        if not _rows_equal(want, got, distinct):
            if distinct:
                want, got = Counter(set(want)), Counter(set(got))
            missing[key] = sorted(map(list, (want - got).elements()), key=str)
            extra[key] = sorted(map(list, (got - want).elements()), key=str)
    if missing or extra:
        return ReportDivergence(position, expected.time, expected.window, missing, extra)
    return None


def _aligned(expected: list[Compared], recorded: list[Compared], start: int, distinct: bool, term_key):
    """How many recorded reports agree with the expected ones from ``start``, and the first divergence."""
    for offset, report in enumerate(recorded):
        position = start + offset
        if position >= len(expected):
            return offset, ReportDivergence(position, report.time, report.window, what="extra-report")
        divergence = _differ(expected[position], report, position, distinct, term_key)
        if divergence is not None:
            return offset, divergence
    return len(recorded), None


class RunningComparison:
    """``compare`` with ``match = "all"`` over two report streams fed as they come: the reports one side has given and
    the other not yet are held, each pair compared as it completes; after the first divergence reports are counted only."""

    def __init__(self, *, distinct: bool, term_key: Callable = lambda term: term) -> None:
        self.distinct, self.term_key = distinct, term_key
        self.expected: deque[Compared] = deque()
        self.recorded: deque[Compared] = deque()
        self.position = 0  # reports of both sides compared
        self.counts = [0, 0]
        self.divergence: ReportDivergence | None = None

    def add(self, expected: Iterable[Compared], recorded: Iterable[Compared]) -> None:
        """More reports of the oracle (``expected``) and of the engine or recording (``recorded``)."""
        for side, reports in ((self.expected, expected), (self.recorded, recorded)):
            for report in reports:
                self.counts[side is self.recorded] += 1
                if self.divergence is None:
                    side.append(report)
        while self.divergence is None and self.expected and self.recorded:
            recorded = self.recorded.popleft()
            self.divergence = _differ(self.expected.popleft(), recorded, self.position, self.distinct, self.term_key)
            self.position += self.divergence is None
            if self.divergence is not None and self.divergence.what in ("time", "window") and self._due_later(recorded):
                self.divergence.what, self.divergence.reported = "skipped-instance", recorded

    def _due_later(self, recorded: Compared) -> bool:
        """Whether the oracle makes ``recorded``'s report (its time and instance) after the one it was compared with."""
        return recorded.window is not None and any(
            report.time == recorded.time and report.window == recorded.window for report in self.expected)

    def verdict(self) -> ReportVerdict:
        """At the end of both streams: a report left on one side is missing from, or extra in, the other."""
        divergence = self.divergence
        if divergence is None and self.recorded:
            report = self.recorded[0]
            divergence = ReportDivergence(self.position, report.time, report.window, what="extra-report")
        elif divergence is None and self.expected:
            report = self.expected[0]
            divergence = ReportDivergence(self.position, report.time, report.window, what="missing-report")
        return ReportVerdict(divergence is None, self.counts[0], self.counts[1], divergence=divergence)


def compare(expected: list[Compared], recorded: list[Compared], *, distinct: bool, match: str = "all",
            term_key: Callable = lambda term: term) -> ReportVerdict:
    """The verdict on ``recorded`` against the oracle's ``expected`` (module docstring)."""
    if match == "all":
        running = RunningComparison(distinct=distinct, term_key=term_key)
        running.add(expected, recorded)
        return running.verdict()
    verdict = ReportVerdict(False, len(expected), len(recorded))
    if not recorded:  # an empty recording is a run of any stream, as CSRBench's contains says
        verdict.agrees = True
        return verdict
    best = (-1, None)
    for start in range(len(expected)):
        agreed, divergence = _aligned(expected, recorded, start, distinct, term_key)
        if divergence is None:
            verdict.agrees, verdict.span = True, (start, start + len(recorded) - 1)
            return verdict
        if agreed > best[0]:
            best = (agreed, divergence)
    verdict.divergence = best[1] or ReportDivergence(0, None, None, what="extra-report")
    return verdict
