"""The RSP-QL data model in TriG (one named graph per event, its timestamp in the default graph) reads and writes streams.

Import: every named graph is one event, in order of first appearance (blocks with the same graph
name are one graph); its timestamp is the default-graph triple ``<g> prov:generatedAtTime
"…"^^xsd:dateTime`` or ``<g> <urn:cgpm-bench:timestampMs> "1000"^^xsd:integer`` (milliseconds since
1970-01-01T00:00:00Z; a dateTime without a zone is read as UTC). Other default-graph triples are
metadata and are ignored. A graph's triples are its inserts in document order; the model has no
deletions. pyoxigraph parses the TriG (it keeps document order, duplicates, blank node labels and
lexical forms) in lenient mode, so that every term is judged by ``engines.model.terms`` as everywhere
else, not by RFC 3987 or BCP 47 (relative IRIs and any well-formed language tag are kept).

Export writes graphs ``<urn:cgpm-bench:event:N>`` with ``prov:generatedAtTime``, or the
milliseconds predicate for a timestamp outside the years 1-9999, and refuses a stream with deletions.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pyoxigraph as ox

from common.errors import StreamError, TermError
from engines.model.stream import DELETE, INSERT, Event, Stream, Triple, Update
from engines.model.terms import XSD, check_triple, literal, parse_term
from harness.streams.atomic import write_text_atomically
from harness.streams.checks import checked_in_order

PROV_GENERATED_AT = "http://www.w3.org/ns/prov#generatedAtTime"
TIMESTAMP_MS = "urn:cgpm-bench:timestampMs"
EVENT_GRAPH = "urn:cgpm-bench:event:"
XSD_DATETIME = XSD + "dateTime"
_INTEGER_TYPES = {XSD + name for name in ("integer", "long", "int", "nonNegativeInteger", "unsignedLong")}
_DATETIME = re.compile(r"(-?\d{4,})-(\d\d)-(\d\d)T(\d\d):(\d\d):(\d\d)(?:\.(\d+))?(Z|[+-]\d\d:\d\d)?")
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_MS = timedelta(milliseconds=1)


def datetime_to_ms(lexical: str) -> int:
    """Milliseconds since the epoch of an xsd:dateTime lexical form; ValueError if malformed or finer than 1 ms."""
    match = _DATETIME.fullmatch(lexical.strip())
    if match is None:
        raise ValueError("not an xsd:dateTime")
    year, month, day, hour, minute, second = (int(g) for g in match.groups()[:6])
    fraction, zone = match.group(7) or "", match.group(8)
    if fraction.rstrip("0")[3:]:
        raise ValueError("finer than a millisecond")
    end_of_day = hour == 24 and minute == second == 0 and not fraction.strip("0")
    moment = datetime(year, month, day, 0 if end_of_day else hour, minute, second, tzinfo=UTC)
    if end_of_day:
        moment += timedelta(days=1)
    if zone and zone != "Z":
        sign = 1 if zone[0] == "+" else -1
        moment -= sign * timedelta(hours=int(zone[1:3]), minutes=int(zone[4:6]))
    return (moment - _EPOCH) // _MS + int((fraction + "000")[:3])


def ms_to_datetime(ms: int) -> str | None:
    """The xsd:dateTime (UTC, ``Z``) of a timestamp, or None outside the years datetime can write."""
    try:
        moment = _EPOCH + timedelta(milliseconds=ms)
    except OverflowError:
        return None
    # Formatted by hand: strftime does not pad years before 1000 on every platform.
    text = f"{moment.year:04d}-{moment.month:02d}-{moment.day:02d}T{moment.hour:02d}:{moment.minute:02d}:{moment.second:02d}"
    return f"{text}.{ms % 1000:03d}Z" if ms % 1000 else f"{text}Z"


# Characters an IRIREF may not hold raw; pyoxigraph hands them over decoded from \uXXXX escapes.
_IRI_FORBIDDEN = re.compile(r'[\x00-\x20<>"{}|^`\\]')


def oxigraph_term(node) -> str:
    """A pyoxigraph term in this project's N-Triples spelling, checked by engines.model.terms."""
    if isinstance(node, ox.NamedNode):
        return parse_term("<" + _IRI_FORBIDDEN.sub(lambda match: f"\\u{ord(match.group(0)):04X}", node.value) + ">")
    if isinstance(node, ox.BlankNode):
        return f"_:{node.value}"
    if isinstance(node, ox.Literal):
        if node.language:
            return literal(node.value, None, node.language)
        return literal(node.value, node.datatype.value)
    raise TermError(f"unsupported term {node} (RDF-star triple terms cannot be stream data)")


