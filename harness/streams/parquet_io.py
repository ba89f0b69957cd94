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
from pathlib import Path

import pyarrow.parquet as pq

from common.errors import StreamError
from engines.model.stream import Stream, Window
from harness.streams import layout
from harness.streams.atomic import current_umask
from harness.streams.ntriples import write_ntriples
from harness.streams.reader import open_stream
from harness.streams.table import RowLocator, canonical_table, check_rows, table_from_events

ROW_GROUP_SIZE = 256 * 1024


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
