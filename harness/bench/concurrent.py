"""A bench cell with N concurrent queries runs as one engine class whose instance holds the query's N copies, so the timed passes need no change.

``concurrent_engine`` makes the copies once (``harness.bench.query_copies``, seed 0: every engine
of a run gets the same copies) and returns a class the cell's passes build like any engine: its
instance is ``harness.engines_setup.build_query_set`` over the copies (the engine's own sharing,
or one instance per query for ``NAME+perquery`` and for engines that cannot share), its ``push``
that query set's (a ``MultiDelta`` counts every copy's changes), and its answers the first copy's.
"""

from __future__ import annotations

from collections import Counter

from engines.model.stream import ContinuousQuery, Mapping
from harness.bench.matrix import PER_QUERY, engine_class
from harness.bench.query_copies import query_copies
from harness.engines_setup import build_query_set, close_engine, engine_class_for


def concurrent_engine(reference: str, query: ContinuousQuery, stream, count: int) -> type:
    """The engine class of a cell running ``count`` copies of ``query`` with the engine ``reference`` names."""
    inner = engine_class(reference)
    share = not reference.endswith(PER_QUERY)
    copies = query_copies(query, count, stream)
    for copy in copies:
        engine_class_for(inner, copy, stream)  # a refusal is the cell's status, before anything is timed
    built_name = f"{inner.name}{'' if share else PER_QUERY}"

    class ConcurrentQueries:
        name = built_name
        capabilities = inner.capabilities

        def __init__(self, first: ContinuousQuery, *, static=(), schema=(), **options) -> None:
            self.engine = build_query_set(inner, copies, stream, share=share, **options)
            self.push = self.engine.push

        def answers(self) -> Counter[Mapping]:
            return self.engine.answers(0) if len(copies) > 1 else self.engine.answers()  # one query: the engine itself

        def stats(self) -> dict[str, int]:
            return {**self.engine.stats(), "concurrent_queries": len(copies)}

        def close(self) -> None:
            close_engine(self.engine)

    ConcurrentQueries.inner = inner
    ConcurrentQueries.copies = copies
    return ConcurrentQueries
