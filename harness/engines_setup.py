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

import os
from collections import deque
from collections.abc import Iterable, Iterator, Sequence

from common.errors import EngineError
from engines.adapters import can_adapt, windowed
from engines.model.semantics import DEFAULT_PROFILE, Profile, load_profile
from engines.model.stream import ContinuousQuery, Delta, Event, Stream
from engines.protocol import check_supported
from engines.query_set import PerQueryEngine
from engines.registry import resolve


def engine_class(reference: str | type) -> type:
    """The engine class a reference names (without the window adapter)."""
    return resolve(reference)


def engine_class_for(reference: str | type, query: ContinuousQuery, stream: Stream, profile: Profile | None = None
                     ) -> type:
    """The class to instantiate for ``query`` on ``stream`` under ``profile`` (None: ``cgpm``, the default
    semantics): the engine itself or its windowed adapter."""
    engine_cls = resolve(reference)
    has_static = bool(stream.static)
    has_deletions = stream.has_deletions
    if query.window.kind not in engine_cls.capabilities.windows and can_adapt(engine_cls):
        engine_cls = windowed(engine_cls)
    # an engine that reports natively is refused there any semantics but its own (Capabilities.native_refusal)
    check_supported(engine_cls, query, has_static=has_static, has_deletions=has_deletions, profile=profile)
    if engine_cls.capabilities.reports_natively(query):
        return engine_cls
    # without --semantics every command runs cgpm: an engine of another semantics says which to give
    refusal = engine_cls.capabilities.profile_refusal(profile or load_profile(DEFAULT_PROFILE))
    if refusal is not None:
        hint = f": give --semantics {sorted(engine_cls.capabilities.profiles)[0]}" if profile is None else ""
        raise EngineError(f"engine {engine_cls.name!r} does not support {refusal}{hint}")
    return engine_cls


def default_profile(engine_cls: type) -> Profile | None:
    """What a command that names no semantics runs an engine under: None (``cgpm``) when it takes it, else the
    profile it reports natively under (``spark-streaming``'s ``spark-microbatch``), or the first it declares."""
    capabilities = engine_cls.capabilities
    if capabilities.profile_refusal(load_profile(DEFAULT_PROFILE)) is None:
        return None
    return capabilities.reports or load_profile(sorted(capabilities.profiles)[0])


def start_runtime(engine_cls: type, master: str | None = None) -> None:
    """Start what an engine runs on before it is built: the SparkSession of an engine that is a Spark query
    (``master``, else ``CGPM_SPARK_MASTER``, else local mode), inside no Spark task (a session cannot start there)."""
    if not getattr(getattr(engine_cls, "inner", engine_cls), "runs_on_spark", False):
        return
    from pyspark import TaskContext

    if TaskContext.get() is not None:
        raise EngineError(f"engine {engine_cls.name!r} runs its own Spark query and cannot run inside a Spark task: "
                          "run its cells with runner = \"process\" (cgpm bench --runner process)")
    from harness.spark import spark_session

    spark_session(master or os.environ.get("CGPM_SPARK_MASTER"), app_name=f"cgpm {engine_cls.name}")


def profile_options(engine_cls: type, profile: Profile | None) -> dict:
    """The constructor options that give an engine built for a profile (``Capabilities.any_period``) that profile."""
    if profile is not None and engine_cls.capabilities.any_period:
        return {"profile": profile}
    return {}


def build_engine(reference: str | type, query: ContinuousQuery, stream: Stream, *, profile: Profile | None = None,
                 master: str | None = None, **options):
    engine_cls = engine_class_for(reference, query, stream, profile)
    start_runtime(engine_cls, master)
    try:
        return engine_cls(query, static=stream.static, schema=stream.schema, **profile_options(engine_cls, profile),
                          **options)
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
