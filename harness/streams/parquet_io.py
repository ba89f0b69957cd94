"""A stream directory is written so that it is either complete or absent, and read whole (through the streaming reader) when a Stream is needed.

``write_stream`` builds the new stream in a hidden sibling directory (``.NAME.partial-XXXX``) and
renames it into place only once every file is written and flushed; if writing fails the sibling
is removed, and a killed process leaves at most that hidden sibling, never a half-written stream
under the target name. Replacing an existing stream (``overwrite=True``) moves the old one aside,
renames the new one in, then deletes the old one: between those two renames the target name is
briefly absent (the old stream is still whole, in ``.NAME.old-XXXX``), never half-written.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pyarrow.parquet as pq

from common.errors import StreamError
from engines.model.stream import Event, Stream, Window
from harness.streams import layout
from harness.streams.atomic import current_umask
from harness.streams.ntriples import write_ntriples
from harness.streams.reader import open_stream
from harness.streams.table import RowLocator, canonical_table, check_rows, table_from_events

ROW_GROUP_SIZE = 1 << 16  # rows a writer holds before it writes them: its memory, whatever the stream's size


def read_stream(path: str | Path, *, window: Window | None = None, validate: bool = True) -> Stream:
    """Load a whole stream directory (a path, a ``file:`` URI or any URI Spark can read). ``validate=False`` trusts the rows (no order, op or term checks).

    Events are re-numbered 0..n-1 in row order; the ``event`` column's own values are only a
    grouping key and are not kept. Given a ``window``, deletions are checked against it too.
    This is the streaming reader's pass, kept whole (``harness.streams.reader``): one way to read rows.
    """
    source = open_stream(path, validate=validate)
    if window is not None:
        source = source.checked_against(window)
    return source.materialise()


def _check_destination(target: Path, overwrite: bool) -> bool:
    """Whether ``target`` holds a stream that will be replaced; refuse anything that is not safe to replace."""
    if not target.exists():
        return False
    if not target.is_dir():
        raise StreamError(f"cannot write a stream to {target}: it is a file")
    if not any(target.iterdir()):
        return True
    if not overwrite:
        raise StreamError(f"cannot write a stream to {target}: the directory already holds data (pass overwrite=True, or --overwrite on the command line)")
    if not (target / layout.PROVENANCE_FILE).is_file():
        raise StreamError(f"refusing to overwrite {target}: it holds files but is not a stream directory (no {layout.PROVENANCE_FILE})")
    return True


def _fsync_tree(directory: Path) -> None:
    for path in sorted(directory.rglob("*"), reverse=True) + [directory]:
        descriptor = os.open(path, os.O_RDONLY)
        try:
            os.fsync(descriptor)
        finally:
            os.close(descriptor)


def write_stream(stream: Stream, path: str | Path, *, overwrite: bool = False) -> Path:
    """Write ``stream`` as a stream directory at ``path`` atomically; return the directory."""
    return write_events(stream.events, path, static=stream.static, schema=stream.schema,
                        provenance=stream.provenance, overwrite=overwrite).directory


@dataclass(frozen=True)
class Written:
    """A stream directory written, and how many events and updates it holds."""

    directory: Path
    events: int
    updates: int


def write_events(events: Iterable[Event], path: str | Path, *, static: Iterable = (), schema: Iterable = (),
                 provenance: dict | None = None, overwrite: bool = False) -> Written:
    """Write ``events`` (any iterable, read once) with ``static``, ``schema`` and ``provenance`` as a stream directory
    at ``path`` atomically, a row group of about ``ROW_GROUP_SIZE`` rows at a time: it holds one row group, never the stream."""
    target = Path(path)
    replacing = _check_destination(target, overwrite)
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = Path(tempfile.mkdtemp(prefix=f".{target.name}.partial-", dir=target.parent))
    try:
        partial.chmod(0o777 & ~current_umask())  # mkdtemp makes it private; a stream is an ordinary directory
        layout.write_provenance(partial, provenance or {})
        (partial / layout.EVENTS_DIR).mkdir()
        counted = _write_rows(events, partial / layout.EVENTS_DIR / "part-00000.parquet", target)
        static, schema = tuple(static), tuple(schema)
        if static:
            write_ntriples(partial / layout.STATIC_FILE, static)
        if schema:
            write_ntriples(partial / layout.SCHEMA_FILE, schema)
        _fsync_tree(partial)
        _move_into_place(partial, target, replacing)
    except BaseException:
        shutil.rmtree(partial, ignore_errors=True)
        raise
    return Written(target, *counted)


def _write_rows(events: Iterable[Event], file: Path, target: Path) -> tuple[int, int]:
    """Check and write the rows of ``events``, a group of whole events of about ``ROW_GROUP_SIZE`` rows at a time."""
    numbered = rows = 0
    last_ts = None
    with pq.ParquetWriter(file, layout.EVENT_SCHEMA) as writer:
        for group in _groups(events, ROW_GROUP_SIZE):
            if last_ts is not None and group[0].ts < last_ts:
                raise StreamError(f"stream written to {target} row {rows} (event {numbered}, event id {numbered}): "
                                  f"timestamp {group[0].ts} is before the previous event's {last_ts} "
                                  "(timestamps must be non-decreasing)")
            table = table_from_events(group, target, first_event=numbered)
            # the locator counts rows from the stream's first, so a message names the row in the whole stream
            checked = check_rows(table, RowLocator((f"stream written to {target}",), (-rows,)), first_event=numbered)
            # one row group a group: a group ends past ROW_GROUP_SIZE rows, on an event boundary
            writer.write_table(canonical_table(checked, table.column("event").to_numpy()), row_group_size=table.num_rows)
            numbered, rows, last_ts = numbered + len(group), rows + table.num_rows, group[-1].ts
    return numbered, rows


def _groups(events: Iterable[Event], rows: int) -> Iterator[list[Event]]:
    """``events`` in lists of whole events, each closed once it holds ``rows`` updates or more."""
    group: list[Event] = []
    held = 0
    for event in events:
        group.append(event)
        held += len(event.updates)
        if held >= rows:
            yield group
            group, held = [], 0
    if group:
        yield group


def _move_into_place(partial: Path, target: Path, replacing: bool) -> None:
    if not replacing:
        os.rename(partial, target)
        return
    aside = Path(tempfile.mkdtemp(prefix=f".{target.name}.old-", dir=target.parent))
    os.rename(target, aside / "stream")
    try:
        os.rename(partial, target)
    except BaseException:
        os.rename(aside / "stream", target)
        raise
    finally:
        shutil.rmtree(aside, ignore_errors=True)
