"""A stream directory is read batch by batch into events in order: the harness holds O(batch + window), never O(stream).

``open_stream(path)`` reads the small parts at once (``stream.json``, ``static.nt``, ``schema.nt``,
each events file's schema) and returns a ``OpenStream``. Its ``events`` can be iterated any number
of times; each iteration is a fresh pass that reads the Parquet files as Arrow record batches of
``batch_rows`` rows (``ParquetFile.iter_batches``), checks each batch column-wise with the rules of
``harness.streams.table`` and turns it into ``Event`` objects. An event whose rows straddle two
batches is held back until its last row has been read. Every check a whole-stream read makes is
made as the batches pass (order of the ``event`` column, one timestamp per event, timestamps
non-decreasing, op values, terms, deletions under a window that is not unbounded), and its message
names the file, the row within it and the event's number in the whole stream. Terms are
canonicalised through a bounded ``TermCache``, so a pass holds no dictionary of the whole stream.

Each pass counts the time it spends reading and decoding (``EventPass.decode_ns``): a timed loop
subtracts it, since it is the harness's work, not the engine's. ``materialise()`` is the whole
stream in memory (``Stream``) for what needs it as a sequence (tests, tools over small streams; no
``cgpm verify`` path: its oracles are pushed the events the engine reads); ``harness.streams.read_stream``
is exactly that.
"""

from __future__ import annotations

import bisect
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from common.errors import StreamError
from engines.model.stream import Event, Stream, Window
from harness.streams import layout
from harness.streams.event_index import STREAMING_READ, EventIndex, TimelineFacts, index_chunks
from harness.streams.ntriples import read_ntriples
from harness.streams.remote import local_stream_path
from harness.streams.table import TermCache, check_column_types, check_rows, events_from_rows
from harness.streams.window_count import distinct_triples

COLUMNS = list(layout.EVENT_SCHEMA.names)
# op is read as int64 so that an out-of-range op is reported as such, not as a failed cast.
READ_SCHEMA = layout.EVENT_SCHEMA.set(2, pa.field("op", pa.int64()))
BATCH_ROWS = 1 << 13


class _Locator:
    """Where a row of the table being checked came from: a few (first row, file, that row's place in the file) parts."""

    def __init__(self) -> None:
        self.parts: list[tuple[int, str, int]] = []

    def add(self, first_row: int, source: str, file_row: int) -> None:
        self.parts.append((first_row, source, file_row))

    def where(self, row: int) -> str:
        part = bisect.bisect_right([first for first, _, _ in self.parts], row) - 1
        first, source, file_row = self.parts[part]
        return f"{source} row {file_row + row - first}"


def _batches(files: list[Path], batch_rows: int) -> Iterator[tuple[pa.Table, str, int]]:
    """Each file's rows as tables of at most ``batch_rows`` rows in the read schema, with the file and the first row's place in it."""
    for path in files:
        source = str(path)
        try:
            reader = pq.ParquetFile(path, **STREAMING_READ)
            row = 0
            for batch in reader.iter_batches(batch_size=batch_rows, columns=COLUMNS, use_threads=False):
                table = pa.Table.from_batches([batch])
                try:
                    # Compatible types (int32 ts, int64 op, large_string or dictionary terms) become one schema.
                    table = table.cast(READ_SCHEMA, safe=True)
                except pa.ArrowException as error:
                    raise StreamError(f"{source}: a column does not fit the layout: {str(error).splitlines()[0]}") from None
                yield table, source, row
                row += table.num_rows
        except StreamError:
            raise
        except (OSError, pa.ArrowException) as error:
            raise StreamError(f"cannot read {source} as Parquet: {str(error).splitlines()[0]}") from None


