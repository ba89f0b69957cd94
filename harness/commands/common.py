"""The arguments every command that runs a query shares, read into a validated query and an opened stream before anything is written."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from common.errors import ConfigError
from engines.model.query import load_query
from engines.model.windows import DURATION_UNITS, WINDOW_FORMS, parse_window
from harness.query_files import check_query_file
from harness.streams.named_inputs import single_stream_directory, split_stream_argument, stream_directories

__all__ = ["add_query_arguments", "load_inputs", "load_many_inputs", "progress_bar", "split_stream_argument",
           "stream_directories"]


def add_query_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--stream", required=True, action="append", metavar="[IRI=]DIR",
                        help="stream directory (stream.json, events/): a path, a file:// URI, or any URI Spark can read "
                        "(copied here first); for a query over named windows, IRI=DIR once per stream it reads")
    parser.add_argument("--query", required=True, type=Path, action="append",
                        help="SPARQL SELECT query file (.rq); repeat it to register several queries in one engine")
    parser.add_argument("--window", help=f"window: {WINDOW_FORMS}; durations in ms or with {DURATION_UNITS} "
                        "(default: the query's RSP-QL window clause)")
    parser.add_argument("--entailment", choices=("none", "rdfs"),
                        help="entailment regime (default: the query's '# entailment:' comment, else none)")
    parser.add_argument("--max-events", type=int, metavar="N", help="use only the first N events of the stream")


def load_inputs(args: argparse.Namespace):
    """The first query and the opened stream (``load_many_inputs`` for every ``--query``)."""
    queries, source = load_many_inputs(args)
    return queries[0], source


def load_many_inputs(args: argparse.Namespace):
    """Read and check every query (names, their file stems, distinct), and open the stream for streaming; raise CgpmError on anything wrong.

    The stream's events are not read here: each pass over ``source.events`` reads them batch by batch
    (``harness.streams.reader``), checking rows and refusing deletions under a bounded window as they pass."""
    from harness.streams.reader import open_stream

    window = parse_window(args.window) if args.window else None
    paths = args.query if isinstance(args.query, list) else [args.query]
    queries = []
    for path in paths:
        check_query_file(path)
        queries.append(load_query(path, window=window, entailment=args.entailment))
    names = [query.name for query in queries]
    repeated = sorted({name for name in names if names.count(name) > 1})
    if repeated:
        raise ConfigError(f"--query: two query files named {repeated[0]!r}: each query is named by its file stem")
    limit = getattr(args, "max_events", None)
    if limit is not None and limit < 1:
        raise ConfigError(f"--max-events must be at least 1, got {limit}")
    streams = args.stream if isinstance(args.stream, list) else [args.stream]
    named = [query for query in queries if query.named_windows]
    if named:
        single = next((query for query in queries if not query.named_windows), None)
        if single is not None:  # its events would carry no stream: which of the merged streams would it read?
            raise ConfigError(f"query {single.name} has one window over one stream and query {named[0].name} is over "
                              "named windows: they cannot be registered in one engine (run them apart)")
        from harness.streams.merged import open_merged

        source = open_merged(queries, stream_directories(streams, queries), max_events=limit)
    else:
        if len(streams) > 1:
            raise ConfigError(f"query {queries[0].name} has one window over one stream; --stream was given {len(streams)} times")
        directories = {single_stream_directory(streams[0], query) for query in queries}
        if len(directories) > 1:  # two one-window queries over different streams: neither is the other's
            raise ConfigError(f"--stream {streams[0]}: the queries' windows read different streams; run them apart")
        # a bounded window among the queries refuses the stream's deletions
        strictest = next((query.window for query in queries if not query.window.allows_deletions), queries[0].window)
        source = open_stream(directories.pop(), max_events=limit).checked_against(strictest)
    if not all(query.window.allows_deletions for query in queries) and source.has_deletions:
        for _ in source.events:  # the pass stops at the first deletion with the message naming it
            pass
    return queries, source


def progress_bar(total, description: str):
    """A tqdm bar on stderr when it is a terminal, else a line every 10 s (``harness.progress_lines``). ``total`` may be
    a callable, called only for a terminal (counting a large stream's events is a scan of its columns)."""
    from harness.progress_lines import progress_bar as made

    shown = sys.stderr.isatty()
    if callable(total):
        total = total() if shown else None
    return made(total, description, "ev", terminal=shown, leave=False)
