"""``cgpm stats DIR``: what a stream holds, as distinct triples per predicate and per class, its time span and a content hash.

The counting is ``harness.streams.counting.count_stream``, the one ``cgpm stream info`` prints too:
column-wise over the Parquet files a batch at a time, in bounded memory, no Spark. ``triples``
counts the distinct triples the stream inserts, ``rows`` every update row; the time span (first and
last timestamp, and the duration in days, hours, minutes) is what a window is chosen from.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from harness.streams.counting import count_stream, human_duration


def add_parser(subparsers) -> None:
    parser = subparsers.add_parser(
        "stats", help="distinct triples, events, time span, per-predicate and per-class counts of a stream",
        description="Count what a stream directory holds: update rows, events, distinct triples, its time span (first "
        "and last timestamp, to pick a window from), distinct triples per predicate and instances per class, and a "
        "sha256 of its distinct triples. Read a batch at a time: bounded memory whatever the stream's size.")
    parser.add_argument("stream", type=Path, help="stream directory")
    parser.add_argument("--json", action="store_true", help="print JSON (the same counts as cgpm stream info --json)")
    parser.set_defaults(handler=run)


def span_text(counts: dict) -> str:
    if counts["first_ts"] is None:
        return "empty"
    return (f"{counts['first_ts']} .. {counts['last_ts']} ms: {human_duration(counts['span_ms'])} "
            f"({counts['span_ms']:,} ms)")


def run(args: argparse.Namespace) -> int:
    counts = count_stream(args.stream)
    if args.json:
        print(json.dumps(counts, indent=1, ensure_ascii=False))
        return 0
    print(f"{args.stream}: {counts['triples']:,} distinct triples, {counts['rows']:,} rows, {counts['events']:,} events")
    print(f"time span {span_text(counts)}")
    print(f"sha256 {counts['sha256']}")
    for title, per in (("predicates (distinct inserted triples each; cgpm stream info also counts update rows)",
                        counts["predicates"]),
                       ("classes (distinct instances: distinct rdf:type triples each)", counts["classes"])):
        print(f"{title}:")
        for name, count in sorted(per.items(), key=lambda item: -item[1]):
            print(f"  {count:>12,}  {name}")
    return 0