class EventPass:
    """One pass over a source's events, in order; ``decode_ns`` is the time spent reading and decoding so far, and
    ``decode_cpu_ns`` the CPU time of it (of the reading thread): on a loaded machine the wall time also counts the
    waits for a core, which a CPU figure must not lose."""

    def __init__(self, source: OpenStream, window: Window | None = None) -> None:
        self.source = source
        self.refuse_deletions = window is not None and not window.allows_deletions
        self.window = window
        self.decode_ns = 0
        self.decode_cpu_ns = 0
        self._events = self._generate()

    def __iter__(self) -> EventPass:
        return self

    def __next__(self) -> Event:
        return next(self._events)

    def _generate(self) -> Iterator[Event]:
        limit = self.source.max_events
        emitted = 0
        cache = TermCache()
        clock, cpu_clock = time.perf_counter_ns, time.thread_time_ns
        started, cpu_started = clock(), cpu_clock()
        pending: pa.Table | None = None  # the rows of the last event read so far, which may go on in the next batch
        locator = _Locator()
        batches = _batches(self.source.files, self.source.batch_rows)
        while limit is None or emitted < limit:
            item = next(batches, None)
            if item is None:
                final = True
                table = pending
                pending = None
            else:
                final = False
                batch, source, file_row = item
                if pending is not None and _continues(pending, batch):
                    locator.add(pending.num_rows, source, file_row)
                    pending = pa.concat_tables([pending, batch])
                    continue
                if pending is None:
                    locator = _Locator()
                locator.add(pending.num_rows if pending is not None else 0, source, file_row)
                table = pa.concat_tables([pending, batch]) if pending is not None else batch
            if table is None or table.num_rows == 0:
                if final:
                    break
                continue
            rows = check_rows(table, locator, validate=self.source.validate, first_event=emitted, term_cache=cache)
            keep = len(rows.event_starts) if final else len(rows.event_starts) - 1
            if limit is not None:
                keep = min(keep, limit - emitted)
            if self.refuse_deletions:
                self._check_deletions(rows, keep, emitted)
            events = events_from_rows(rows, emitted)[:keep]
            if not final:
                tail_start = int(rows.event_starts[-1])
                pending = table.slice(tail_start)
                locator = _shifted(locator, tail_start)
            self.decode_ns += clock() - started
            self.decode_cpu_ns += cpu_clock() - cpu_started
            yield from events
            emitted += len(events)
            started, cpu_started = clock(), cpu_clock()
            if final:
                break
        self.decode_ns += clock() - started
        self.decode_cpu_ns += cpu_clock() - cpu_started

    def _check_deletions(self, rows, keep: int, first_event: int) -> None:
        end = int(rows.event_starts[keep]) if keep < len(rows.event_starts) else len(rows.op)
        hits = np.flatnonzero(rows.op[:end] < 0)
        if not hits.size:
            return
        row = int(hits[0])
        number = first_event + int(np.searchsorted(rows.event_starts, row, side="right")) - 1
        s, p, o = (rows.terms[name][0][rows.terms[name][1][row]] for name in layout.TERM_COLUMNS)
        raise StreamError(
            f"event {number} (ts {int(rows.ts[row])}) deletes {s} {p} {o}: "
            f"deletions are allowed with an unbounded window only, not {self.window.spec()}"
        )


def _continues(pending: pa.Table, batch: pa.Table) -> bool:
    """Whether every row of ``batch`` belongs to the event ``pending`` holds (a very large event read in pieces)."""
    last = pending.column("event")[-1].as_py()
    values = batch.column("event").to_numpy()
    return bool((values == last).all())


def _shifted(locator: _Locator, tail_start: int) -> _Locator:
    """The locator of the rows from ``tail_start`` on, numbered from 0."""
    shifted = _Locator()
    for first, source, file_row in locator.parts:
        end = next((later for later, _, _ in locator.parts if later > first), None)
        if end is not None and end <= tail_start:
            continue
        start = max(first, tail_start)
        shifted.add(start - tail_start, source, file_row + start - first)
    return shifted


class StreamEvents:
    """A source's events as a re-iterable: each ``iter()`` is a fresh ``EventPass``; ``len()`` counts them (a column scan)."""

    def __init__(self, source: OpenStream, window: Window | None = None) -> None:
        self.source, self.window = source, window

    def __iter__(self) -> EventPass:
        return EventPass(self.source, self.window)

    def __len__(self) -> int:
        return self.source.facts().events


