"""Where each part of a stream lives on disk, and the Arrow schema its event rows must have.

A stream directory holds ``stream.json`` (provenance, a JSON object; ``{}`` is enough), the event
rows as Parquet under ``events/`` (one file or many part files, possibly Hive-partitioned
subdirectories, read in natural file-name order; ``events.parquet`` or a single file named
``events`` is accepted too), and optionally ``static.nt`` and ``schema.nt``.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pyarrow as pa

from common.errors import StreamError

PROVENANCE_FILE = "stream.json"
EVENTS_DIR = "events"
EVENTS_SINGLE_FILE = "events.parquet"
STATIC_FILE = "static.nt"
SCHEMA_FILE = "schema.nt"

EVENT_SCHEMA = pa.schema(
    [
        ("event", pa.int64()),
        ("ts", pa.int64()),
        ("op", pa.int8()),
        ("s", pa.string()),
        ("p", pa.string()),
        ("o", pa.string()),
    ]
)
INTEGER_COLUMNS = ("event", "ts", "op")
TERM_COLUMNS = ("s", "p", "o")

# Spark and pyarrow mark metadata files (_SUCCESS, .crc, _common_metadata) with these prefixes.
_IGNORED_PREFIXES = (".", "_")
_DIGITS = re.compile(r"(\d+)")


def natural_key(path: Path) -> list:
    """Sort key that puts ``part-2`` before ``part-10`` and ``k=2/`` before ``k=10/``."""
    return [int(piece) if piece.isdigit() else piece for piece in _DIGITS.split(path.as_posix())]


def stream_directory(path: str | Path) -> Path:
    """The stream directory itself; a missing path, a plain file or a directory without stream.json is a StreamError."""
    directory = Path(path)
    if not directory.exists():
        raise StreamError(f"stream directory {directory} does not exist")
    if not directory.is_dir():
        raise StreamError(f"{directory} is not a stream directory (it is a file)")
    if not (directory / PROVENANCE_FILE).is_file():
        raise StreamError(
            f"{directory} is not a stream directory: it has no {PROVENANCE_FILE} (write {{}} there for a hand-made stream)"
        )
    return directory


def event_files(directory: Path) -> list[Path]:
    """The Parquet files holding the event rows, in the order their rows are read."""
    events = directory / EVENTS_DIR
    if events.is_file():
        return [events]
    single = directory / EVENTS_SINGLE_FILE
    if not events.exists():
        if single.is_file():
            return [single]
        raise StreamError(f"stream {directory} has no {EVENTS_DIR}/ directory (nor {EVENTS_SINGLE_FILE})")
    files = [
        path
        for path in events.rglob("*")
        if path.is_file()
        and not any(part.startswith(_IGNORED_PREFIXES) for part in path.relative_to(events).parts)
    ]
    if not files:
        raise StreamError(f"stream {directory}: {events} holds no Parquet files")
    return sorted(files, key=lambda path: natural_key(path.relative_to(events)))


def read_provenance(directory: Path) -> dict:
    path = directory / PROVENANCE_FILE
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise StreamError(f"cannot read {path}: {getattr(error, 'strerror', None) or error}") from None
    try:
        provenance = json.loads(text)
    except json.JSONDecodeError as error:
        raise StreamError(f"{path} line {error.lineno} column {error.colno}: malformed JSON: {error.msg}") from None
    if not isinstance(provenance, dict):
        raise StreamError(f"{path} must hold a JSON object (use {{}} for none), not a {type(provenance).__name__}")
    return provenance


def write_provenance(directory: Path, provenance: dict) -> None:
    try:
        text = json.dumps(provenance, indent=2, sort_keys=True, ensure_ascii=False)
    except (TypeError, ValueError) as error:
        raise StreamError(f"stream provenance is not JSON-serialisable: {error}") from None
    (directory / PROVENANCE_FILE).write_text(text + "\n", encoding="utf-8")
