"""An engine under a profile reports what the profile says, read off the engine's exact state: nothing is re-run.

The engine keeps its own semantics (DESIGN.md section 2: answers after every event, instances
``[k·x, k·x + ω)``). The adapter drives it so that its state *is* what the profile reports:

- times are shifted by the profile's t0, so the engine's instances are the profile's; the updates of an
  event before an integer t0 are dropped (it lies in no instance) while its instant stays;
- an empty *clock event* at a timestamp with nothing on the stream moves the engine's window there: at
  an instance's last included timestamp (its state is then that instance's whole content, which a
  window-close report needs, kept until a tick after it closes: with ``close = "after-c"`` that is
  later than c, so the content is taken before an event at c moves the window on), and at each tick
  of a ``time:P`` tick;
- the current answers are kept from the engine's deltas, and a ``engines.window_state.WindowState`` fed
  the same events tells whether the content is empty or changed.

So only ``[o,c)`` bounds are possible (the engine's), and ``Capabilities.profiles`` says so. An engine whose
evaluation *is* a profile's (``Capabilities.reports``: rsp-js, spark-streaming) is relayed, not re-driven
(``engines.native_reports``).
Which instances and ticks are reported follows ``oracles.reports``, written again here on purpose.
"""

from __future__ import annotations

from common.errors import EngineError
from engines.model.semantics import Profile, Report
from engines.model.stream import ContinuousQuery, Event, Mapping, Triple
from engines.window_state import WindowState


def check_profile(engine_cls: type, query: ContinuousQuery, profile: Profile) -> None:
    """Raise EngineError when ``engine_cls`` cannot report ``query`` under ``profile``, naming the profile."""
    capabilities = engine_cls.capabilities
    if capabilities.reports_natively(query):  # relayed, not re-driven: its own profile only (engines.native_reports)
        reason = capabilities.native_refusal(query, profile)
    else:
        reason = capabilities.profile_refusal(profile)
    if reason is None and profile.name != "cgpm" and (query.named_windows or query.window.kind != "sliding"):
        reason = f"profile {profile.name} on a{'' if query.named_windows else 'n'} {_what(query)} (time-based, one window)"
    if reason is None and profile.t0 == "any":
        reason = f"profile {profile.name} with t0 = any (an engine runs from one origin; verify --answers searches them)"
    if reason is not None:
        raise EngineError(f"engine {engine_cls.name!r} does not support {reason}")


def _what(query: ContinuousQuery) -> str:
    return f"query over {len(query.named_windows)} named windows" if query.named_windows else f"{query.window.kind} window"


