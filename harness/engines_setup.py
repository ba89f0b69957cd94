"""An engine is built for a query and stream only when it can run them, behind the window adapter when it needs one.

The one place the harness turns an engine reference into a running engine, for every command
(``run``, ``verify``, ``bench``, the tests): ``engines.registry.resolve`` (a registered name,
``package.module:Class``, or an external engine's ``.toml`` descriptor), the capability check (a
clear EngineError naming what is unsupported), and the windowed-to-updates adapter for engines
that take only unbounded insert/delete streams. Every command reports the engine by the class's
``name``, so an adapted ``delta`` is ``delta+window`` everywhere.

``engine_deltas`` is how every command feeds an engine: through its ``feed`` when it has one (an
external engine keeps many events in flight, each answered on its own), else ``push`` by ``push``;
``engine_steps`` pairs each delta with its event while reading the events once. A ``stream`` here
is a ``Stream`` in memory or a ``OpenStream`` read batch by batch: both have ``static``, ``schema``
and ``has_deletions``.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Iterator, Sequence

from common.errors import EngineError
from engines.adapters import can_adapt, windowed
from engines.model.semantics import Profile
from engines.model.stream import ContinuousQuery, Delta, Event, Stream
from engines.protocol import check_supported
from engines.query_set import PerQueryEngine
from engines.registry import resolve


def engine_class(reference: str | type) -> type:
    """The engine class a reference names (without the window adapter)."""
    return resolve(reference)


def engine_class_for(reference: str | type, query: ContinuousQuery, stream: Stream, *,
                     semantics: Profile | None = None) -> type:
    """The class to instantiate for ``query`` on ``stream``: the engine itself or its windowed adapter; ``semantics``
    is the profile its reports are asked under (None: this project's semantics, as deltas)."""
    engine_cls = resolve(reference)
    has_static = bool(stream.static)
    has_deletions = stream.has_deletions
    if query.window.kind not in engine_cls.capabilities.windows and can_adapt(engine_cls):
        engine_cls = windowed(engine_cls)
    check_supported(engine_cls, query, has_static=has_static, has_deletions=has_deletions, profile=semantics)
    return engine_cls


def build_engine(reference: str | type, query: ContinuousQuery, stream: Stream, *, semantics: Profile | None = None,
                 **options):
    engine_cls = engine_class_for(reference, query, stream, semantics=semantics)
    try:
        return engine_cls(query, static=stream.static, schema=stream.schema, **options)
    except TypeError as error:
        raise EngineError(f"engine {engine_cls.name!r} rejected its options: {error}") from None


def build_query_set(reference: str | type, queries: Sequence[ContinuousQuery], stream: Stream, *, share: bool = True,
                    **options):
    """One engine holding every query (ids in order): the engine's own ``add_query`` when it shares and
    ``share`` is set, else one instance per query behind ``PerQueryEngine``; every query is checked first."""
    if not queries:
        raise EngineError("no query to run")
    classes = [engine_class_for(reference, query, stream) for query in queries]
    first = build_engine(reference, queries[0], stream, **options)
    if len(queries) == 1:
        return first
    if not (share and all(engine_cls.capabilities.shares for engine_cls in classes)):
        first = PerQueryEngine(first, lambda query: build_engine(reference, query, stream, **options))
    for query in queries[1:]:
        first.add_query(query)
    return first


def engine_deltas(engine, events: Iterable[Event]) -> Iterator[Delta]:
    """Each event's Delta in order: ``engine.feed(events)`` when the engine batches, else one ``push`` per event."""
    feed = getattr(engine, "feed", None)
    return feed(events) if feed is not None else map(engine.push, events)


def engine_steps(engine, events: Iterable[Event]) -> Iterator[tuple[Event, Delta]]:
    """Each event with its Delta, in order, reading ``events`` once (a stream read batch by batch cannot be read twice).

    An engine that batches (``feed``) takes events ahead of its answers; the ones it has taken and not
    yet answered wait in a queue, so each answer meets its own event."""
    in_flight: deque[Event] = deque()

    def taken() -> Iterator[Event]:
        for event in events:
            in_flight.append(event)
            yield event

    for delta in engine_deltas(engine, taken()):
        yield in_flight.popleft(), delta


def close_engine(engine) -> None:
    """Release what an engine holds outside this process (an external engine's child); a no-op for the others."""
    close = getattr(engine, "close", None)
    if close is not None:
        close()
