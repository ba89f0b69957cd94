"""A stream directory is read whole into a Stream, and written so that it is either complete or absent.

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
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from common.errors import StreamError
from engines.model.stream import Stream, Window
from harness.streams import layout
from harness.streams.atomic import current_umask
from harness.streams.checks import check_window
from harness.streams.ntriples import read_ntriples, write_ntriples
from harness.streams.remote import local_stream_path
from harness.streams.table import (
    RowLocator,
    canonical_table,
    check_column_types,
    check_rows,
    events_from_rows,
    table_from_events,
)

_COLUMNS = list(layout.EVENT_SCHEMA.names)
# op is read as int64 so that an out-of-range op is reported as such, not as a failed cast.
_READ_SCHEMA = layout.EVENT_SCHEMA.set(2, pa.field("op", pa.int64()))
ROW_GROUP_SIZE = 256 * 1024


def _read_event_table(directory: Path) -> tuple[pa.Table, RowLocator]:
    tables, sources, first_rows, total = [], [], [], 0
    for path in layout.event_files(directory):
        source = str(path)
        try:
            parquet = pq.ParquetFile(path)
            check_column_types(parquet.schema_arrow, source)
            table = parquet.read(columns=_COLUMNS)
        except StreamError:
            raise
        except (OSError, pa.ArrowException) as error:
            raise StreamError(f"cannot read {source} as Parquet: {str(error).splitlines()[0]}") from None
        try:
            # Compatible types (int32 ts, int64 op, large_string or dictionary terms) become one schema.
            table = table.cast(_READ_SCHEMA, safe=True)
        except pa.ArrowException as error:
            raise StreamError(f"{source}: a column does not fit the layout: {str(error).splitlines()[0]}") from None
        tables.append(table)
        sources.append(source)
        first_rows.append(total)
        total += table.num_rows
    table = pa.concat_tables(tables) if len(tables) > 1 else tables[0]
    return table, RowLocator(tuple(sources), tuple(first_rows))


def read_stream(path: str | Path, *, window: Window | None = None, validate: bool = True) -> Stream:
    """Load a whole stream directory (a path, a ``file:`` URI or any URI Spark can read). ``validate=False`` trusts the rows (no order, op or term checks).

    Events are re-numbered 0..n-1 in row order; the ``event`` column's own values are only a
    grouping key and are not kept. Given a ``window``, deletions are checked against it too.
    """
    directory = layout.stream_directory(local_stream_path(path))
    provenance = layout.read_provenance(directory)
    table, locator = _read_event_table(directory)
    events = events_from_rows(check_rows(table, locator, validate=validate))
    static = _optional_ntriples(directory / layout.STATIC_FILE)
    schema = _optional_ntriples(directory / layout.SCHEMA_FILE)
    stream = Stream(events=events, static=static, schema=schema, provenance=provenance)
    if window is not None:
        check_window(stream, window)
    return stream


def _optional_ntriples(path: Path) -> tuple:
    return read_ntriples(path) if path.exists() else ()


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
    target = Path(path)
    replacing = _check_destination(target, overwrite)
    table = table_from_events(stream.events, target)
    rows = check_rows(table, RowLocator((f"stream written to {target}",), (0,)))
    table = canonical_table(rows, table.column("event").to_numpy())
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = Path(tempfile.mkdtemp(prefix=f".{target.name}.partial-", dir=target.parent))
    try:
        partial.chmod(0o777 & ~current_umask())  # mkdtemp makes it private; a stream is an ordinary directory
        layout.write_provenance(partial, stream.provenance)
        (partial / layout.EVENTS_DIR).mkdir()
        pq.write_table(table, partial / layout.EVENTS_DIR / "part-00000.parquet", row_group_size=ROW_GROUP_SIZE)
        if stream.static:
            write_ntriples(partial / layout.STATIC_FILE, stream.static)
        if stream.schema:
            write_ntriples(partial / layout.SCHEMA_FILE, stream.schema)
        _fsync_tree(partial)
        _move_into_place(partial, target, replacing)
    except BaseException:
        shutil.rmtree(partial, ignore_errors=True)
        raise
    return target


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
