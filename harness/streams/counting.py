"""A stream's counts come from one function, column-wise over its Parquet files a batch at a time, in bounded memory.

``count_stream`` is what ``cgpm stats`` and ``cgpm stream info`` print (each its share of it). It
reads the event rows with ``pyarrow.parquet.ParquetFile.iter_batches`` and never builds Python
objects per row, so a stream of 10^8 rows is counted in the memory of a batch plus one bucket:

- per batch: update rows, inserts and deletes, events and their largest size (runs of the ``event``
  column, which a stream stores grouped), distinct timestamps (runs of the non-decreasing ``ts``),
  the first and last timestamp, and update rows per predicate (``value_counts``);
- distinct triples are the stream's inserted triples counted once (a triple repeated in many events
  counts once, as in LUBM's published sizes), with their count per predicate, instances per class
  (distinct ``rdf:type`` triples per object) and ``sha256``: the hash of the distinct triples as
  byte-sorted N-Triples lines (``<s> <p> <o> .``, ``\\n``-joined with a trailing newline, the same as
  ``LC_ALL=C sort -u``), so two streams with the same graph hash the same however their events are cut.
  A stream of more than ``BUCKET_ROWS`` inserts is range-partitioned on the line (splitters from an
  evenly spaced sample) into Arrow files on disk, which are then deduplicated, counted and hashed
  one at a time, in order: an external sort, with one bucket in memory at a time.
"""

from __future__ import annotations

import hashlib
import math
import tempfile
from collections import Counter
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.ipc as ipc
import pyarrow.parquet as pq

from common.errors import StreamError
from harness.streams import layout
from harness.streams.remote import local_stream_path

RDF_TYPE = "<http://www.w3.org/1999/02/22-rdf-syntax-ns#type>"
COLUMNS = ["event", "ts", "op", "s", "p", "o"]
BATCH_ROWS = 1 << 16
BUCKET_ROWS = 500_000       # inserted rows held at once when deduplicating and sorting (some 100 MB of terms)
SAMPLE_ROWS = 20_000        # lines sampled to place the buckets' boundaries
_HASH_CHUNK = 1 << 16


def _event_batches(directory: Path, batch_rows: int):
    for path in layout.event_files(directory):
        try:
            yield from pq.ParquetFile(path).iter_batches(batch_size=batch_rows, columns=COLUMNS)
        except (OSError, pa.ArrowInvalid) as error:
            raise StreamError(f"cannot read the events of {directory} ({path.name}): {error}") from None


def _total_rows(directory: Path) -> int:
    try:
        return sum(pq.ParquetFile(path).metadata.num_rows for path in layout.event_files(directory))
    except (OSError, pa.ArrowInvalid) as error:
        raise StreamError(f"cannot read the events of {directory}: {error}") from None


def _lines(batch) -> pa.Array:
    """``<s> <p> <o> .`` for every row of ``batch`` (a RecordBatch or Table with s, p, o)."""
    lines = pc.binary_join_element_wise(batch["s"], batch["p"], batch["o"], pa.scalar("."), " ")
    return lines.combine_chunks() if isinstance(lines, pa.ChunkedArray) else lines


class _Runs:
    """Counts runs of equal values of a column across batches: distinct values of a column stored grouped."""

    def __init__(self) -> None:
        self.count = 0
        self.last = None
        self.longest = 0
        self.current = 0

    def add(self, column: pa.Array) -> None:
        if len(column) == 0:
            return
        values = column.to_numpy(zero_copy_only=False)
        starts = (values[1:] != values[:-1]).nonzero()[0] + 1  # where a new run begins inside the batch
        lengths = np.diff(np.concatenate(([0], starts, [len(values)])))
        if self.last is not None and values[0] == self.last:  # the batch's first run goes on from the previous batch
            lengths[0] += self.current
            self.count -= 1
        self.count += len(lengths)
        self.longest = max(self.longest, int(lengths.max()))
        self.current = int(lengths[-1])
        self.last = values[-1]


