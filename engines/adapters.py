"""A windowed insert stream becomes an unbounded insert/delete stream, so update-only engines can run windowed queries.

``WindowedUpdates(engine_cls)`` is an engine class of its own: it keeps the window with
``WindowState`` and feeds the inner engine, built for the same query on an unbounded window, one
event per instant holding the expirations as deletes followed by the arrivals as inserts. The
answers are the same by construction: at every instant the inner engine's dynamic graph is D(τ).

An inner engine that offers ``open_event``/``insert_arrival``/``delete_key``/``close_event`` (the delta engines)
keeps a sliding window as ``KeyedArrivals`` instead: per event, the term ids of the arrivals the
engine holds, and no copy of any term. Arrivals no pattern unifies with are not kept (they change
no answer), and a triple arriving while already held is counted, not stored twice, so it is
deleted only when its last arrival leaves, as ``WindowState`` would. Expirations are applied
before arrivals, each update as it comes, and the engine nets the event's changes: the inner
graph is D(τ) restricted to the triples the query reads.
"""

from __future__ import annotations

from array import array
from collections import Counter, deque
from collections.abc import Iterable

from common.errors import StreamError
from engines.model.stream import DELETE, INSERT, ContinuousQuery, Delta, Event, Mapping, Triple, Update, Window
from engines.protocol import Capabilities
from engines.window_state import WindowState

_UNBOUNDED = Window("unbounded")


def can_adapt(engine_cls: type) -> bool:
    capabilities = engine_cls.capabilities
    return capabilities.deletions and "unbounded" in capabilities.windows


def takes_keyed_arrivals(engine) -> bool:
    return all(hasattr(engine, method) for method in ("open_event", "insert_arrival", "delete_key", "close_event"))


CHUNK_IDS = 3 * 4096  # term ids per chunk of the arrival queue: whole arrivals, 48 KiB


class KeyedArrivals:
    """A sliding window's held arrivals for a keyed engine, oldest first, with repeat counts.

    The arrivals' term ids (three per arrival) sit in fixed-size ``array`` chunks, and each event
    that brought any has its timestamp and the count of ids appended up to its end: about 12 bytes
    per held arrival and 16 per event, where a tuple of three strings per arrival and an object per
    event would cost hundreds.
    """

    __slots__ = ("window", "engine", "chunks", "first", "consumed", "appended", "event_ts", "event_end",
                 "first_event", "repeats", "held", "last_ts")

    def __init__(self, window: Window, engine) -> None:
        self.window = window
        self.engine = engine
        self.chunks: deque[array] = deque()
        self.first = 0  # the oldest live id's place in chunks[0]
        self.consumed = 0  # ids expired since the start, and appended since the start
        self.appended = 0
        self.event_ts = array("q")  # per event with held arrivals, from first_event on
        self.event_end = array("q")
        self.first_event = 0
        self.repeats: dict[tuple, int] = {}  # held triple -> arrivals in the window beyond its first
        self.held = 0
        self.last_ts: int | None = None

    def __len__(self) -> int:
        return self.held

    def push(self, event: Event) -> Delta:
        if self.last_ts is not None and event.ts < self.last_ts:
            raise StreamError(f"event {event.index}: timestamp {event.ts} is before the previous {self.last_ts}")
        if any(update.op == DELETE for update in event.updates):
            raise StreamError(f"event {event.index}: deletions are allowed with unbounded windows only, not {self.window.kind}")
        self.last_ts = event.ts
        engine = self.engine
        engine.open_event()
        self._expire(self.window.start(event.ts))
        repeats, chunks = self.repeats, self.chunks
        insert = engine.insert_arrival
        appended = self.appended
        for update in event.updates:
            arrival = insert(update.s, update.p, update.o)
            if arrival is None:
                continue
            key, was_held = arrival
            if was_held:
                repeats[key] = repeats.get(key, 0) + 1
            else:
                self.held += 1
            if not chunks or len(chunks[-1]) == CHUNK_IDS:
                chunks.append(array("I"))
            chunks[-1].extend(key)
            appended += 3
        if appended != self.appended:
            self.appended = appended
            self.event_ts.append(event.ts)
            self.event_end.append(appended)
        return engine.close_event()

    def _expire(self, window_start: int) -> None:
        event_ts, event_end = self.event_ts, self.event_end
        number = self.first_event
        while number < len(event_ts) and event_ts[number] < window_start:
            self._leave_until(event_end[number])
            number += 1
        if number > 1024 and number * 4 > len(event_ts):  # drop the expired events' entries now and then
            del event_ts[:number]
            del event_end[:number]
            number = 0
        self.first_event = number

    def _leave_until(self, end: int) -> None:
        """Expire the queued arrivals up to id count ``end``: each is deleted unless a later arrival still holds it."""
        engine, repeats, chunks = self.engine, self.repeats, self.chunks
        while self.consumed < end:
            chunk, start = chunks[0], self.first
            stop = min(len(chunk), start + end - self.consumed)
            for i in range(start, stop, 3):
                key = (chunk[i], chunk[i + 1], chunk[i + 2])
                more = repeats.get(key)
                if more:
                    if more == 1:
                        del repeats[key]
                    else:
                        repeats[key] = more - 1
                else:
                    engine.delete_key(key)
                    self.held -= 1
            self.consumed += stop - start
            if stop == CHUNK_IDS:
                chunks.popleft()
                self.first = 0
            else:
                self.first = stop


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
            self.engine = engine_cls(query.with_window(_UNBOUNDED), static=static, schema=schema, **options)
            if query.window.kind == "sliding" and takes_keyed_arrivals(self.engine):
                self.window = KeyedArrivals(query.window, self.engine)
                self.push = self.window.push
            else:
                self.window = WindowState(query.window)

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
