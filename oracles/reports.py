"""The report stream a query must give over a stream under a profile, from DESIGN.md section 2 (Profiles) and the oracles' own evaluation.

Each reported window instance's content is gathered here from the events and evaluated afresh with
``oracles.evaluate.answers_over_graph`` (rdflib or plain): nothing of an engine is used. For a sliding
window of range ω and slide x, instance k opens at ``o = base + k·x`` and closes at ``c = o + ω``;
``bounds`` say which of o and c it includes. ``aligned`` takes every k; an integer t0 takes k >= 0.

- Ticks: ``tuple`` after each event, ``batch`` after the last event of each timestamp, ``time:P`` at
  ``base + n·P`` from the first event's timestamp to the last's, seeing every event up to that time.
- Candidates at a tick: under ``window-close``, each instance that closed before the tick's time, once,
  with all it includes: closed after its last included timestamp (``close = "after-last"``) or after
  its close c (``"after-c"``); at the end of the stream the rest are flushed, each at the first
  timestamp beyond that; otherwise the oldest instance that includes the tick's
  time, with the events processed so far. Instances before the stream's first timestamp, and those
  that open after its last, are not candidates.
- A candidate is an evaluation when every report policy holds: ``content-change`` (its graph
  differs from the previous candidate's), ``non-empty`` (its graph has a triple), ``periodic:P`` (the
  time is ``base + n·P``); ``every-tick`` always holds.
- Rows: rstream the relation, istream what is not in the previous evaluation's relation, dstream
  what left it, delta both. With ``empty = false`` an evaluation with no rows is not reported (it
  still is the previous evaluation).

``event`` and ``unbounded`` windows and queries over several named windows have no instances: only
``cgpm`` takes them, its reports being the deltas of ``oracles.evaluate.OracleRun``.

The stream is pushed event by event (``OracleReports``), so the oracle holds the events some instance
still to be reported may include, never the stream: the instances asked for only move forward (the
oldest one holding a tick's time, or the next to close), and what lies before the current one is let go.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Iterator

from common.errors import ConfigError
from engines.model.semantics import Profile, Report
from engines.model.stream import ContinuousQuery, Event, Mapping, Triple
from oracles.evaluate import OracleRun, answers_over_graph
from oracles.window import check_event

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


class OracleReports:
    """The oracle's reports under a profile, pushed the stream event by event: ``push`` gives the reports each event
    makes due, ``finish`` those due at the end."""

    def __init__(self, query: ContinuousQuery, static: Iterable[Triple], schema: Iterable[Triple], profile: Profile,
                 oracle: str = "rdflib") -> None:
        reason = profile_refusal(query, profile)
        if reason is not None:
            raise ConfigError(reason)
        if query.named_windows or query.window.kind != "sliding":
            self._run = _DeltaReports(query, static, schema, oracle)
        else:
            self._run = _InstanceReports(query, static, schema, profile, oracle)

    def push(self, event: Event) -> list[Report]:
        return self._run.push(event)

    def finish(self) -> list[Report]:
        return self._run.finish()


def oracle_reports(query: ContinuousQuery, stream, profile: Profile, oracle: str = "rdflib") -> Iterator[Report]:
    """Every report ``query`` gives over ``stream`` (events read as they pass) under ``profile``, in order."""
    run = OracleReports(query, stream.static, stream.schema, profile, oracle)
    for event in stream.events:
        yield from run.push(event)
    yield from run.finish()


def expected_reports(query: ContinuousQuery, stream, profile: Profile, oracle: str = "rdflib") -> list[Report]:
    """Every report ``query`` gives over ``stream`` under ``profile``, as a list."""
    return list(oracle_reports(query, stream, profile, oracle))


class _DeltaReports:
    """``cgpm`` without instances: after every event, the change of M(τ)."""

    def __init__(self, query: ContinuousQuery, static, schema, oracle: str) -> None:
        self.run = OracleRun(query, static, schema, oracle)
        self.previous: frozenset[Mapping] = frozenset()

    def push(self, event: Event) -> list[Report]:
        self.run.push(event)
        answers = self.run.answers()
        report = Report(event.ts, None, added=answers - self.previous, removed=self.previous - answers)
        self.previous = answers
        return [report]

    def finish(self) -> list[Report]:
        return []


class _InstanceReports:
    """The profile's ticks, candidates and evaluations over one sliding window (module docstring)."""

    def __init__(self, query: ContinuousQuery, static, schema, profile: Profile, oracle: str) -> None:
        self.query, self.profile, self.oracle = query, profile, oracle
        self.static, self.schema = frozenset(static), tuple(schema)
        self.range, self.slide = query.window.range_ms, query.window.slide_ms
        self.opens_after = 1 if profile.bounds == "(o,c]" else 0  # first included timestamp: o + this
        self.last_offset = self.range - (1 if profile.bounds == "[o,c)" else 0)  # last included: o + this
        # window-close: an instance closes after o + this (its last included timestamp, or c itself)
        self.close_offset = self.range if profile.close == "after-c" else self.last_offset
        self.held: deque[tuple[int, tuple[Triple, ...]]] = deque()  # processed events an instance to come may include
        self.pushed = 0
        self.last_ts: int | None = None
        self.next_k: int | None = None  # window-close: the next instance to close
        self.next_tick: int | None = None  # time:P: the next tick
        self.previous_graph: frozenset[Triple] = frozenset()
        self.previous: frozenset[Mapping] = frozenset()
        self.cached: tuple[frozenset[Triple], frozenset[Mapping]] | None = None  # the last graph evaluated

    def opening(self, k: int) -> int:
        return self.profile.base + k * self.slide

    def last_included(self, k: int) -> int:
        return self.opening(k) + self.last_offset

    def closes_after(self, k: int) -> int:
        """The last time at which instance k is still open: a tick later than this closes it."""
        return self.opening(k) + self.close_offset

    def first_k(self, ts: int) -> int:
        """The smallest admitted k whose instance's last included timestamp is at least ``ts``."""
        k = -((self.profile.base + self.last_offset - ts) // self.slide)  # ceil((ts - base - last_offset) / slide)
        return max(k, 0) if isinstance(self.profile.t0, int) else k

    def includes(self, k: int, ts: int) -> bool:
        return self.opening(k) + self.opens_after <= ts <= self.last_included(k)

    def push(self, event: Event) -> list[Report]:
        check_event(event, self.query.window, self.pushed, self.last_ts)
        self.pushed += 1
        reports: list[Report] = []
        tick = self.profile.tick
        if self.last_ts is None:
            self.next_k = self.first_k(event.ts)
            period, base = self.profile.tick_period, self.profile.base
            if period is not None:  # the first base + n·P at or after the first event
                self.next_tick = base - ((base - event.ts) // period) * period
        elif tick == "batch" and event.ts > self.last_ts:
            reports += self.tick(self.last_ts)
        reports += self.time_ticks_before(event.ts)
        self.held.append((event.ts, tuple(update.triple for update in event.updates)))
        self.last_ts = event.ts
        if tick == "tuple":
            reports += self.tick(event.ts)
        return reports

    def finish(self) -> list[Report]:
        """The last batch or time ticks, then the window-close flush: each instance left at the first timestamp after it closes."""
        if self.last_ts is None:
            return []
        reports = self.tick(self.last_ts) if self.profile.tick == "batch" else []
        reports += self.time_ticks_before(self.last_ts + 1)
        if "window-close" in self.profile.report:
            # the last instance that includes a timestamp up to the last event's: a clock passing each close reports it
            last_k = (self.last_ts - self.opens_after - self.profile.base) // self.slide
            while self.next_k <= last_k:
                reports += self.candidate(self.closes_after(self.next_k) + 1, self.next_k)
                self.next_k += 1
        return reports

    def time_ticks_before(self, ts: int) -> list[Report]:
        """The ``time:P`` ticks before ``ts``: every event up to their time has been pushed."""
        reports: list[Report] = []
        while self.next_tick is not None and self.next_tick < ts:
            reports += self.tick(self.next_tick)
            self.next_tick += self.profile.tick_period
        return reports

    def tick(self, time: int) -> list[Report]:
        if "window-close" in self.profile.report:
            reports: list[Report] = []
            # an instance that closed before the tick is reported once, with all it includes
            while self.closes_after(self.next_k) < time:
                reports += self.candidate(time, self.next_k)
                self.next_k += 1
            return reports
        k = self.first_k(time)
        return self.candidate(time, k) if self.includes(k, time) else []

    def content(self, k: int) -> frozenset[Triple]:
        """Instance k's triples among the events pushed; the events before it leave (no later candidate is older)."""
        low, high = self.opening(k) + self.opens_after, self.last_included(k)
        while self.held and self.held[0][0] < low:
            self.held.popleft()
        return frozenset(triple for ts, triples in self.held if ts <= high for triple in triples)

    def candidate(self, time: int, k: int) -> list[Report]:
        graph = self.content(k)
        reports = self.evaluate(time, k, graph) if self.holds(time, graph) else []
        self.previous_graph = graph
        return reports

    def holds(self, time: int, graph: frozenset[Triple]) -> bool:
        report, period = self.profile.report, self.profile.report_period
        if "content-change" in report and graph == self.previous_graph:
            return False
        if "non-empty" in report and not graph:
            return False
        return period is None or (time - self.profile.base) % period == 0

    def relation(self, graph: frozenset[Triple]) -> frozenset[Mapping]:
        if self.cached is None or self.cached[0] != graph:
            self.cached = (graph, answers_over_graph(self.query, graph | self.static, self.oracle, self.schema))
        return self.cached[1]

    def evaluate(self, time: int, k: int, graph: frozenset[Triple]) -> list[Report]:
        relation, output = self.relation(graph), self.profile.output
        report = Report(
            time, (self.opening(k), self.opening(k) + self.range),
            relation=relation if output == "rstream" else None,
            added=relation - self.previous if output in ("istream", "delta") else None,
            removed=self.previous - relation if output in ("dstream", "delta") else None)
        self.previous = relation
        if self.profile.empty or any((report.relation, report.added, report.removed)):
            return [report]
        return []
