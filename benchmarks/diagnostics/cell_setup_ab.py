"""A bench cell's work outside its timed loop, one checkout against another: seconds and peak RSS, interleaved fresh processes.

Before its timed passes a cell opens the stream, reads its timeline as a few numbers (``facts``) and
finds the steady-state fill point and the rows before it; after them it counts the window's distinct
triples at the end (``window_triples``, the denominator of bytes per window triple). On a paper-scale
stream (4.5*10^7 triples) that is minutes the timed loop does not show. This runs exactly that work
(no engine) in a fresh process per pass with each checkout's code (``--old DIR``, ``--new DIR``, e.g.
``git archive OLD | tar -x -C /tmp/old``), alternating which goes first, ``--rounds`` times; each pass
reports its setup seconds (open, facts, fill point, rows after it), its count seconds, its peak RSS
(``ru_maxrss``) and its results, which must be the same on both sides. It prints the medians and the
per-round ratio old/new of the total with its median and IQR.

    taskset -c 0 nice -n 5 python -m benchmarks.diagnostics.cell_setup_ab --old /tmp/old --new . \\
        --stream results/runs/tpjoin-streams/snb-p30000-message-rate1000 \\
        --query generators/snb/queries/Q1_star.rq --window sliding:10000s:1ms --max-events 693239 --rounds 5
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

import numpy as np

# Run inside the checkout under test (its working directory comes first on sys.path). The older code found the fill
# point and the rows before it in two scans (query_fill_index, rows_before); the newer in one (query_fill_point).
_PASS = """
import json, resource, sys, time
from engines.model.query import load_query
from harness.bench import steady
from harness.streams.event_index import facts_of
from harness.streams.reader import open_stream

path, query_path, window, limit = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]) or None
started = time.perf_counter()
query = load_query(query_path, window=window)
stream = open_stream(path, max_events=limit).checked_against(query.window)
stream.has_deletions
facts = facts_of(stream)
if hasattr(steady, "query_fill_point"):
    point = steady.query_fill_point(stream, query)
    fill, after = (None, 0) if point is None else (point.event, facts.triples - point.rows_before)
else:
    from harness.streams.event_index import rows_before
    fill = steady.query_fill_index(stream, query)
    after = facts.triples - rows_before(stream, fill) if fill is not None else 0
setup_s = time.perf_counter() - started
rss_before_count = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
started = time.perf_counter()
triples = steady.window_triples(stream, query)
count_s = time.perf_counter() - started
print(json.dumps({"setup_s": setup_s, "count_s": count_s, "peak_rss_before_count": rss_before_count,
                  "peak_rss": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024,
                  "results": [facts.events, facts.triples, fill, after, triples]}))
"""


def one_pass(checkout: Path, args) -> dict:
    done = subprocess.run([sys.executable, "-c", _PASS, str(args.stream.resolve()), str(args.query.resolve()),
                           args.window, str(args.max_events)], cwd=checkout, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"cell_setup_ab: the pass in {checkout} failed: {done.stderr.strip().splitlines()[-1]}")
    return json.loads(done.stdout)


def _spread(values) -> dict:
    values = np.asarray(values, dtype=float)
    return {"median": round(float(np.median(values)), 3), "q1": round(float(np.quantile(values, 0.25)), 3),
            "q3": round(float(np.quantile(values, 0.75)), 3)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--old", type=Path, required=True, help="checkout with the older cell setup")
    parser.add_argument("--new", type=Path, required=True, help="checkout with the newer cell setup")
    parser.add_argument("--stream", type=Path, required=True, help="stream directory")
    parser.add_argument("--query", type=Path, required=True, help="query file")
    parser.add_argument("--window", required=True, help="window, e.g. sliding:10000s:1ms")
    parser.add_argument("--max-events", type=int, default=0, help="the cell's max_events (0: the whole stream)")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args(argv)
    for checkout in (args.old, args.new):
        if not (checkout / "harness" / "bench" / "steady.py").is_file():
            parser.error(f"{checkout} is not a cgpm-bench checkout (no harness/bench/steady.py)")
    passes: dict[str, list[dict]] = {"old": [], "new": []}
    for round_number in range(args.rounds):
        order = ("old", "new") if round_number % 2 == 0 else ("new", "old")
        for side in order:
            passes[side].append(one_pass(getattr(args, side), args))
            print(side, json.dumps(passes[side][-1]), file=sys.stderr, flush=True)
    results = {tuple(one["results"]) for side in passes.values() for one in side}
    if len(results) != 1:
        raise SystemExit(f"cell_setup_ab: the two sides disagree: {sorted(results, key=str)}")
    totals = {side: [one["setup_s"] + one["count_s"] for one in runs] for side, runs in passes.items()}
    summary = {"stream": str(args.stream), "window": args.window, "max_events": args.max_events, "rounds": args.rounds,
               "events, triples, fill, triples_after_fill, window_triples": list(results.pop())}
    for side, runs in passes.items():
        summary[side] = {"setup_s": _spread([one["setup_s"] for one in runs]),
                         "count_s": _spread([one["count_s"] for one in runs]), "total_s": _spread(totals[side]),
                         "peak_rss_mb": _spread([one["peak_rss"] / 2**20 for one in runs]),
                         "count_rss_growth_mb": _spread([(one["peak_rss"] - one["peak_rss_before_count"]) / 2**20
                                                         for one in runs])}
    ratios = np.array(totals["old"]) / np.array(totals["new"])
    summary["old_over_new_total"] = {**_spread(ratios), "rounds": [round(float(r), 2) for r in ratios]}
    print(json.dumps(summary, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
