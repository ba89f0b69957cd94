"""``cgpm stream``: import, export, validate and describe stream directories; bad input is one line and exit 2."""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterable, Iterator
from pathlib import Path

from common.errors import ConfigError
from engines.model.stream import INSERT, Event
from engines.model.windows import WINDOW_FORMS, parse_window
from harness.streams.atomic import write_text_atomically
from harness.streams.counting import count_stream
from harness.streams.nt_events import nt_events_lines, read_nt_events
from harness.streams.ntriples import read_ntriples, triple_line
from harness.streams.parquet_io import write_events
from harness.streams.reader import open_stream
from harness.streams.trig import read_trig, trig_lines
from harness.streams.turtle_files import read_turtle_files

IMPORT_FORMATS = ("nt-events", "trig", "turtle-files")
EXPORT_FORMATS = ("nt-events", "trig", "nt")


def add_parser(subparsers) -> None:
    parser = subparsers.add_parser("stream", help="import, export, validate and describe streams")
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True, parser_class=type(parser))

    importing = actions.add_parser(
        "import", help="text (nt-events, RSP-QL TriG or a directory of Turtle files) -> stream directory",
        description="Make a stream directory from text made elsewhere: nt-events (N-Triples lines grouped into events, "
        "each opened by an '@ts MILLISECONDS' line; '- ' marks a deletion), RSP-QL TriG (one named graph per event, "
        "timestamped by prov:generatedAtTime) or turtle-files (FILE is a directory of .ttl files, one event each, "
        "at the last integer of its name times --time-unit ms, as CSRBench ships its stream). --static and --schema "
        "ship a background graph and an RDFS/OWL schema with it. docs/streams.md gives the formats.")
    importing.add_argument("file", type=Path, metavar="FILE", help="the text file (a directory for turtle-files)")
    importing.add_argument("--format", required=True, choices=IMPORT_FORMATS)
    importing.add_argument("--out", required=True, type=Path, metavar="DIR")
    importing.add_argument("--static", type=Path, metavar="FILE.nt", help="N-Triples background graph to ship with the stream")
    importing.add_argument("--schema", type=Path, metavar="FILE.nt", help="N-Triples RDFS/OWL schema for entailment")
    importing.add_argument("--overwrite", action="store_true", help="replace an existing stream directory")
    importing.add_argument("--time-unit", type=int, default=1, metavar="MS",
                           help="turtle-files: the milliseconds one unit of a file name's number stands for (default 1)")
    importing.set_defaults(handler=run_import)

    exporting = actions.add_parser("export", help="stream directory -> text (nt-events, TriG, or N-Triples of the graph it builds)")
    exporting.add_argument("directory", type=Path, metavar="DIR")
    exporting.add_argument("--format", required=True, choices=EXPORT_FORMATS)
    exporting.add_argument("--out", required=True, type=Path, metavar="FILE")
    exporting.set_defaults(handler=run_export)

    validating = actions.add_parser("validate", help="check a stream directory (and that it fits a window)")
    validating.add_argument("directory", type=Path, metavar="DIR")
    validating.add_argument("--window", metavar="SPEC", help=WINDOW_FORMS)
    validating.set_defaults(handler=run_validate)

    describing = actions.add_parser(
        "info", help="counts, time span and predicates of a stream",
        description="Describe a stream directory: events, update rows, distinct triples, its time span (to pick a "
        "window from), static and schema sizes, and per predicate both update rows and distinct triples. The same "
        "counting as cgpm stats, read a batch at a time.")
    describing.add_argument("directory", type=Path, metavar="DIR")
    describing.add_argument("--json", action="store_true", help="print the summary as JSON")
    describing.set_defaults(handler=run_info)