@dataclass
class OpenStream:
    """A stream directory opened for streaming: provenance, static graph and schema in memory, events read on demand."""

    directory: Path
    provenance: dict
    static: tuple
    schema: tuple
    files: list[Path]
    max_events: int | None = None
    validate: bool = True
    batch_rows: int = BATCH_ROWS
    window: Window | None = None

    def __post_init__(self) -> None:
        self._facts: TimelineFacts | None = None

    @property
    def events(self) -> StreamEvents:
        return StreamEvents(self, self.window)

    def index_chunks(self) -> Iterable[EventIndex]:
        """Timestamps, sizes and deletions per event in pieces of whole events, scanned batch by batch from the integer
        columns (no term decoded): never joined whole, which would be 17 bytes an event."""
        return index_chunks(self.files, self.batch_rows, self.max_events)

    def facts(self) -> TimelineFacts:
        """Events, triples, deletions, first and last timestamps, from one scan in O(batch); cached."""
        if self._facts is None:
            self._facts = TimelineFacts.of(self.index_chunks())
        return self._facts

    @property
    def has_deletions(self) -> bool:
        if self._facts is None and not _may_delete(self.files):
            return False
        return self.facts().has_deletions

    @property
    def triple_count(self) -> int:
        return self.facts().triples

    def limited(self, max_events: int | None) -> OpenStream:
        """The same source cut to its first ``max_events`` events."""
        return OpenStream(self.directory, self.provenance, self.static, self.schema, self.files, max_events,
                            self.validate, self.batch_rows, self.window)

    def checked_against(self, window: Window) -> OpenStream:
        """The same source, whose passes refuse a deletion unless ``window`` is unbounded (DESIGN.md section 2)."""
        source = self.limited(self.max_events)
        source.window = window
        return source

    def distinct_triples_from(self, first_row: int, since_ts: int | None = None) -> int:
        """How many distinct triples the rows from ``first_row`` to the last event's hold (only those of timestamp
        ``since_ts`` or later when given), counted over those rows alone: a window's content at the end.

        Terms are compared as stored: a stream written by this project stores them canonical, so
        this is the number of distinct RDF triples (what a sliding window at the end holds). Only the
        row groups holding those rows are read (``harness.streams.window_count``); memory is the
        batches' distinct terms and 12 bytes a row, not the rows' strings (a group-by over the
        strings of 2*10^7 triples took 9 GB)."""
        return distinct_triples(self.files, self.batch_rows, first_row, self.facts().triples, since_ts)

    def materialise(self) -> Stream:
        """The whole stream in memory, for what reads it as a sequence."""
        return Stream(events=tuple(self.events), static=self.static, schema=self.schema, provenance=self.provenance)


def _may_delete(files: list[Path]) -> bool:
    """False when every row group's statistics show op >= 0: then no row deletes, without reading a column."""
    for path in files:
        try:
            metadata = pq.ParquetFile(path).metadata
        except (OSError, pa.ArrowException):
            return True  # the pass reports the unreadable file
        column = metadata.schema.names.index("op") if "op" in metadata.schema.names else None
        if column is None:
            return True
        for group in range(metadata.num_row_groups):
            statistics = metadata.row_group(group).column(column).statistics
            if statistics is None or not statistics.has_min_max or statistics.min < 0:
                return True
    return False


def open_stream(path, *, max_events: int | None = None, validate: bool = True, batch_rows: int = BATCH_ROWS) -> OpenStream:
    """A stream directory (a path, a ``file:`` URI or any URI Spark can read) opened for streaming; its events are not read yet."""
    directory = layout.stream_directory(local_stream_path(path))
    provenance = layout.read_provenance(directory)
    files = layout.event_files(directory)
    for file in files:
        try:
            check_column_types(pq.ParquetFile(file).schema_arrow, str(file))
        except StreamError:
            raise
        except (OSError, pa.ArrowException) as error:
            raise StreamError(f"cannot read {file} as Parquet: {str(error).splitlines()[0]}") from None
    static = _optional_ntriples(directory / layout.STATIC_FILE)
    schema = _optional_ntriples(directory / layout.SCHEMA_FILE)
    return OpenStream(directory, provenance, static, schema, files, max_events, validate, batch_rows)


def _optional_ntriples(path: Path) -> tuple:
    return read_ntriples(path) if path.exists() else ()
