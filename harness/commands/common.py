"""The arguments every command that runs a query shares, read into a validated (query, stream) pair before anything is written."""

from __future__ import annotations

import argparse
import dataclasses
import sys
from pathlib import Path

from common.errors import ConfigError
from engines.model.query import load_query
from engines.model.windows import DURATION_UNITS, WINDOW_FORMS, parse_window
from harness.query_files import check_query_file


def add_query_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--stream", required=True, help="stream directory (stream.json, events/): a path, a file:// URI, "
                        "or any URI Spark can read (copied here first)")
    parser.add_argument("--query", required=True, type=Path, help="SPARQL SELECT query file (.rq)")
    parser.add_argument("--window", help=f"window: {WINDOW_FORMS}; durations in ms or with {DURATION_UNITS} "
                        "(default: the query's RSP-QL window clause)")
    parser.add_argument("--entailment", choices=("none", "rdfs"),
                        help="entailment regime (default: the query's '# entailment:' comment, else none)")
    parser.add_argument("--max-events", type=int, metavar="N", help="use only the first N events of the stream")


def load_inputs(args: argparse.Namespace):
    """Read and check the query and stream; raise CgpmError on anything wrong."""
    from harness.streams import check_window, read_stream

    window = parse_window(args.window) if args.window else None
    check_query_file(args.query)
    query = load_query(args.query, window=window, entailment=args.entailment)
    stream = read_stream(args.stream)
    limit = getattr(args, "max_events", None)
    if limit is not None:
        if limit < 1:
            raise ConfigError(f"--max-events must be at least 1, got {limit}")
        stream = dataclasses.replace(stream, events=stream.events[:limit])
    check_window(stream, query.window)
    return query, stream


def progress_bar(total: int, description: str):
    """A tqdm bar on stderr when it is a terminal; a no-op otherwise."""
    from tqdm import tqdm

    return tqdm(total=total, desc=description, unit="ev", disable=not sys.stderr.isatty(), leave=False, file=sys.stderr)
