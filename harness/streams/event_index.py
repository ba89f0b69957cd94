"""Per-event timestamps, sizes and deletions come from the integer columns alone, read batch by batch: no term is decoded.

What a run needs to know before its first event (how many events, the instants at which a
sliding window drops events, whether the stream deletes, each event's size for the steady-state
rate) is one scan of ``event``, ``ts`` and ``op``: 17 bytes a row, in batches, kept as three
arrays of one entry per event. The scan trusts the rows; the pass that feeds the engine checks them.
"""

from __future__ import annotations

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


def scan_index(files: list[Path], batch_rows: int, max_events: int | None = None) -> EventIndex:
    """The index of the events in ``files`` (the first ``max_events`` of them when given)."""
    stamps: list[np.ndarray] = []
    sizes: list[np.ndarray] = []
    deletes: list[np.ndarray] = []
    last_event = None
    count = 0
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
                counts = np.diff(np.append(starts, len(event)))
                deleted = np.logical_or.reduceat(deleting, starts)
                if last_event is not None and event[0] == last_event:
                    # the first group continues the previous batch's last event
                    sizes[-1][-1] += counts[0]
                    deletes[-1][-1] |= deleted[0]
                    starts, counts, deleted = starts[1:], counts[1:], deleted[1:]
                if len(starts):  # an empty array here would stand where the next batch looks for the last event
                    stamps.append(ts[starts])
                    sizes.append(counts.astype(np.int64))
                    deletes.append(deleted)
                    count += len(starts)
                last_event = int(event[-1])
                if max_events is not None and count > max_events:
                    break  # one event beyond the limit is known whole: the limit's last event is complete
            if max_events is not None and count > max_events:
                break
        except (OSError, pa.ArrowException) as error:
            raise StreamError(f"cannot read {path} as Parquet: {str(error).splitlines()[0]}") from None
    index = EventIndex(_joined(stamps, np.int64), _joined(sizes, np.int64), _joined(deletes, bool))
    if max_events is not None:
        index = EventIndex(index.ts[:max_events], index.sizes[:max_events], index.deletes[:max_events])
    return index


def _joined(parts: list[np.ndarray], dtype) -> np.ndarray:
    return np.concatenate(parts).astype(dtype, copy=False) if parts else np.zeros(0, dtype)


def timeline_of(stream) -> EventIndex:
    """The index of a stream in memory (from its events) or of a ``OpenStream`` (its column scan)."""
    index = getattr(stream, "index", None)
    if index is not None:
        return index()
    events = stream.events
    return EventIndex(
        np.fromiter((event.ts for event in events), dtype=np.int64, count=len(events)),
        np.fromiter((len(event.updates) for event in events), dtype=np.int64, count=len(events)),
        np.fromiter((any(update.op < 0 for update in event.updates) for event in events), dtype=bool, count=len(events)),
    )
