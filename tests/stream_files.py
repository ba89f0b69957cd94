"""Rewrites a written stream's events as several Parquet part files, so readers meet file and row-group boundaries."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from harness.streams.event_index import EventIndex


def split_events(directory: Path, cuts: list[int], group_rows: int = 3) -> pa.Table:
    """The stream's one events file rewritten as part files cut at ``cuts`` (events may straddle files), with row
    groups of ``group_rows``; returns its rows."""
    events = directory / "events"
    table = pq.read_table(next(events.iterdir()))
    for path in events.iterdir():
        path.unlink()
    bounds = [0, *sorted(c for c in set(cuts) if 0 < c < table.num_rows), table.num_rows]
    for number, (start, end) in enumerate(zip(bounds, bounds[1:])):
        pq.write_table(table.slice(start, end - start), events / f"part-{number:05d}.parquet", row_group_size=group_rows)
    return table


def joined(pieces) -> EventIndex:
    """A stream's index pieces (``index_chunks``) joined into one, to compare with the events (no command joins them)."""
    pieces = list(pieces)
    return EventIndex(*(np.concatenate([getattr(piece, column) for piece in pieces] or [np.zeros(0, dtype)])
                        for column, dtype in (("ts", np.int64), ("sizes", np.int64), ("deletes", bool))))
