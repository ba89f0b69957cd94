"""The timestamped N-Triples text format (``nt-events``) reads into exactly the stream it was written from.

Syntax (docs/streams.md has the full description)::

    # comments and blank lines are free
    @ts 1000
    <http://x/a> <http://x/p> <http://x/b> .
    - <http://x/a> <http://x/p> <http://x/c> .

    @ts 1500
    + <http://x/a> <http://x/p> <http://x/c> .

A line ``@ts MILLISECONDS`` starts an event; the N-Triples lines that follow, up to the next blank
line or ``@ts`` line, are its updates in order: a plain triple line or one prefixed with ``+ `` is an
insert, one prefixed with ``- `` is a deletion. A triple after a blank line must be preceded by a
new ``@ts`` line, so the blank-line grouping and the directives never disagree.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from pathlib import Path

from common.errors import StreamError, TermError
from engines.model.stream import DELETE, INSERT, Event, Stream, Triple, Update
from harness.streams.atomic import write_text_atomically
from harness.streams.checks import checked_in_order
from harness.streams.ntriples import parse_triple_line, triple_line

HEADER = "# cgpm-bench nt-events: '@ts MILLISECONDS' starts an event; '- ' marks a deletion, '+ ' (optional) an insert\n"
_TS_LINE = re.compile(r"@ts[ \t]+([+-]?\d+)[ \t]*(?:#.*)?")
_OP_PREFIX = re.compile(r"([+-])[ \t]+")


def parse_nt_events(lines: Iterable[str], source: str) -> tuple[Event, ...]:
    """Events of an nt-events document; any problem is a StreamError naming ``source`` and the line."""
    return tuple(nt_events(lines, source))


def nt_events(lines: Iterable[str], source: str) -> Iterator[Event]:
    """The events of an nt-events document as its lines are read, each checked against the one before it."""
    event_lines: dict[int, int] = {}  # the line that opened each event still open or just closed, for messages

    def where(number: int) -> str:
        return f"{source} line {event_lines[number]}"

    return checked_in_order(_parsed(lines, source, event_lines), where)


def _parsed(lines: Iterable[str], source: str, event_lines: dict[int, int]) -> Iterator[Event]:
    emitted = 0
    updates: list[Update] | None = None  # the open event's updates; None between groups
    ts = 0
    for number, line in enumerate(lines, start=1):
        line = line.rstrip("\r\n")
        where = f"{source} line {number}"
        if not line.strip():
            if updates is not None:
                yield Event(emitted, ts, tuple(updates))
                emitted += 1
            updates = None
            continue
        if line.lstrip().startswith("#"):
            continue
        if line.startswith("@"):
            match = _TS_LINE.fullmatch(line.rstrip())
            if match is None:
                raise StreamError(f"{where}: malformed directive {line.strip()[:40]!r} (expected '@ts MILLISECONDS')")
            if updates is not None:
                yield Event(emitted, ts, tuple(updates))
                emitted += 1
            ts = int(match.group(1))
            updates = []
            event_lines.pop(emitted - 1, None)
            event_lines[emitted] = number
            continue
        if updates is None:
            raise StreamError(
                f"{where}: triple outside an event: start each group of lines with '@ts MILLISECONDS'"
                + (" (a blank line ends an event)" if emitted else "")
            )
        op, body = INSERT, line
        prefix = _OP_PREFIX.match(line)
        if prefix:
            op = DELETE if prefix.group(1) == "-" else INSERT
            body = line[prefix.end():]
        elif line.startswith(("+", "-")):
            raise StreamError(f"{where}: expected a space after {line[0]!r} (write '{line[0]} <s> <p> <o> .')")
        try:
            updates.append(Update(op, *parse_triple_line(body)))
        except TermError as error:
            raise TermError(f"{where} (event {emitted}, ts {ts}): {error}") from None
    if updates is not None:
        yield Event(emitted, ts, tuple(updates))


def read_nt_events(path: str | Path) -> Iterator[Event]:
    """The events of an nt-events file, read line by line; a file that cannot be read is a StreamError."""
    path = Path(path)
    try:
        with path.open(encoding="utf-8", newline="") as handle:
            yield from nt_events(handle, str(path))
    except UnicodeDecodeError as error:
        raise StreamError(f"{path} is not UTF-8 text: {error.reason} at byte {error.start}") from None
    except OSError as error:
        raise StreamError(f"cannot read {path}: {error.strerror or error}") from None


def import_nt_events(
    path: str | Path, *, static: Iterable[Triple] = (), schema: Iterable[Triple] = (), provenance: dict | None = None
) -> Stream:
    """Read an nt-events file into a Stream (static graph and schema come separately)."""
    events = tuple(read_nt_events(path))
    if provenance is None:
        provenance = {"imported_from": str(path), "import_format": "nt-events"}
    return Stream(events=events, static=tuple(static), schema=tuple(schema), provenance=provenance)


def nt_events_lines(events: Iterable[Event]) -> Iterator[str]:
    """The nt-events text of ``events``: one ``@ts`` group per event, groups separated by blank lines."""
    yield HEADER
    for event in events:
        yield f"\n@ts {event.ts}\n"
        for update in event.updates:
            line = triple_line(update.triple)
            yield f"- {line}" if update.op == DELETE else line


def export_nt_events(stream: Stream, path: str | Path) -> Path:
    """Write ``stream``'s events (a ``Stream`` or an opened stream directory, read in one pass) as nt-events text."""
    return write_text_atomically(path, nt_events_lines(stream.events))
