"""A windowed insert stream becomes an unbounded insert/delete stream, so update-only engines can run windowed queries.

``WindowedUpdates(engine_cls)`` is an engine class of its own: it keeps the window with
``WindowState`` and feeds the inner engine, built for the same query on an unbounded window, one
event per instant holding the expirations as deletes followed by the arrivals as inserts. The
answers are the same by construction: at every instant the inner engine's dynamic graph is D(τ).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from engines.model.stream import DELETE, INSERT, ContinuousQuery, Delta, Event, Mapping, Triple, Update, Window
from engines.protocol import Capabilities
from engines.window_state import WindowState

_UNBOUNDED = Window("unbounded")


def can_adapt(engine_cls: type) -> bool:
    capabilities = engine_cls.capabilities
    return capabilities.deletions and "unbounded" in capabilities.windows


def windowed(engine_cls: type) -> type:
    """An engine class running ``engine_cls`` behind the window adapter, named ``<name>+window``."""
    if not can_adapt(engine_cls):
        raise TypeError(f"{engine_cls.name} does not take unbounded insert/delete streams")
    inner_capabilities = engine_cls.capabilities

    class WindowedUpdates:
        name = f"{engine_cls.name}+window"
        inner = engine_cls
        capabilities = Capabilities(
            windows=frozenset({"sliding", "event", "unbounded"}),
            deletions=True,
            entailment=inner_capabilities.entailment,
            static=inner_capabilities.static,
            filters=inner_capabilities.filters,
            output=inner_capabilities.output,
            matches=inner_capabilities.matches,
        )

        def __init__(
            self, query: ContinuousQuery, *, static: Iterable[Triple] = (), schema: Iterable[Triple] = (), **options
        ) -> None:
            self.window = WindowState(query.window)
            self.engine = engine_cls(query.with_window(_UNBOUNDED), static=static, schema=schema, **options)

        def push(self, event: Event) -> Delta:
            added, removed = self.window.advance(event)
            updates = tuple(Update(DELETE, *t) for t in removed) + tuple(Update(INSERT, *t) for t in added)
            return self.engine.push(Event(event.index, event.ts, updates))

        def answers(self) -> Counter[Mapping]:
            return self.engine.answers()

        def stats(self) -> dict[str, int]:
            return {"window_triples": len(self.window), **self.engine.stats()}

        def close(self) -> None:
            close = getattr(self.engine, "close", None)
            if close is not None:
                close()

    WindowedUpdates.__qualname__ = WindowedUpdates.__name__ = f"Windowed{engine_cls.__name__}"
    return WindowedUpdates