def _timestamp(graph: str, value, source: str) -> int:
    if not isinstance(value, ox.Literal):
        raise StreamError(f"{source}: the timestamp of graph {graph} is {value}, not a literal")
    datatype = value.datatype.value
    try:
        if datatype == XSD_DATETIME:
            return datetime_to_ms(value.value)
        if datatype in _INTEGER_TYPES:
            return int(value.value)
        raise ValueError(f"datatype <{datatype}> is neither xsd:dateTime nor an xsd integer type")
    except ValueError as error:
        raise StreamError(f"{source}: bad timestamp {oxigraph_term(value)} for graph {graph}: {error}") from None


def _quads(path: Path) -> Iterator:
    try:
        # lenient keeps relative IRIs as written; engines.model.terms validates every term afterwards.
        yield from ox.parse(path=str(path), format=ox.RdfFormat.TRIG, lenient=True)
    except SyntaxError as error:
        raise StreamError(f"{path} line {error.lineno}: {error.msg.split(': ', 1)[-1]}") from None
    except (OSError, UnicodeDecodeError) as error:
        raise StreamError(f"cannot read {path}: {getattr(error, 'strerror', None) or error}") from None


def import_trig(
    path: str | Path, *, static: Iterable[Triple] = (), schema: Iterable[Triple] = (), provenance: dict | None = None
) -> Stream:
    """Read an RSP-QL TriG file (one timestamped named graph per event) into a Stream."""
    events = tuple(read_trig(path))
    if provenance is None:
        provenance = {"imported_from": str(path), "import_format": "trig"}
    return Stream(events=events, static=tuple(static), schema=tuple(schema), provenance=provenance)


def read_trig(path: str | Path) -> Iterator[Event]:
    """The events of an RSP-QL TriG file, in two passes over it: the timestamps first (they may follow their graph),
    then each graph's triples as an event once its block ends. The first pass holds a name and a timestamp a graph;
    only a file that reopens a graph after another one began is read whole (its graph is one event)."""
    path = Path(path)
    if not path.is_file():
        raise StreamError(f"cannot read {path}: {'it is a directory' if path.is_dir() else 'no such file'}")
    timestamps, reopened = _timestamps(path)
    graphs = _graph_blocks(path) if not reopened else iter(_whole_graphs(path).items())
    names: dict[int, str] = {}  # the graph of the event being checked

    def where(number: int) -> str:
        return f"{path} graph {names[number]}"

    def events() -> Iterator[Event]:
        for number, (graph, updates) in enumerate(graphs):
            if graph not in timestamps:
                raise StreamError(
                    f"{path}: graph {graph} (event {number}) has no timestamp: add '{graph} <{PROV_GENERATED_AT}> "
                    f'"…"^^<{XSD_DATETIME}> .\' to the default graph'
                )
            names.clear()
            names[number] = graph
            yield Event(number, timestamps[graph], tuple(updates))

    return checked_in_order(events(), where)


