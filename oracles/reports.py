"""The report stream a query must give over a stream under a profile, from DESIGN.md section 2 (Profiles) and the oracles' own evaluation.

Each reported window instance's content is gathered here from the events and evaluated afresh with
``oracles.evaluate.answers_over_graph`` (rdflib or plain): nothing of an engine is used. For a sliding
window of range ω and slide x, instance k opens at ``o = base + k·x`` and closes at ``c = o + ω``;
``bounds`` say which of o and c it includes. ``aligned`` takes every k; an integer t0 takes k >= 0.

- Ticks: ``tuple`` after each event, ``batch`` after the last event of each timestamp, ``time:P`` at
  ``base + n·P`` from the first event's timestamp to the last's, seeing every event up to that time.
- Candidates at a tick: under ``window-close``, each instance whose last included timestamp lies
  before the tick's time, once, with all it includes (at the end of the stream the rest are flushed,
  each at the first timestamp beyond it); otherwise the oldest instance that includes the tick's
  time, with the events processed so far. Instances before the stream's first timestamp, and those
  that open after its last, are not candidates.
- A candidate is an evaluation when every report policy holds: ``content-change`` (its graph
  differs from the previous candidate's), ``non-empty`` (its graph has a triple), ``periodic:P`` (the
  time is ``base + n·P``); ``every-tick`` always holds.
- Rows: rstream the relation, istream what is not in the previous evaluation's relation, dstream
  what left it, delta both. With ``empty = false`` an evaluation with no rows is not reported (it
  still is the previous evaluation).

``event`` and ``unbounded`` windows and queries over several named windows have no instances: only
``cgpm`` takes them, its reports being the deltas of ``oracles.evaluate.oracle_answers``.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterator

from common.errors import ConfigError
from engines.model.semantics import Profile, Report
from engines.model.stream import ContinuousQuery, Mapping, Stream, Triple
from oracles.evaluate import answers_over_graph, oracle_answers
from oracles.window import check_stream

T0_ANY = "t0 = any is searched only by verify --answers (which origins explain a recorded answer); give an integer t0"


def profile_refusal(query: ContinuousQuery, profile: Profile) -> str | None:
    """Why the report stream of ``query`` under ``profile`` is not defined here, or None."""
    if profile.t0 == "any":
        return T0_ANY
    if profile.name == "cgpm" or _is_cgpm(profile):
        return None
    if query.named_windows:
        return (f"profile {profile.name} takes one window; the query declares {len(query.named_windows)} named "
                f"windows (only cgpm evaluates several)")
    if query.window.kind != "sliding":
        return f"profile {profile.name} is defined over time-based windows; the query's window is {query.window.kind}"
    return None


def _is_cgpm(profile: Profile) -> bool:
    return (profile.t0, profile.bounds, profile.tick, profile.report, profile.empty, profile.output) == (
        "aligned", "[o,c)", "tuple", frozenset({"every-tick"}), True, "delta")


def expected_reports(query: ContinuousQuery, stream: Stream, profile: Profile, oracle: str = "rdflib") -> list[Report]:
    """Every report ``query`` gives over ``stream`` under ``profile``, in order."""
    reason = profile_refusal(query, profile)
    if reason is not None:
        raise ConfigError(reason)
    if query.named_windows or query.window.kind != "sliding":
        return list(_cgpm_without_instances(query, stream, oracle))
    return list(_InstanceReports(query, stream, profile, oracle).reports())


def _cgpm_without_instances(query: ContinuousQuery, stream: Stream, oracle: str) -> Iterator[Report]:
    previous: frozenset[Mapping] = frozenset()
    for _, ts, answers in oracle_answers(query, stream, oracle=oracle):
        yield Report(ts, None, added=answers - previous, removed=previous - answers)
        previous = answers


class _InstanceReports:
    """The profile's ticks, candidates and evaluations over one sliding window (module docstring)."""

    def __init__(self, query: ContinuousQuery, stream: Stream, profile: Profile, oracle: str) -> None:
        check_stream(stream.events, query.window)
        self.query, self.stream, self.profile, self.oracle = query, stream, profile, oracle
        self.range, self.slide = query.window.range_ms, query.window.slide_ms
        self.times = [event.ts for event in stream.events]
        self.opens_after = 1 if profile.bounds == "(o,c]" else 0  # first included timestamp: o + this
        self.last_offset = self.range - (1 if profile.bounds == "[o,c)" else 0)  # last included: o + this
        self.relations: dict[frozenset[Triple], frozenset[Mapping]] = {}

    def opening(self, k: int) -> int:
        return self.profile.base + k * self.slide

    def last_included(self, k: int) -> int:
        return self.opening(k) + self.last_offset

    def first_k(self, ts: int) -> int:
        """The smallest admitted k whose instance's last included timestamp is at least ``ts``."""
        k = -((self.profile.base + self.last_offset - ts) // self.slide)  # ceil((ts - base - last_offset) / slide)
        return max(k, 0) if isinstance(self.profile.t0, int) else k

    def includes(self, k: int, ts: int) -> bool:
        return self.opening(k) + self.opens_after <= ts <= self.last_included(k)

    def ticks(self) -> Iterator[tuple[int, int]]:
        """``(time, how many events are processed)`` at each tick."""
        times, tick = self.times, self.profile.tick
        if tick == "tuple":
            yield from ((ts, n + 1) for n, ts in enumerate(times))
        elif tick == "batch":
            yield from ((ts, n + 1) for n, ts in enumerate(times) if n + 1 == len(times) or times[n + 1] > ts)
        elif times:
            period, base = self.profile.tick_period, self.profile.base
            time = base - ((base - times[0]) // period) * period  # the first base + n·P at or after the first event
            while time <= times[-1]:
                yield time, bisect_right(times, time)
                time += period

    def content(self, k: int, processed: int) -> frozenset[Triple]:
        low = bisect_right(self.times, self.opening(k) + self.opens_after - 1, 0, processed)
        high = bisect_right(self.times, self.last_included(k), 0, processed)
        return frozenset(update.triple for event in self.stream.events[low:high] for update in event.updates)

    def candidates(self) -> Iterator[tuple[int, int, frozenset[Triple]]]:
        """``(time, k, graph)`` of every candidate, in order."""
        if not self.times:
            return
        if "window-close" not in self.profile.report:
            for time, processed in self.ticks():
                k = self.first_k(time)
                if self.includes(k, time):
                    yield time, k, self.content(k, processed)
            return
        k = self.first_k(self.times[0])
        # the last instance that includes a timestamp up to the last event's: floor((τ_last - first offset - base) / x)
        last_k = (self.times[-1] - self.opens_after - self.profile.base) // self.slide
        for time, processed in self.ticks():
            while k <= last_k and self.last_included(k) < time:
                yield time, k, self.content(k, processed)
                k += 1
        for flushed in range(k, last_k + 1):  # the flush: a clock passing each close would report it
            yield self.last_included(flushed) + 1, flushed, self.content(flushed, len(self.times))

    def holds(self, time: int, graph: frozenset[Triple], previous_graph: frozenset[Triple]) -> bool:
        report, period = self.profile.report, self.profile.report_period
        if "content-change" in report and graph == previous_graph:
            return False
        if "non-empty" in report and not graph:
            return False
        return period is None or (time - self.profile.base) % period == 0

    def relation(self, graph: frozenset[Triple]) -> frozenset[Mapping]:
        if graph not in self.relations:
            self.relations[graph] = answers_over_graph(
                self.query, graph | frozenset(self.stream.static), self.oracle, self.stream.schema)
        return self.relations[graph]

    def reports(self) -> Iterator[Report]:
        previous_graph: frozenset[Triple] = frozenset()
        previous: frozenset[Mapping] = frozenset()
        output = self.profile.output
        for time, k, graph in self.candidates():
            if self.holds(time, graph, previous_graph):
                relation = self.relation(graph)
                report = Report(
                    time, (self.opening(k), self.opening(k) + self.range),
                    relation=relation if output == "rstream" else None,
                    added=relation - previous if output in ("istream", "delta") else None,
                    removed=previous - relation if output in ("dstream", "delta") else None)
                previous = relation
                if self.profile.empty or any((report.relation, report.added, report.removed)):
                    yield report
            previous_graph = graph

