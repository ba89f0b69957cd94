"""A directory of Turtle files, one per event, reads into the stream they describe: each file one event at the timestamp its name gives.

This is how benchmarks such as CSRBench ship a stream (``data/data_07.ttl`` holds what arrives at
application time 7 · 1000 ms): the timestamp of a file is the last integer in its name (before
``.ttl``) times ``time_unit`` milliseconds. Events are ordered by timestamp (files with one
timestamp by name), so the directory listing's order does not matter; two files with one timestamp
are two events. A file's triples are its inserts in document order. Blank node labels are the
file's own: the same label in two files is two nodes (as a store loading each file apart has them),
so each label is prefixed with its file's event number. Parsing is pyoxigraph's, lenient, with every
term judged by ``engines.model.terms`` (``harness.streams.trig`` does the same for TriG).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from pathlib import Path

import pyoxigraph as ox

from common.errors import StreamError, TermError
from engines.model.stream import INSERT, Event, Stream, Triple, Update
from engines.model.terms import check_triple
from harness.streams.checks import checked_in_order
from harness.streams.trig import oxigraph_term

_LAST_INTEGER = re.compile(r"(\d+)(?!.*\d)")


def file_timestamp(path: Path, time_unit: int) -> int:
    """The timestamp (ms) a file's name gives: its last integer times ``time_unit``."""
    match = _LAST_INTEGER.search(path.stem)
    if match is None:
        raise StreamError(f"{path}: the file name holds no integer, so no timestamp (expected e.g. data_07.ttl)")
    return int(match.group(1)) * time_unit


def _node(node, event: int) -> str:
    if isinstance(node, ox.BlankNode):
        return f"_:e{event}x{node.value}"
    return oxigraph_term(node)


def _updates(path: Path, event: int) -> tuple[Update, ...]:
    updates = []
    try:
        # lenient keeps relative IRIs as written; engines.model.terms validates every term afterwards.
        for quad in ox.parse(path=str(path), format=ox.RdfFormat.TURTLE, lenient=True):
            try:
                triple = check_triple(_node(quad.subject, event), _node(quad.predicate, event), _node(quad.object, event))
            except TermError as error:
                raise TermError(f"{path} (event {event}): {error}") from None
            updates.append(Update(INSERT, *triple))
    except SyntaxError as error:
        raise StreamError(f"{path} line {error.lineno}: {error.msg.split(': ', 1)[-1]}") from None
    except (OSError, UnicodeDecodeError) as error:
        raise StreamError(f"cannot read {path}: {getattr(error, 'strerror', None) or error}") from None
    return tuple(updates)


def read_turtle_files(directory: str | Path, *, time_unit: int = 1) -> Iterator[Event]:
    """Each ``*.ttl`` file of ``directory`` as one event at its name's timestamp, parsed as it is asked for: only the
    file names are sorted up front, so an import holds one file's triples at a time."""
    directory = Path(directory)
    if not directory.is_dir():
        raise StreamError(f"cannot read {directory}: {'it is a file, not a directory of Turtle files' if directory.exists() else 'no such directory'}")
    if time_unit < 1:
        raise StreamError(f"a time unit of {time_unit} ms is not at least 1")
    files = sorted(directory.glob("*.ttl"), key=lambda path: (file_timestamp(path, time_unit), path.name))
    if not files:
        raise StreamError(f"{directory} holds no .ttl file, so no event")
    events = (Event(number, file_timestamp(path, time_unit), _updates(path, number)) for number, path in enumerate(files))
    return checked_in_order(events, lambda number: str(files[number]))


def import_turtle_files(
    directory: str | Path, *, time_unit: int = 1, static: Iterable[Triple] = (), schema: Iterable[Triple] = (),
    provenance: dict | None = None,
) -> Stream:
    """The whole stream ``read_turtle_files`` reads, as one ``Stream`` (for tests and small imports)."""
    events = tuple(read_turtle_files(directory, time_unit=time_unit))
    if provenance is None:
        provenance = {"imported_from": str(directory), "import_format": "turtle-files", "time_unit_ms": time_unit}
    return Stream(events=events, static=tuple(static), schema=tuple(schema), provenance=provenance)
