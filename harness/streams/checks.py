"""Rules a stream in memory must keep: timestamps never go back, and deletions only meet an unbounded window.

The Parquet reader checks its rows column-wise (``harness.streams.table``); the text importers,
which know line numbers, and the CLI, which knows the window only after reading, use these.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence

from common.errors import StreamError
from engines.model.stream import DELETE, Event, Stream, Window


def check_window(stream: Stream, window: Window) -> None:
    """Raise StreamError naming the first deletion if ``window`` is not unbounded (DESIGN.md section 2)."""
    if window.allows_deletions:
        return
    for event in stream.events:
        for update in event.updates:
            if update.op == DELETE:
                raise StreamError(
                    f"event {event.index} (ts {event.ts}) deletes {update.s} {update.p} {update.o}: "
                    f"deletions are allowed with an unbounded window only, not {window.spec()}"
                )


def check_event_order(events: Sequence[Event], where: Callable[[int], str]) -> None:
    """Timestamps non-decreasing and no empty event; ``where(i)`` says where event ``i`` came from."""
    for _ in checked_in_order(events, where):
        pass


def checked_in_order(events: Iterable[Event], where: Callable[[int], str]) -> Iterator[Event]:
    """``events`` as they come, each checked against the one before it as ``check_event_order`` checks them."""
    previous = None
    for number, event in enumerate(events):
        if not event.updates:
            raise StreamError(f"{where(number)}: event {number} (ts {event.ts}) has no triples")
        if previous is not None and event.ts < previous:
            raise StreamError(
                f"{where(number)}: event {number} has timestamp {event.ts}, before the previous event's {previous} "
                "(timestamps must be non-decreasing)"
            )
        previous = event.ts
        yield event
