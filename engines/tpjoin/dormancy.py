"""Dormant queries: a query whose most selective pattern has nothing in its window holds no instance, and its window's triples wait in logs shared by the query set.

I-CGPM-L (Algorithm 3, lines 1-6) joins only when every view of the query is non-empty; over a
query set the same idea goes further. Each sliding-window query without static data has an
anchor, its pattern whose constants the fewest queries share (a copy's own constant, where the
copies share their other patterns). While no triple fitting the anchor is in the query's window,
the query has no match, so it needs no views: it is dormant, has no engine instance, and is never
pushed. The triples that fit any pattern of a dormant-capable query are logged once per pattern
constants and window, for the whole set (``logs``, trimmed to the window at every event). When a
triple fitting its anchor arrives, the query wakes: a fresh instance is fed the logged events of
the window that fit its patterns, in order (no delta: its anchor view is empty until now), then
the current event as an awake query. When its anchor's log empties (the anchor's triples left the
window), it is pushed that event, reporting its removals, and goes back to sleep.

Exact: the fresh instance sees, in order and at their timestamps, every triple of the window that
can instantiate one of its patterns, which is what a query pushed all along holds.
"""

from __future__ import annotations

from collections import deque

from engines.model.stream import Event, Update, is_variable


def _route_key(pattern) -> tuple:
    return tuple(None if is_variable(term) else term for term in pattern)


class Dormancy:
    """The logs and anchors of one ``RoutedQuerySet``, built at its first event (every query is registered by then)."""

    def __init__(self, query_set) -> None:
        self.query_set = query_set
        self.logs: dict[tuple, deque] = {}  # (route key, window) -> (event index, ts, updates) in the window
        self.log_windows: dict[tuple, list] = {}  # route key -> the windows it is logged for
        self.anchored: dict[tuple, list[int]] = {}  # (anchor key, window) -> dormant-capable queries
        self.keys_by_query: dict[int, list[tuple]] = {}
        self.pending: dict[tuple, list[Update]] = {}  # this event's updates by (route key, window)
        self.to_sleep: list[int] = []
        if query_set.static:
            return  # a static triple may fit an anchor: no query is ever without matches for sure
        for query_id, query in enumerate(query_set.queries):
            window = query.window
            if window.kind != "sliding":
                continue
            keys = list(dict.fromkeys(_route_key(pattern) for pattern in query.patterns))
            anchor = min(keys, key=lambda key: (len(query_set.routes[key]), keys.index(key)))
            for key in keys:
                self.logs.setdefault((key, window), deque())
                windows = self.log_windows.setdefault(key, [])
                if window not in windows:
                    windows.append(window)
            self.anchored.setdefault((anchor, window), []).append(query_id)
            self.keys_by_query[query_id] = keys
            query_set.sleep(query_id)  # before its first event nothing fits its anchor

    def trim(self, now: int) -> None:
        starts = {}
        for (_, window), log in self.logs.items():
            start = starts.get(window)
            if start is None:
                start = starts[window] = window.start(now)
            while log and log[0][1] < start:
                log.popleft()

    def log(self, keys: list[tuple], update: Update) -> None:
        pending, log_windows = self.pending, self.log_windows
        for key in keys:
            for window in log_windows.get(key, ()):
                updates = pending.get((key, window))
                if updates is None:
                    pending[(key, window)] = [update]
                else:
                    updates.append(update)

    def close_event(self, event: Event, updates_for: dict[int, list[Update]]) -> set[int]:
        """Log the event; wake the dormant queries whose anchor it fits (their updates into ``updates_for``); the woken."""
        query_set, logs = self.query_set, self.logs
        for logged, updates in self.pending.items():
            logs[logged].append((event.index, event.ts, updates))
        waking = {query_id for logged in self.pending for query_id in self.anchored.get(logged, ())
                  if query_set.pushes[query_id] is None}
        self.pending = {}
        for query_id in waking:
            window = query_set.windows[query_id]
            events: dict[int, tuple[int, dict]] = {}
            for key in self.keys_by_query[query_id]:
                for index, ts, updates in logs[(key, window)]:
                    slot = events.get(index)
                    if slot is None:
                        slot = events[index] = (ts, {})
                    slot[1].update(dict.fromkeys(updates))
            current = events.pop(event.index)
            query_set.wake(query_id, [Event(index, ts, tuple(updates)) for index, (ts, updates) in sorted(events.items())])
            updates_for[query_id] = list(current[1])
        self.to_sleep = [query_id for logged, query_ids in self.anchored.items() if not logs[logged]
                         for query_id in query_ids if query_set.pushes[query_id] is not None]
        return waking

    def put_to_sleep(self) -> None:
        """The awake queries whose anchor left the window, pushed this event, drop their instances."""
        for query_id in self.to_sleep:
            self.query_set.sleep(query_id)
        self.to_sleep = []

    def logged(self) -> int:
        return sum(len(updates) for log in self.logs.values() for _, _, updates in log)
