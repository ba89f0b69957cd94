"""A window's distinct triples are counted from the rows of the Parquet row groups that hold them: no earlier row group is read.

What a sliding or ``event`` window holds at the end is a stream's last rows: from a given row (the
last event's first), or those of timestamp ``since_ts`` or later among the rows up to the last
counted event's. The files' metadata says how many rows each row group holds and the least and
greatest timestamp in it (the ``ts`` column's statistics), so the row groups (and whole files)
that end before the window's first row, or whose timestamps all fall before ``since_ts``, are
skipped without reading a page; within a row group read, its batches are read from its start and
the rows before the window's are dropped (Parquet is not read from a row within a group).

The count is exact. Each batch's terms are dictionary-encoded by Arrow (its distinct terms, and a
small integer a row); at the end each column's batch dictionaries are encoded together (one hash
table, in Arrow), which numbers every distinct term of the window once, and the rows' three numbers
become one integer whose distinct values are counted by a sort. Memory is the batches' distinct
terms as Arrow strings and 12 bytes a row (then 8 for the sort), O(window); no Python string is
made per term.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from common.errors import StreamError
from harness.streams import layout
from harness.streams.event_index import STREAMING_READ


def row_groups_from(files: list[Path], first_row: int, end_row: int,
                    since_ts: int | None = None) -> Iterator[tuple[Path, pq.ParquetFile, int, int]]:
    """Each row group holding rows in [``first_row``, ``end_row``) (with ``since_ts``, one whose statistics allow a
    timestamp of ``since_ts`` or later), in order: its file (path and reader), its number there, its first row in the stream."""
    row = 0
    for path in files:
        if row >= end_row:
            return
        try:
            reader = pq.ParquetFile(path, **STREAMING_READ)
        except (OSError, pa.ArrowException) as error:
            raise StreamError(f"cannot read {path} as Parquet: {str(error).splitlines()[0]}") from None
        metadata = reader.metadata
        ts_column = metadata.schema.names.index("ts") if "ts" in metadata.schema.names else None
        for group in range(metadata.num_row_groups):
            if row >= end_row:
                return
            rows = metadata.row_group(group).num_rows
            if row + rows > first_row and not _all_before(metadata.row_group(group), ts_column, since_ts):
                yield path, reader, group, row
            row += rows


def _all_before(group: pq.RowGroupMetaData, ts_column: int | None, since_ts: int | None) -> bool:
    """Whether the row group's statistics show every timestamp in it before ``since_ts`` (False when they cannot)."""
    if since_ts is None or ts_column is None:
        return False
    statistics = group.column(ts_column).statistics
    return statistics is not None and statistics.has_min_max and statistics.max < since_ts


def distinct_triples(files: list[Path], batch_rows: int, first_row: int, end_row: int,
                     since_ts: int | None = None) -> int:
    """How many distinct (s, p, o) the rows from ``first_row`` to ``end_row`` hold (those of timestamp ``since_ts`` or
    later when given; timestamps never decrease), terms compared as stored."""
    columns = [*layout.TERM_COLUMNS, *(["ts"] if since_ts is not None else [])]
    dictionaries: dict[str, list[pa.Array]] = {name: [] for name in layout.TERM_COLUMNS}
    indices: dict[str, list[np.ndarray]] = {name: [] for name in layout.TERM_COLUMNS}
    for path, reader, group, row in row_groups_from(files, first_row, end_row, since_ts):
        try:
            batches = reader.iter_batches(batch_size=batch_rows, row_groups=[group], columns=columns, use_threads=False)
            for batch in batches:
                low, high = max(first_row - row, 0), min(end_row - row, batch.num_rows)
                if high > low and since_ts is not None:
                    # timestamps never decrease: the window's rows are the batch's last ones
                    stamps = batch.column(len(layout.TERM_COLUMNS)).to_numpy(zero_copy_only=False)[low:high]
                    low += int(np.searchsorted(stamps, since_ts, side="left"))
                if high > low:
                    rows = batch.slice(low, high - low)
                    for name in layout.TERM_COLUMNS:
                        encoded = pc.dictionary_encode(rows.column(name).cast(pa.string()))
                        dictionaries[name].append(encoded.dictionary)
                        indices[name].append(encoded.indices.to_numpy(zero_copy_only=False))
                row += batch.num_rows
                if row >= end_row:
                    break
        except (OSError, pa.ArrowException) as error:
            raise StreamError(f"cannot read {path} as Parquet: {str(error).splitlines()[0]}") from None
    if not indices[layout.TERM_COLUMNS[0]]:
        return 0
    codes, widths = [], []
    for name in layout.TERM_COLUMNS:
        numbered, distinct = _numbered(dictionaries.pop(name), indices.pop(name))
        codes.append(numbered)
        widths.append(max(1, (distinct - 1).bit_length()))
    if sum(widths) <= 63:  # one int64 per triple sorts far faster than rows of three
        keys = codes[0].astype(np.int64) << (widths[1] + widths[2])
        keys |= codes[1].astype(np.int64) << widths[2]
        keys |= codes.pop()
        return _distinct_sorted(keys)
    return distinct_rows(codes)


def _numbered(dictionaries: list[pa.Array], indices: list[np.ndarray]) -> tuple[np.ndarray, int]:
    """The rows' terms as numbers shared by every batch (one per distinct term), and how many distinct terms there are."""
    encoded = pc.dictionary_encode(pa.chunked_array(dictionaries, type=pa.string()))
    del dictionaries[:]
    numbered = np.concatenate([chunk.indices.to_numpy(zero_copy_only=False)[rows]
                               for chunk, rows in zip(encoded.chunks, indices)])
    return numbered, len(encoded.chunks[0].dictionary) if encoded.num_chunks else 0


def _distinct_sorted(keys: np.ndarray) -> int:
    """How many distinct values ``keys`` holds, sorting it in place.

    numpy 2.4's ``np.unique`` hashes: 31-37 s for 10^7 int64 keys, where the sort took 0.4 s (one loaded core)."""
    if not keys.size:
        return 0
    keys.sort()
    return 1 + int(np.count_nonzero(keys[1:] != keys[:-1]))


def distinct_rows(columns: list[np.ndarray]) -> int:
    """How many distinct rows the equally long ``columns`` hold (a sort of the rows, the first column first)."""
    if not len(columns[0]):
        return 0
    order = np.lexsort(columns[::-1])
    changed = np.zeros(len(order) - 1, dtype=bool)
    for column in columns:
        ordered = column[order]
        changed |= ordered[1:] != ordered[:-1]
    return 1 + int(np.count_nonzero(changed))
