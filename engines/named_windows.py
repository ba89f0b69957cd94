"""The dynamic graphs D_k(τ) of a query's named windows, each over its own stream, all moved to every instant's τ.

DESIGN.md section 2 (Several streams): at each instant of the merged streams every window is evaluated
at that instant's timestamp. The window over the event's stream takes the event; every other window only
expires to τ (an event with no updates), so an event on one stream can empty another stream's window.
"""

from __future__ import annotations

from collections.abc import Sequence

from common.errors import StreamError
from engines.model.stream import Event, NamedWindow, Triple
from engines.window_state import WindowState


class NamedWindowsState:
    """``advance(event)`` moves every named window to the event's instant; it returns each window's ``(added, removed)``."""

    def __init__(self, named_windows: Sequence[NamedWindow]) -> None:
        self.windows = tuple(WindowState(named.window) for named in named_windows)
        self.streams = tuple(named.stream for named in named_windows)

    def __len__(self) -> int:
        return sum(len(window) for window in self.windows)

    @property
    def contents(self) -> tuple[set[Triple], ...]:
        return tuple(window.content for window in self.windows)

    def advance(self, event: Event) -> list[tuple[set[Triple], set[Triple]]]:
        if event.stream not in self.streams:  # a stream no window reads: not the harness's merge (one stream fed as is?)
            raise StreamError(f"event {event.index} comes from stream {event.stream!r}, which no named window reads "
                              f"(they read {', '.join(dict.fromkeys(self.streams))})")
        expiry = None
        changes = []
        for window, stream in zip(self.windows, self.streams):
            if stream == event.stream:
                changes.append(window.advance(event))
            else:
                if expiry is None:
                    expiry = Event(event.index, event.ts, (), event.stream)
                changes.append(window.advance(expiry))
        return changes
