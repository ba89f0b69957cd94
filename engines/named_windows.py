"""The dynamic graphs D_k(τ) of a query's named windows, each over its own stream, all moved to every instant's τ.

DESIGN.md section 2 (Several streams): at each instant of the merged streams every window is evaluated
at that instant's timestamp. The window over the event's stream takes the event; every other window only
expires to τ (an event with no updates), so an event on one stream can empty another stream's window.
That holds too for an event of a stream none of the query's windows read: several queries registered
together see the merge of every stream any of them reads, and such an instant only slides this query's
windows. An event that carries no stream IRI (one stream fed as is, not merged) is refused.
"""

from __future__ import annotations

from collections.abc import Sequence

from common.errors import StreamError
from engines.model.stream import Event, NamedWindow, Triple
from engines.window_state import WindowState


def check_merged_event(event: Event, streams: Sequence[str]) -> None:
    """Raise StreamError for an event that names no stream: it was not made by the merge of the query's streams."""
    if not event.stream:
        raise StreamError(f"event {event.index} comes from stream '', which no named window reads: a query over "
                          f"named windows reads its streams merged ({', '.join(f'<{iri}>' for iri in dict.fromkeys(streams))})")


class StreamWindow:
    """One named window over its stream: it takes the events of its stream and only expires at any other's."""

    def __init__(self, named: NamedWindow) -> None:
        self.state = WindowState(named.window)
        self.stream = named.stream

    def __len__(self) -> int:
        return len(self.state)

    @property
    def content(self) -> set[Triple]:
        return self.state.content

    def advance(self, event: Event) -> tuple[set[Triple], set[Triple]]:
        if event.stream == self.stream:
            return self.state.advance(event)
        return self.state.advance(Event(event.index, event.ts, (), event.stream))


class NamedWindowsState:
    """``advance(event)`` moves every named window to the event's instant; it returns each window's ``(added, removed)``."""

    def __init__(self, named_windows: Sequence[NamedWindow]) -> None:
        self.windows = tuple(StreamWindow(named) for named in named_windows)
        self.streams = tuple(named.stream for named in named_windows)

    def __len__(self) -> int:
        return sum(len(window) for window in self.windows)

    @property
    def contents(self) -> tuple[set[Triple], ...]:
        return tuple(window.content for window in self.windows)

    def advance(self, event: Event) -> list[tuple[set[Triple], set[Triple]]]:
        check_merged_event(event, self.streams)
        return [window.advance(event) for window in self.windows]