class ProfiledRun:
    """Feeds one engine the stream event by event and returns the reports each event (and the end) makes."""

    def __init__(self, engine, query: ContinuousQuery, profile: Profile) -> None:
        check_profile(type(engine), query, profile)
        self.engine, self.query, self.profile = engine, query, profile
        self.instances = query.window.kind == "sliding" and not query.named_windows
        self.mirror = WindowState(query.window) if self.instances else None
        self.base = profile.base
        self.answers: set[Mapping] = set()
        self.fed = 0  # events given to the engine, clock events included: their indices
        self.first_ts: int | None = None
        self.last_ts: int | None = None
        self.next_k = 0  # the first instance not yet closed
        self.closed: list[tuple[int, frozenset[Triple], frozenset[Mapping]]] = []  # closed, not yet reported
        self.next_tick: int | None = None  # time ticks: the next one
        self.previous_graph: frozenset[Triple] = frozenset()
        self.previous: frozenset[Mapping] = frozenset()

    # ---- the engine's state

    def _feed(self, ts: int, updates: tuple) -> None:
        """Give the engine one event at stream time ``ts`` (shifted by t0), closing first the instances it passes."""
        if self.instances and "window-close" in self.profile.report:
            while self._last_included(self.next_k) < ts:
                self._feed_only(self._last_included(self.next_k), ())
                self.closed.append((self.next_k, frozenset(self.mirror.content), frozenset(self.answers)))
                self.next_k += 1
        self._feed_only(ts, updates)

    def _feed_only(self, ts: int, updates: tuple) -> None:
        event = Event(self.fed, ts - self.base, updates)
        self.fed += 1
        delta = self.engine.push(event)
        self.answers.difference_update(delta.removed)
        self.answers.update(delta.added)
        if self.mirror is not None:
            self.mirror.advance(event)

    def _opening(self, k: int) -> int:
        return self.base + k * self.query.window.slide_ms

    def _last_included(self, k: int) -> int:
        return self._opening(k) + self.query.window.range_ms - 1

    def _closes_after(self, k: int) -> int:
        """The last time instance k is open: a tick later than this reports it (its last included timestamp, or c)."""
        return self._last_included(k) + (1 if self.profile.close == "after-c" else 0)

    def _oldest_holding(self, ts: int) -> int:
        slide = self.query.window.slide_ms
        k = (ts - self.base - self.query.window.range_ms) // slide + 1
        return max(k, 0) if isinstance(self.profile.t0, int) else k

    # ---- the profile's policy

    def push(self, event: Event) -> list[Report]:
        if not self.instances:  # cgpm without instances: every event, its delta
            delta = self.engine.push(event)  # as it comes: named windows read its stream
            return [Report(event.ts, None, added=frozenset(delta.added), removed=frozenset(delta.removed))]
        reports: list[Report] = []
        if self.first_ts is None:
            self.first_ts = event.ts
            self.next_k = self._oldest_holding(event.ts)
            period = self.profile.tick_period
            if period is not None:
                self.next_tick = self.base - ((self.base - event.ts) // period) * period
        elif self.profile.tick == "batch" and event.ts > self.last_ts:
            reports += self._tick(self.last_ts)
        reports += self._time_ticks_before(event.ts)
        updates = event.updates if not isinstance(self.profile.t0, int) or event.ts >= self.profile.t0 else ()
        self._feed(event.ts, updates)
        self.last_ts = event.ts
        if self.profile.tick == "tuple":
            reports += self._tick(event.ts)
        return reports

    def finish(self) -> list[Report]:
        """The reports due at the end of the stream: the last batch or time ticks, then the window-close flush."""
        if not self.instances or self.first_ts is None:
            return []
        reports = self._tick(self.last_ts) if self.profile.tick == "batch" else []
        reports += self._time_ticks_before(self.last_ts + 1)
        if "window-close" in self.profile.report:
            for k, graph, relation in self.closed:  # closed after the last tick: each at the first timestamp beyond it
                reports += self._evaluate(self._closes_after(k) + 1, k, graph, relation)
            self.closed = []
            last_k = (self.last_ts - self.base) // self.query.window.slide_ms
            while self.next_k <= last_k:
                k = self.next_k
                self._feed(self._last_included(k) + 1, ())  # takes k's whole content
                reports += self._report_closed(self._closes_after(k) + 1)
        return reports

    def _time_ticks_before(self, ts: int) -> list[Report]:
        reports: list[Report] = []
        while self.next_tick is not None and self.next_tick < ts:
            tick, self.next_tick = self.next_tick, self.next_tick + self.profile.tick_period
            self._feed(tick, ())
            reports += self._tick(tick)
        return reports

    def _tick(self, time: int) -> list[Report]:
        if "window-close" in self.profile.report:
            return self._report_closed(time)
        k = self._oldest_holding(time)
        if self._opening(k) > time:
            return []
        return self._evaluate(time, k, frozenset(self.mirror.content), frozenset(self.answers))

    def _report_closed(self, time: int) -> list[Report]:
        """The instances whose content was taken and that closed before ``time``; the others wait for a later tick."""
        due = [entry for entry in self.closed if self._closes_after(entry[0]) < time]
        self.closed = self.closed[len(due):]  # taken in order of k, so the due ones come first
        return [report for k, graph, relation in due for report in self._evaluate(time, k, graph, relation)]

    def _evaluate(self, time: int, k: int, graph: frozenset[Triple], relation: frozenset[Mapping]) -> list[Report]:
        """The report of one candidate, or none when a policy does not hold or it has no rows and empty is false."""
        profile, previous_graph = self.profile, self.previous_graph
        self.previous_graph = graph
        period = profile.report_period
        if ("content-change" in profile.report and graph == previous_graph) or (
                "non-empty" in profile.report and not graph) or (
                period is not None and (time - self.base) % period):
            return []
        output, previous = profile.output, self.previous
        self.previous = relation
        report = Report(time, (self._opening(k), self._opening(k) + self.query.window.range_ms),
                        relation=relation if output == "rstream" else None,
                        added=relation - previous if output in ("istream", "delta") else None,
                        removed=previous - relation if output in ("dstream", "delta") else None)
        if not profile.empty and not (report.relation or report.added or report.removed):
            return []
        return [report]