def run_import(args: argparse.Namespace) -> int:
    static = read_ntriples(args.static) if args.static else ()
    schema = read_ntriples(args.schema) if args.schema else ()
    provenance = {"imported_from": str(args.file), "import_format": args.format}
    if args.format == "turtle-files":
        events = read_turtle_files(args.file, time_unit=args.time_unit)
        provenance["time_unit_ms"] = args.time_unit
    elif args.time_unit != 1:
        raise ConfigError(f"--time-unit is for --format turtle-files, not {args.format} (its timestamps are in ms)")
    else:
        events = read_trig(args.file) if args.format == "trig" else read_nt_events(args.file)
    # the events are parsed as they are written, a row group at a time: the import holds one, never the stream
    written = write_events(events, args.out, static=static, schema=schema, overwrite=args.overwrite,
                           provenance=provenance)
    print(f"imported {written.events} events ({written.updates} updates) from {args.file} into {args.out}")
    return 0


def run_export(args: argparse.Namespace) -> int:
    if args.out.resolve().is_relative_to(args.directory.resolve()):
        raise ConfigError(f"--out {args.out} is inside the stream directory {args.directory}; write it elsewhere")
    counted = Counted(open_stream(args.directory).events)  # one pass, batch by batch
    if args.format == "nt-events":
        write_text_atomically(args.out, nt_events_lines(counted))
    elif args.format == "trig":
        write_text_atomically(args.out, trig_lines(Event(number, event.ts, event.updates)
                                                   for number, event in enumerate(counted)))
    else:
        write_text_atomically(args.out, map(triple_line, live_triples(counted)))
    print(f"exported {counted.events} events from {args.directory} to {args.out} ({args.format})")
    return 0


class Counted:
    """The events of one pass, counted as they go by."""

    def __init__(self, events: Iterable[Event]) -> None:
        self.source, self.events = events, 0

    def __iter__(self) -> Iterator[Event]:
        for event in self.source:
            self.events += 1
            yield event


def live_triples(events: Iterable[Event]) -> Iterable[tuple]:
    """The triples present after the last event, each once, in the order they were (last) inserted: the graph the
    stream builds. A deletion drops its triple, so what is held is the live graph, not every triple ever seen."""
    live: dict[tuple, None] = {}
    for event in events:
        for update in event.updates:
            if update.op == INSERT:
                live.setdefault(update.triple)
            else:
                live.pop(update.triple, None)
    return live


def run_validate(args: argparse.Namespace) -> int:
    window = parse_window(args.window) if args.window else None
    source = open_stream(args.directory)
    if window is not None:
        source = source.checked_against(window)
    events = updates = 0
    for event in source.events:  # one pass, batch by batch: every row is checked, none is kept
        events += 1
        updates += len(event.updates)
    fits = f", fits window {window.spec()}" if window is not None else ""
    print(f"{args.directory}: valid stream, {events} events, {updates} updates{fits}")
    return 0


def run_info(args: argparse.Namespace) -> int:
    from harness.commands.stats_cmd import span_text

    counts = count_stream(args.directory)
    if args.json:
        print(json.dumps(counts, indent=2, ensure_ascii=False))
        return 0
    print(f"stream      {args.directory}")
    print(f"events      {counts['events']:,} ({counts['distinct_timestamps']:,} distinct timestamps, "
          f"largest {counts['max_event_size']:,} updates)")
    print(f"updates     {counts['rows']:,} ({counts['inserts']:,} inserts, {counts['deletes']:,} deletes; "
          f"{counts['triples']:,} distinct triples inserted)")
    print(f"time span   {span_text(counts)}")
    print(f"static      {counts['static_triples']:,} triples; schema {counts['schema_triples']:,} triples")
    print(f"predicates  {len(counts['predicate_rows'])} distinct; per predicate, update rows (every insert and delete, "
          "repeats included) and distinct inserted triples (as cgpm stats counts them):")
    print(f"  {'updates':>9}  {'triples':>9}  predicate")
    for term, rows in counts["predicate_rows"].items():
        iri = term[1:-1] if term.startswith("<") else term
        print(f"  {rows:>9,}  {counts['predicates'].get(iri, 0):>9,}  {term}")
    return 0
