"""``cgpm demo``: the README's main job on embedded defaults; exits 1 if any engine disagrees with the oracle.

It verifies every registered engine that computes answers, on every query of the example
streams shipped in ``harness/examples/`` (each query's own window and entailment), and prints the
verification summary. Engines that cannot run a query say why in the table instead of failing.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from engines.errors import EngineError
from engines.query import load_query
from engines.registry import get_engine, known_engines
from harness.verify import verify

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def add_parser(subparsers) -> None:
    parser = subparsers.add_parser("demo", help="run and verify the engines on the shipped example streams")
    parser.add_argument("--engine", action="append", help="only these engines (repeatable; default: all matchers)")
    parser.set_defaults(handler=run)


def _cases():
    from harness.streams import read_stream

    for stream_dir in sorted(p for p in EXAMPLES.iterdir() if (p / "stream.json").exists()):
        stream = read_stream(stream_dir)
        for query_path in sorted((stream_dir / "queries").glob("*.rq")):
            yield stream_dir.name, stream, load_query(query_path)


def run(args: argparse.Namespace) -> int:
    engines = args.engine or [n for n in known_engines() if get_engine(n).capabilities.matches]
    for name in engines:
        get_engine(name)  # an unknown name fails here, before any work
    rows = []
    print(f"cgpm demo: verifying {', '.join(engines)} against the rdflib oracle at every instant")
    for stream_name, stream, query in _cases():
        for name in engines:
            started = time.perf_counter()
            try:
                result = verify(name, query, stream)
            except EngineError as refusal:
                rows.append((name, stream_name, query.name, query.window.spec(), "-", "-", f"skipped: {refusal}", ""))
                continue
            verdict = "agrees" if result.agrees else f"DISAGREES at event {result.first.event_index}"
            rows.append((name, stream_name, query.name, query.window.spec() + (" +rdfs" if query.entailment == "rdfs" else ""),
                         str(result.events), str(result.checkpoints), verdict, f"{time.perf_counter() - started:.2f}s"))
    header = ("engine", "stream", "query", "window", "events", "checked", "verdict", "time")
    widths = [max(len(str(row[i])) for row in [header, *rows]) for i in range(len(header))]
    for row in [header, tuple("-" * w for w in widths), *rows]:
        print("  ".join(str(cell).ljust(width) for cell, width in zip(row, widths)).rstrip())
    failed = [row for row in rows if row[6].startswith("DISAGREES")]
    print(f"\n{len(rows) - len(failed)} of {len(rows)} runs agree with the oracle" +
          (f"; {len(failed)} disagree (reproduce with cgpm verify)" if failed else ""))
    return 1 if failed else 0