def _ntriples_lines(path: Path) -> int:
    """Triples in an N-Triples file: its lines that are not blank or comments, read a block at a time."""
    if not path.is_file():
        return 0
    with path.open("rb") as handle:
        return sum(1 for line in handle if line.strip() and not line.lstrip().startswith(b"#"))


def count_stream(location: str | Path, *, bucket_rows: int = BUCKET_ROWS, batch_rows: int = BATCH_ROWS) -> dict:
    """The stream's counts (see the module's docstring); a missing or unreadable stream is a StreamError."""
    directory = layout.stream_directory(local_stream_path(location))
    provenance = layout.read_provenance(directory)
    total = _total_rows(directory)
    # a stream that fits one bucket keeps its inserts in memory; a larger one is sampled evenly for bucket boundaries
    stride = None if total <= bucket_rows else max(1, total // SAMPLE_ROWS)
    rows = deletes = 0
    first_ts = last_ts = None
    events, timestamps = _Runs(), _Runs()
    predicate_rows: Counter[str] = Counter()
    kept: list[pa.Table] = []
    sample: list[pa.Array] = []
    for batch in _event_batches(directory, batch_rows):
        if batch.num_rows == 0:
            continue
        rows += batch.num_rows
        deleted = pc.less(batch["op"], 0)
        deletes += pc.sum(deleted).as_py() or 0
        events.add(batch["event"])
        timestamps.add(batch["ts"])
        first_ts = batch["ts"][0].as_py() if first_ts is None else first_ts
        last_ts = batch["ts"][-1].as_py()
        counted = pc.value_counts(batch["p"])
        predicate_rows.update(dict(zip(counted.field("values").to_pylist(), counted.field("counts").to_pylist())))
        inserted = pa.Table.from_batches([batch]).select(["s", "p", "o"]).filter(pc.invert(deleted))
        if stride is None:
            kept.append(inserted)
        elif inserted.num_rows:
            sample.append(_lines(inserted.take(pa.array(range(0, inserted.num_rows, stride)))))
    distinct = _Distinct()
    if stride is None:
        distinct.add(pa.concat_tables(kept) if kept else None)
    else:
        _count_in_buckets(directory, batch_rows, bucket_rows, rows - deletes, sample, distinct)
    return {
        "events": events.count,
        "rows": rows,
        "inserts": rows - deletes,
        "deletes": deletes,
        "triples": distinct.triples,
        "distinct_timestamps": timestamps.count,
        "max_event_size": events.longest,
        "first_ts": first_ts,
        "last_ts": last_ts,
        "span_ms": None if first_ts is None else last_ts - first_ts,
        "predicate_rows": dict(sorted(predicate_rows.items(), key=lambda item: (-item[1], item[0]))),
        "predicates": dict(sorted((_iri(term), count) for term, count in distinct.predicates.items())),
        "classes": dict(sorted((_iri(term), count) for term, count in distinct.classes.items())),
        "sha256": distinct.digest.hexdigest(),
        "static_triples": _ntriples_lines(directory / layout.STATIC_FILE),
        "schema_triples": _ntriples_lines(directory / layout.SCHEMA_FILE),
        "provenance": provenance,
    }


class _Distinct:
    """Distinct inserted triples, fed in byte order of their lines one bucket at a time: counts and the running hash."""

    def __init__(self) -> None:
        self.triples = 0
        self.predicates: Counter[str] = Counter()
        self.classes: Counter[str] = Counter()
        self.digest = hashlib.sha256()

    def add(self, inserted: pa.Table | None) -> None:
        if inserted is None or inserted.num_rows == 0:
            return
        distinct = inserted.group_by(["s", "p", "o"]).aggregate([])
        self.triples += distinct.num_rows
        counted = distinct.group_by("p").aggregate([("p", "count")])
        self.predicates.update(dict(zip(counted["p"].to_pylist(), counted["p_count"].to_pylist())))
        types = distinct.filter(pc.equal(distinct["p"], RDF_TYPE)).group_by("o").aggregate([("o", "count")])
        self.classes.update(dict(zip(types["o"].to_pylist(), types["o_count"].to_pylist())))
        lines = pc.cast(_lines(distinct), pa.string())
        ordered = pc.take(lines, pc.sort_indices(lines))
        for start in range(0, len(ordered), _HASH_CHUNK):
            self.digest.update(("\n".join(ordered.slice(start, _HASH_CHUNK).to_pylist()) + "\n").encode("utf-8"))


def _count_in_buckets(directory: Path, batch_rows: int, bucket_rows: int, inserts: int, sample: list[pa.Array],
                      distinct: _Distinct) -> None:
    """Range-partition the inserted rows on their line into files, then count each bucket in order."""
    lines = pa.concat_arrays(sample) if sample else pa.array([], pa.string())
    ordered = pc.take(lines, pc.sort_indices(lines))
    buckets = max(2, math.ceil(2 * inserts / bucket_rows))  # twice as many as needed: a sample's quantiles are rough
    positions = [len(ordered) * number // buckets for number in range(1, buckets)] if len(ordered) else []
    splitters = pc.cast(pc.take(ordered, pa.array(positions, pa.int64())), pa.string()) if positions else \
        pa.array([], pa.string())
    schema = pa.schema([("s", pa.string()), ("p", pa.string()), ("o", pa.string())])
    with tempfile.TemporaryDirectory(prefix="cgpm-count-") as spill:
        paths = [Path(spill) / f"bucket-{number:05d}.arrow" for number in range(len(splitters) + 1)]
        writers = [ipc.new_file(str(path), schema) for path in paths]
        try:
            for batch in _event_batches(directory, batch_rows):
                inserted = pa.Table.from_batches([batch]).select(["s", "p", "o"]).filter(pc.greater_equal(batch["op"], 0))
                if inserted.num_rows == 0:
                    continue
                inserted = inserted.cast(schema)
                line = _lines(inserted)
                bucket = _bucket_of(line, splitters)
                order = pc.sort_indices(bucket)
                inserted, sizes = inserted.take(order), np.bincount(bucket.to_numpy(), minlength=len(writers))
                offset = 0
                for writer, size in zip(writers, sizes.tolist()):
                    if size:
                        writer.write_table(inserted.slice(offset, size))
                    offset += size
        finally:
            for writer in writers:
                writer.close()
        for path in paths:
            with pa.memory_map(str(path)) as source:
                distinct.add(ipc.open_file(source).read_all())


def _bucket_of(lines: pa.Array, splitters: pa.Array) -> pa.Array:
    """For each line, how many splitters (sorted) lie at or below it: a binary search, one vectorised step per halving."""
    low = pa.array(np.zeros(len(lines), dtype=np.int32))
    if len(splitters) == 0:
        return low
    high = pa.array(np.full(len(lines), len(splitters), dtype=np.int32))
    for _ in range(len(splitters).bit_length()):
        active = pc.less(low, high)
        middle = pc.min_element_wise(pc.shift_right(pc.add(low, high), 1), len(splitters) - 1)
        at_or_above = pc.greater_equal(lines, pc.take(splitters, middle))
        low = pc.if_else(pc.and_(active, at_or_above), pc.add(middle, 1), low)
        high = pc.if_else(pc.and_(active, pc.invert(at_or_above)), middle, high)
    return low


def _iri(term: str) -> str:
    return term[1:-1] if term.startswith("<") else term


def human_duration(ms: int | None) -> str:
    """A span in the largest units that keep it readable (``3 d 4 h``, ``2 min 5 s``, ``250 ms``)."""
    if ms is None:
        return "empty"
    units = (("d", 86_400_000), ("h", 3_600_000), ("min", 60_000), ("s", 1000), ("ms", 1))
    parts, rest = [], abs(ms)
    for name, size in units:
        amount, rest = divmod(rest, size)
        if amount:
            parts.append(f"{amount} {name}")
        if len(parts) == 2:
            break
    return ("-" if ms < 0 else "") + (" ".join(parts) if parts else "0 ms")
