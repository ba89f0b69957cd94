"""Engines run as fast on events read batch by batch as on a stream held whole in memory: interleaved rounds in one process.

The streaming reader hands an engine events decoded one batch at a time, with terms shared through a
bounded cache; the materialised path (the harness's only path before) hands it events of a stream
read whole, every term one string. What could differ for the engine is the strings it hashes and
keeps. This measures, per engine and query, the push time of one pass on each path, alternating
which goes first, ``--rounds`` times in one process: the ratio per round (streamed triples/s over
materialised triples/s) with its median and IQR. Decoding is outside both timings, as in a cell.

    taskset -c 1 python -m benchmarks.diagnostics.reader_ab --engine spectra --engine tpjoin-lazy --stream DIR \\
        --query generators/lubm/queries/L1.rq --window sliding:1s:1ms --max-events 4000 --rounds 7
"""

from __future__ import annotations

import argparse
import gc
import json
import sys

import numpy as np

from benchmarks.diagnostics.compact_ab import push_seconds


def compare(engine: str, query, source, rounds: int) -> dict:
    """``rounds`` interleaved pairs of passes; the per-round ratio streamed/materialised of triples per second."""
    from harness.engines_setup import engine_class_for

    engine_cls = engine_class_for(engine, query, source)
    whole = source.materialise()
    triples = whole.triple_count
    ratios, streamed, held = [], [], []
    for round_number in range(rounds):
        order = ("stream", "memory") if round_number % 2 == 0 else ("memory", "stream")
        seconds = {}
        for path in order:
            gc.collect()
            events = iter(source.events) if path == "stream" else whole.events
            seconds[path] = push_seconds(engine_cls, query, whole, events)
        streamed.append(triples / seconds["stream"])
        held.append(triples / seconds["memory"])
        ratios.append(seconds["memory"] / seconds["stream"])
    quartiles = np.percentile(ratios, [25, 50, 75])
    return {"engine": engine_cls.name, "query": query.name, "window": query.window.spec(), "triples": triples,
            "rounds": rounds, "ratio_median": float(quartiles[1]), "ratio_q1": float(quartiles[0]),
            "ratio_q3": float(quartiles[2]), "streamed_triples_per_s": float(np.median(streamed)),
            "materialised_triples_per_s": float(np.median(held)), "ratios": ratios}


def main(argv: list[str] | None = None) -> int:
    from engines.model.query import load_query
    from engines.model.windows import parse_window
    from harness.streams.reader import open_stream

    parser = argparse.ArgumentParser(prog="python -m benchmarks.diagnostics.reader_ab", description=__doc__.split("\n\n")[0])
    parser.add_argument("--engine", action="append", required=True)
    parser.add_argument("--stream", required=True)
    parser.add_argument("--query", action="append", required=True)
    parser.add_argument("--window")
    parser.add_argument("--max-events", type=int)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--out", help="also write the results as JSON Lines here")
    args = parser.parse_args(argv)
    source = open_stream(args.stream, max_events=args.max_events)
    window = parse_window(args.window) if args.window else None
    rows = []
    for query_path in args.query:
        query = load_query(query_path, window=window)
        checked = source.checked_against(query.window)
        for engine in args.engine:
            row = compare(engine, query, checked, args.rounds)
            rows.append(row)
            print(f"{row['engine']:<14} {row['query']:<6} {row['window']:<18} streamed/materialised "
                  f"{row['ratio_median']:.3f} [{row['ratio_q1']:.3f}-{row['ratio_q3']:.3f}] over {row['rounds']} rounds "
                  f"({row['streamed_triples_per_s']:,.0f} vs {row['materialised_triples_per_s']:,.0f} triples/s)",
                  flush=True)
    if args.out:
        with open(args.out, "w", encoding="utf-8") as handle:
            for row in rows:
                handle.write(json.dumps(row) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
