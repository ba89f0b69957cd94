"""``cgpm stats DIR``: what a stream holds, as distinct triples per predicate and per class, with a content hash.

The counts are over the distinct triples the stream inserts (a triple repeated in many events
counts once, as in LUBM's published sizes); ``rows`` counts every update row. ``sha256`` hashes the
distinct triples as byte-sorted N-Triples lines (``<s> <p> <o> .``, ``\\n``-joined with a trailing
newline, the same as ``LC_ALL=C sort -u``), so two streams with the same graph hash the same
however their events are cut. Read with pyarrow in this process (no Spark).
"""

from __future__ import annotations

import argparse
import hashlib
import json
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.dataset as ds

from common.errors import StreamError

RDF_TYPE = "<http://www.w3.org/1999/02/22-rdf-syntax-ns#type>"
_HASH_CHUNK = 1 << 16


def add_parser(subparsers) -> None:
    parser = subparsers.add_parser(
        "stats", help="distinct triples, events, time span, per-predicate and per-class counts of a stream",
        description="Count what a stream directory holds: update rows, events, distinct triples, its time span (first "
        "and last timestamp, to pick a window from), distinct triples per predicate and instances per class, and a "
        "sha256 of its distinct triples. Read a batch at a time: bounded memory whatever the stream's size.")
    parser.add_argument("stream", type=Path, help="stream directory")
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.set_defaults(handler=run)


def read_rows(directory: Path) -> pa.Table:
    """The stream's event rows (event, op, s, p, o); a missing or unreadable directory is a StreamError."""
    if not (directory / "stream.json").is_file():
        raise StreamError(f"{directory} is not a stream directory: no stream.json")
    events = directory / "events"
    if not events.exists() and (directory / "events.parquet").is_file():
        events = directory / "events.parquet"
    try:
        return ds.dataset(events, format="parquet").to_table(columns=["event", "op", "s", "p", "o"])
    except (OSError, pa.ArrowInvalid) as error:
        raise StreamError(f"cannot read the events of {directory}: {error}") from None


def sorted_lines_sha256(lines: pa.Array) -> str:
    """sha256 of the byte-sorted distinct lines, newline-joined with a trailing newline."""
    ordered = pc.take(lines, pc.sort_indices(lines))
    digest = hashlib.sha256()
    for start in range(0, len(ordered), _HASH_CHUNK):
        chunk = ordered.slice(start, _HASH_CHUNK).to_pylist()
        digest.update(("\n".join(chunk) + "\n").encode("utf-8"))
    return digest.hexdigest()


def stream_stats(directory: Path) -> dict:
    rows = read_rows(Path(directory))
    inserted = rows.filter(pc.equal(rows["op"], 1)).select(["s", "p", "o"])
    distinct = inserted.group_by(["s", "p", "o"]).aggregate([])
    predicates = distinct.group_by("p").aggregate([("p", "count")])
    types = distinct.filter(pc.equal(distinct["p"], RDF_TYPE))
    classes = types.group_by("o").aggregate([("o", "count")])
    lines = pc.binary_join_element_wise(distinct["s"], distinct["p"], distinct["o"], pa.scalar("."), " ")
    return {
        "triples": distinct.num_rows,
        "events": pc.count_distinct(rows["event"]).as_py(),
        "rows": rows.num_rows,
        "deletes": rows.num_rows - inserted.num_rows,
        "predicates": dict(sorted(zip(_iris(predicates["p"]), predicates["p_count"].to_pylist()))),
        "classes": dict(sorted(zip(_iris(classes["o"]), classes["o_count"].to_pylist()))),
        "sha256": sorted_lines_sha256(pc.cast(lines.combine_chunks(), pa.string())) if distinct.num_rows else hashlib.sha256(b"").hexdigest(),
    }


def _iris(column) -> list[str]:
    return [term[1:-1] if term.startswith("<") else term for term in column.to_pylist()]


def run(args: argparse.Namespace) -> int:
    stats = stream_stats(args.stream)
    if args.json:
        print(json.dumps(stats, indent=1))
        return 0
    print(f"{args.stream}: {stats['triples']:,} distinct triples, {stats['rows']:,} rows, {stats['events']:,} events")
    print(f"sha256 {stats['sha256']}")
    for title, counts in (("predicates (distinct inserted triples each; cgpm stream info also counts update rows)",
                           stats["predicates"]),
                          ("classes (distinct instances: distinct rdf:type triples each)", stats["classes"])):
        print(f"{title}:")
        for name, count in sorted(counts.items(), key=lambda item: -item[1]):
            print(f"  {count:>12,}  {name}")
    return 0
