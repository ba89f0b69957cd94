"""Per-event timestamps, sizes and deletions come from the integer columns alone, read batch by batch: no term is decoded.

What a run needs to know before its first event (how many events, the instants at which a
sliding window drops events, whether the stream deletes, each event's size for the steady-state
rate) is a scan of ``event``, ``ts`` and ``op``, in pieces of whole events, one a batch
(``index_chunks``). A bench cell folds the pieces as they come: ``TimelineFacts`` (a few numbers)
and a scan that stops at the event it looks for, counting the rows before it (``first_event_where``), so it holds
O(batch) of the timeline, and so does a merge of several streams (``harness.streams.merged_index``
merges their pieces). Nothing on a command path joins the pieces of a stream read from disk into one index
(it would be 17 bytes an event): only a stream already in memory has one (``timeline_of``).
The scan trusts the rows; the pass that feeds the engine checks them.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from common.errors import StreamError

# Column chunks are read page by page as batches are decoded: pre-buffering reads a whole row group's chunks at
# once (a generated stream's row groups hold 250,000 rows or more), which doubled a pass's memory; one thread decodes
# (a cell is measured on one core, and parallel decoding held several column chunks at once).
STREAMING_READ = {"pre_buffer": False, "buffer_size": 1 << 20}


@dataclass(frozen=True)
class EventIndex:
    """One entry per event, in stream order: its timestamp, its number of updates, whether it deletes."""

    ts: np.ndarray
    sizes: np.ndarray
    deletes: np.ndarray

    @property
    def events(self) -> int:
        return len(self.ts)

    @property
    def triples(self) -> int:
        return int(self.sizes.sum())

    @property
    def has_deletions(self) -> bool:
        return bool(self.deletes.any())


def index_chunks(files: list[Path], batch_rows: int, max_events: int | None = None) -> Iterator[EventIndex]:
    """The index of the events in ``files`` (the first ``max_events``), in pieces of whole events, one a batch: a scan in O(batch)."""
    held = None  # the last event read: (its number, ts, size, deletes); its rows may go on in the next batch
    given = 0
    for path in files:
        try:
            reader = pq.ParquetFile(path, **STREAMING_READ)
            batches = reader.iter_batches(batch_size=batch_rows, columns=["event", "ts", "op"], use_threads=False)
            for batch in batches:
                event = batch.column(0).to_numpy(zero_copy_only=False).astype(np.int64, copy=False)
                if not len(event):
                    continue
                ts = batch.column(1).to_numpy(zero_copy_only=False).astype(np.int64, copy=False)
                deleting = batch.column(2).to_numpy(zero_copy_only=False) < 0
                starts = np.concatenate(([0], np.flatnonzero(np.diff(event)) + 1))
                numbers, stamps = event[starts], ts[starts]
                sizes = np.diff(np.append(starts, len(event))).astype(np.int64)
                deleted = np.logical_or.reduceat(deleting, starts)
                if held is not None:
                    if numbers[0] == held[0]:  # the first group continues the held event: it keeps its timestamp
                        stamps[0], sizes[0], deleted[0] = held[1], sizes[0] + held[2], deleted[0] | held[3]
                    else:
                        stamps, sizes = np.append(held[1], stamps), np.append(held[2], sizes)
                        deleted = np.append(held[3], deleted)
                held = (int(numbers[-1]), int(stamps[-1]), int(sizes[-1]), bool(deleted[-1]))
                piece = EventIndex(stamps[:-1], sizes[:-1], deleted[:-1])
                if max_events is not None:
                    piece = EventIndex(*(column[: max_events - given] for column in (piece.ts, piece.sizes, piece.deletes)))
                if piece.events:
                    given += piece.events
                    yield piece
                if max_events is not None and given >= max_events:
                    return
        except (OSError, pa.ArrowException) as error:
            raise StreamError(f"cannot read {path} as Parquet: {str(error).splitlines()[0]}") from None
    if held is not None and (max_events is None or given < max_events):
        yield EventIndex(np.array([held[1]], np.int64), np.array([held[2]], np.int64), np.array([held[3]], bool))


def timeline_of(stream) -> EventIndex:
    """The index of a stream held in memory, from its events (a stream read from disk gives ``timeline_chunks``)."""
    events = stream.events
    return EventIndex(
        np.fromiter((event.ts for event in events), dtype=np.int64, count=len(events)),
        np.fromiter((len(event.updates) for event in events), dtype=np.int64, count=len(events)),
        np.fromiter((any(update.op < 0 for update in event.updates) for event in events), dtype=bool, count=len(events)),
    )


@dataclass(frozen=True)
class TimelineFacts:
    """A whole stream in a few numbers: what a cell needs besides the fill point, in O(1)."""

    events: int
    triples: int
    has_deletions: bool
    first_ts: int | None
    last_ts: int | None
    last_size: int  # the last event's updates: the rows an ``event`` window holds at the end

    @classmethod
    def of(cls, pieces: Iterable[EventIndex]) -> TimelineFacts:
        events = triples = last_size = 0
        deletes = False
        first_ts = last_ts = None
        for piece in pieces:
            if not piece.events:
                continue
            if first_ts is None:
                first_ts = int(piece.ts[0])
            events += piece.events
            triples += piece.triples
            deletes = deletes or piece.has_deletions
            last_ts, last_size = int(piece.ts[-1]), int(piece.sizes[-1])
        return cls(events, triples, deletes, first_ts, last_ts, last_size)


def timeline_chunks(stream) -> Iterable[EventIndex]:
    """The stream's index in pieces of whole events: a ``OpenStream`` not yet indexed is scanned batch by batch, a
    ``MergedStream`` merges its sources' pieces (O(sources x batch)), any other stream's index is one piece."""
    pieces = getattr(stream, "index_chunks", None)
    return pieces() if pieces is not None else [timeline_of(stream)]


def facts_of(stream) -> TimelineFacts:
    """The stream's ``TimelineFacts`` (cached by a ``OpenStream``)."""
    facts = getattr(stream, "facts", None)
    return facts() if facts is not None else TimelineFacts.of(timeline_chunks(stream))


def first_event_where(stream, holds: Callable[[np.ndarray], np.ndarray]) -> tuple[int, int] | None:
    """The first event whose timestamp ``holds`` (a mask over timestamps) and how many rows come before it; None when none does.

    The scan stops at the piece holding it."""
    events = rows = 0
    for piece in timeline_chunks(stream):
        found = np.flatnonzero(holds(piece.ts))
        if len(found):
            first = int(found[0])
            return events + first, rows + int(piece.sizes[:first].sum())
        events += piece.events
        rows += piece.triples
    return None
