"""``cgpm stream``: import, export, validate and describe stream directories; bad input is one line and exit 2."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from common.errors import ConfigError
from engines.model.stream import INSERT
from engines.model.windows import WINDOW_FORMS, parse_window
from harness.streams import (
    export_nt_events,
    export_trig,
    import_nt_events,
    import_trig,
    read_stream,
    write_stream,
)
from harness.streams.atomic import write_text_atomically
from harness.streams.counting import count_stream
from harness.streams.ntriples import read_ntriples, triple_line
from harness.streams.reader import open_stream
from harness.streams.turtle_files import import_turtle_files

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

    exporting = actions.add_parser("export", help="stream directory -> text (nt-events, TriG, or N-Triples of its distinct triples)")
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
    if args.format == "turtle-files":
        stream = import_turtle_files(args.file, time_unit=args.time_unit, static=static, schema=schema)
    else:
        if args.time_unit != 1:
            raise ConfigError(f"--time-unit is for --format turtle-files, not {args.format} (its timestamps are in ms)")
        reader = import_trig if args.format == "trig" else import_nt_events
        stream = reader(args.file, static=static, schema=schema)
    write_stream(stream, args.out, overwrite=args.overwrite)
    print(f"imported {len(stream.events)} events ({stream.triple_count} updates) from {args.file} into {args.out}")
    return 0


def run_export(args: argparse.Namespace) -> int:
    if args.out.resolve().is_relative_to(args.directory.resolve()):
        raise ConfigError(f"--out {args.out} is inside the stream directory {args.directory}; write it elsewhere")
    stream = read_stream(args.directory)
    if args.format == "nt-events":
        export_nt_events(stream, args.out)
    elif args.format == "trig":
        export_trig(stream, args.out)
    else:
        # Each inserted triple once, in order of first insertion: the graph the stream builds if nothing is deleted.
        triples = dict.fromkeys(u.triple for event in stream.events for u in event.updates if u.op == INSERT)
        write_text_atomically(args.out, map(triple_line, triples))
    print(f"exported {len(stream.events)} events from {args.directory} to {args.out} ({args.format})")
    return 0


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
