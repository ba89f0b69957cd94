"""An engine is built for a query and stream only when it can run them, behind the window adapter when it needs one.

The one place the harness turns a name into a running engine: registry lookup, capability check
(a clear EngineError naming what is unsupported), and the windowed-to-updates adapter for
engines that take only unbounded insert/delete streams.
"""

from __future__ import annotations

from common.errors import EngineError
from engines.adapters import can_adapt, windowed
from engines.model.stream import ContinuousQuery, Stream
from engines.protocol import check_supported
from engines.registry import get_engine


def engine_class_for(name_or_class: str | type, query: ContinuousQuery, stream: Stream) -> type:
    """The class to instantiate for ``query`` on ``stream``: the engine itself or its windowed adapter."""
    engine_cls = get_engine(name_or_class) if isinstance(name_or_class, str) else name_or_class
    has_static = bool(stream.static)
    has_deletions = stream.has_deletions
    if query.window.kind not in engine_cls.capabilities.windows and can_adapt(engine_cls):
        engine_cls = windowed(engine_cls)
    check_supported(engine_cls, query, has_static=has_static, has_deletions=has_deletions)
    return engine_cls


def build_engine(name_or_class: str | type, query: ContinuousQuery, stream: Stream, **options):
    engine_cls = engine_class_for(name_or_class, query, stream)
    try:
        return engine_cls(query, static=stream.static, schema=stream.schema, **options)
    except TypeError as error:
        raise EngineError(f"engine {engine_cls.name!r} rejected its options: {error}") from None
