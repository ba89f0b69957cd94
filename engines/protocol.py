"""The engine protocol of DESIGN.md section 3: a few methods, capabilities declared as data.

An engine is built for one query (with its window and entailment), fed events one at a time by
``push`` and asked for its current answers. It never sees the harness, Spark or the oracles.

Many queries: an engine that shares work between queries (``Capabilities.shares`` says what) also
has ``add_query(query) -> query_id``; the constructor's query is id 0, the next ones 1, 2, ... in
order, all registered before the first event. While it holds one query, ``push`` returns a
``Delta`` exactly as a one-query engine does; once it holds more, a ``MultiDelta``, one Delta per
query id; ``per_query`` reads either. ``answers(query_id)`` is one query's answers. An engine
without ``add_query`` runs many queries as one instance per query (``engines.query_set``).

Native reports: an engine with a semantics of its own (``Capabilities.reports``, a profile) gives, for a
query over one time-based window, the reports of that profile itself rather than deltas to be re-driven
(``engines.profiled``): ``push_reports(event)`` returns the reports the event makes due and
``finish_reports()`` those the end of the stream flushes, each an ``engines.model.semantics.Report``
(``engines.native_reports`` relays them). Its other windows (event, unbounded) give deltas as any engine's.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import ClassVar, Protocol, runtime_checkable

from common.errors import EngineError
from engines.model.semantics import Profile, profile_reference, same_but_tick_period
from engines.model.stream import ContinuousQuery, Delta, Event, Mapping, Triple

OUTPUTS = ("delta", "istream")


@dataclass(frozen=True)
class Capabilities:
    """What an engine can run. ``output='istream'`` engines are checked on added answers only."""

    windows: frozenset[str]
    deletions: bool
    entailment: frozenset[str]
    static: bool
    filters: bool
    output: str = "delta"
    matches: bool = True  # False for cost floors such as ``scan`` that compute no answers
    shares: str = ""  # what queries registered in one instance share ("" for none: one instance per query)
    # how many named windows (each over its stream, DESIGN.md section 2, Several streams) a query may have
    streams: int = 1
    # the semantics profiles it reports under (DESIGN.md section 2, Profiles): a profile's name, or a bounds
    # value ("[o,c)") that admits every profile with those bounds (engines.profiled applies the policy)
    profiles: frozenset[str] = frozenset({"cgpm"})
    # the profile it reports under natively on one time-based window (module docstring), or None: such queries
    # are then verified under that profile only, as its reports, and refused under any other semantics
    reports: Profile | None = None
    # whether it honours that profile with any period of its time:P tick (built with ``profile=``: spark-streaming)
    any_period: bool = False

    def __post_init__(self) -> None:
        if self.output not in OUTPUTS:
            raise ValueError(f"output must be one of {OUTPUTS}")

    def as_json(self) -> dict:
        """The JSON form (a descriptor's and a hello's); ``reports`` only when the engine has native reports."""
        table = {
            "windows": sorted(self.windows),
            "deletions": self.deletions,
            "entailment": sorted(self.entailment),
            "static": self.static,
            "filters": self.filters,
            "output": self.output,
            "matches": self.matches,
            "shares": self.shares,
            "streams": self.streams,
            "profiles": sorted(self.profiles),
        }
        if self.reports is not None:
            table["reports"] = profile_reference(self.reports)
        return table

    def reports_natively(self, query: ContinuousQuery) -> bool:
        """Whether this engine answers ``query`` with its own reports (one time-based window) rather than deltas."""
        return self.reports is not None and query.window.kind == "sliding" and not query.named_windows

    def native_refusal(self, query: ContinuousQuery, profile: Profile | None) -> str | None:
        """Why an engine that reports natively cannot give ``query``'s reports under ``profile`` (None: this project's
        semantics, as deltas), or None: its own reports cannot be re-driven under other rules."""
        if not self.reports_natively(query):
            return None
        native = self.reports.name
        if profile is None or profile.name == "cgpm":
            return (f"{query.window.kind} windows under this project's semantics (it reports natively under the profile "
                    f"{native}: verify or run it with --semantics {native})")
        if profile.rules() != self.reports.rules() and not (self.any_period and same_but_tick_period(profile, self.reports)):
            return (f"the semantics profile {profile.name} on {query.window.kind} windows (it reports natively under "
                    f"{native}, which cannot be re-driven under other rules: give --semantics {native})")
        return None

    def profile_refusal(self, profile) -> str | None:
        """Why this engine cannot report under ``profile`` (an ``engines.model.semantics.Profile``), or None.
        An engine that reports natively is judged on those queries by ``native_refusal`` instead."""
        if profile.name in self.profiles or profile.bounds in self.profiles:
            return None
        return f"the semantics profile {profile.name} (it supports: {', '.join(sorted(self.profiles))})"

    def refusal(self, query: ContinuousQuery, *, has_static: bool = False, has_deletions: bool = False,
                profile: Profile | None = None) -> str | None:
        """Why this engine cannot run ``query`` on such a stream, or None when it can; ``profile`` is the semantics it
        is asked for (None: this project's, as deltas), which matters only to an engine that reports natively."""
        if len(query.named_windows) > self.streams:
            return (f"queries over {len(query.named_windows)} named windows (it evaluates "
                    f"{'one window over one stream' if self.streams == 1 else f'at most {self.streams}'})")
        if query.window.kind not in self.windows:
            return f"{query.window.kind} windows (it supports: {', '.join(sorted(self.windows))})"
        if query.entailment not in self.entailment:
            return f"entailment {query.entailment!r} (it supports: {', '.join(sorted(self.entailment))})"
        if has_deletions and not self.deletions:
            return "streams with deletions"
        if has_static and not self.static:
            return "static data"
        if query.filters and not self.filters:
            return "FILTERs"
        return self.native_refusal(query, profile)


@runtime_checkable
class Engine(Protocol):
    name: ClassVar[str]
    capabilities: ClassVar[Capabilities]

    def __init__(
        self, query: ContinuousQuery, *, static: Iterable[Triple] = (), schema: Iterable[Triple] = (), **options
    ) -> None: ...

    def push(self, event: Event) -> Delta:
        """Apply one event and return the change of the answers it caused (read-only: it may be shared, as ``NO_CHANGE`` is)."""
        ...

    def answers(self) -> Counter[Mapping]:
        """The current answers ``M(τ)`` (for an istream engine: what it currently holds)."""
        ...

    def stats(self) -> dict[str, int]:
        """Sizes of the engine's structures (views, tokens, lists), for memory analysis."""
        ...


class MultiDelta(tuple):
    """The change of every registered query's answers at one instant: ``deltas[query_id]`` is a ``Delta``."""

    __slots__ = ()

    def __bool__(self) -> bool:
        return any(self)

    @property
    def added(self) -> list[Mapping]:
        """Every query's added answers, in query order: for counting (which query is the index's)."""
        return [mapping for delta in self for mapping in delta.added]

    @property
    def removed(self) -> list[Mapping]:
        return [mapping for delta in self for mapping in delta.removed]


def per_query(result: Delta | MultiDelta) -> tuple[Delta, ...] | MultiDelta:
    """The deltas by query id of what ``push`` returned: a one-query engine's Delta is query 0's."""
    return (result,) if isinstance(result, Delta) else result


@runtime_checkable
class ManyQueryEngine(Engine, Protocol):
    """An engine that registers several queries in one instance and shares what ``capabilities.shares`` says."""

    def add_query(self, query: ContinuousQuery) -> int:
        """Register one more query before the first event; its id (1, 2, ...: the constructor's query is 0)."""
        ...

    def push(self, event: Event) -> Delta | MultiDelta: ...

    def answers(self, query_id: int = 0) -> Counter[Mapping]: ...


def check_supported(engine_cls: type, query: ContinuousQuery, *, has_static=False, has_deletions=False,
                    profile: Profile | None = None) -> None:
    """Raise EngineError naming what ``engine_cls`` cannot run (under ``profile``, None for this project's semantics)."""
    reason = engine_cls.capabilities.refusal(query, has_static=has_static, has_deletions=has_deletions, profile=profile)
    if reason is not None:
        raise EngineError(f"engine {engine_cls.name!r} does not support {reason}")