def _timestamps(path: Path) -> tuple[dict[str, int], bool]:
    """Each graph's timestamp, and whether a graph's triples come in two blocks with another graph's between them."""
    timestamps: dict[str, int] = {}
    seen: set[str] = set()
    current = None
    reopened = False
    default_graph_triples = 0
    for quad in _quads(path):
        if isinstance(quad.graph_name, ox.DefaultGraph):
            default_graph_triples += 1
            if quad.predicate.value in (PROV_GENERATED_AT, TIMESTAMP_MS) and not isinstance(quad.subject, ox.Literal):
                graph = oxigraph_term(quad.subject)
                ts = _timestamp(graph, quad.object, str(path))
                if timestamps.setdefault(graph, ts) != ts:
                    raise StreamError(f"{path}: graph {graph} has two timestamps, {timestamps[graph]} and {ts}")
            continue
        graph = quad.graph_name.value if isinstance(quad.graph_name, ox.NamedNode) else str(quad.graph_name)
        if graph != current:
            reopened = reopened or graph in seen
            seen.add(graph)
            current = graph
    if not seen and default_graph_triples:
        # Plain Turtle or N-Triples data parses as TriG too; importing it as an empty stream would hide the mistake.
        raise StreamError(f"{path} holds no named graph, so no event (each event is one timestamped named graph)")
    return timestamps, reopened


def _graph_triples(path: Path, reopens: bool) -> Iterator[tuple[str, Update]]:
    """Each named graph's triple as an insert, with its graph; a graph is numbered by its first block (a file that
    ``reopens`` none numbers its blocks, and keeps no name)."""
    numbers: dict[str, int] = {}
    current, number = None, -1
    for quad in _quads(path):
        if isinstance(quad.graph_name, ox.DefaultGraph):
            continue
        graph = oxigraph_term(quad.graph_name)
        if graph != current:
            current = graph
            number = numbers.setdefault(graph, len(numbers)) if reopens else number + 1
        try:
            triple = check_triple(oxigraph_term(quad.subject), oxigraph_term(quad.predicate), oxigraph_term(quad.object))
        except TermError as error:
            raise TermError(f"{path}: graph {graph} (event {number}): {error}") from None
        yield graph, Update(INSERT, *triple)


def _graph_blocks(path: Path) -> Iterator[tuple[str, list[Update]]]:
    """Each graph and its triples, one block at a time (the file reopens no graph)."""
    current, updates = None, []
    for graph, update in _graph_triples(path, reopens=False):
        if graph != current and current is not None:
            yield current, updates
            updates = []
        current = graph
        updates.append(update)
    if current is not None:
        yield current, updates


def _whole_graphs(path: Path) -> dict[str, list[Update]]:
    graphs: dict[str, list[Update]] = {}
    for graph, update in _graph_triples(path, reopens=True):
        graphs.setdefault(graph, []).append(update)
    return graphs


def trig_lines(events: Iterable[Event]) -> Iterator[str]:
    """TriG text of an insert-only stream, one named graph per event."""
    yield f"@prefix prov: <http://www.w3.org/ns/prov#> .\n@prefix xsd: <{XSD}> .\n"
    for event in events:
        graph = f"<{EVENT_GRAPH}{event.index}>"
        stamp = ms_to_datetime(event.ts)
        if stamp is None:
            yield f'\n{graph} <{TIMESTAMP_MS}> "{event.ts}"^^xsd:integer .\n'
        else:
            yield f'\n{graph} prov:generatedAtTime "{stamp}"^^xsd:dateTime .\n'
        yield f"{graph} {{\n"
        for update in event.updates:
            if update.op == DELETE:
                raise StreamError(
                    f"event {event.index} (ts {event.ts}) deletes {update.s} {update.p} {update.o}: the RSP-QL "
                    "data model (TriG) holds inserts only; export with --format nt-events instead"
                )
            yield f"  {update.s} {update.p} {update.o} .\n"
        yield "}\n"


def export_trig(stream: Stream, path: str | Path) -> Path:
    """Write ``stream``'s events (a ``Stream`` or an opened stream directory, read in one pass) as TriG, numbered from 0."""
    events = (Event(number, event.ts, event.updates) for number, event in enumerate(stream.events))
    return write_text_atomically(path, trig_lines(events))
