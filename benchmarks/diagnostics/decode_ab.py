"""The stream reader's decoding cost, one checkout against another: CPU seconds per pass, interleaved rounds.

A cell's engine time leaves the reading out (``decode_s`` is measured apart), but a paper-scale pass spends most
of its wall time there: LUBM(150) decodes 20.6M triples a pass, taxi at 10^7 trips 2.4*10^8. This reads the first
``--max-events`` events of a stream with ``open_stream`` in a fresh process per pass, once with each checkout's
code (``--old DIR`` and ``--new DIR``, e.g. a ``git worktree`` at the older commit), alternating which goes first,
``--rounds`` times; it prints each side's triples per CPU second (median) and the per-round ratio new/old with its
median and IQR. CPU time, not wall, so that a busy machine shifts both sides alike.

    git worktree add /tmp/old-reader OLD_COMMIT
    taskset -c 1 python -m benchmarks.diagnostics.decode_ab --old /tmp/old-reader --new . \\
        --stream results/runs/.streams/taxi-scale1000000-seed7-entity --max-events 100000 --rounds 5
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

import numpy as np

# Run inside the checkout under test (its working directory comes first on sys.path): one pass, triples per CPU second.
_PASS = """
import sys, time
from harness.streams.reader import open_stream
source = open_stream(sys.argv[1], max_events=int(sys.argv[2]))
started, triples = time.process_time(), 0
for event in source.events:
    triples += len(event.updates)
print(triples / (time.process_time() - started))
"""


def one_pass(checkout: Path, stream: Path, max_events: int) -> float:
    done = subprocess.run([sys.executable, "-c", _PASS, str(stream.resolve()), str(max_events)], cwd=checkout,
                          capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"decode_ab: the pass in {checkout} failed: {done.stderr.strip().splitlines()[-1]}")
    return float(done.stdout)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--old", type=Path, required=True, help="checkout with the older reader")
    parser.add_argument("--new", type=Path, required=True, help="checkout with the newer reader")
    parser.add_argument("--stream", type=Path, required=True, help="stream directory")
    parser.add_argument("--max-events", type=int, default=100_000)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args(argv)
    for checkout in (args.old, args.new):
        if not (checkout / "harness" / "streams" / "reader.py").is_file():
            parser.error(f"{checkout} is not a cgpm-bench checkout (no harness/streams/reader.py)")
    rates: dict[str, list[float]] = {"old": [], "new": []}
    for round_number in range(args.rounds):
        order = ("old", "new") if round_number % 2 == 0 else ("new", "old")
        for side in order:
            rates[side].append(one_pass(getattr(args, side), args.stream, args.max_events))
    ratios = np.array(rates["new"]) / np.array(rates["old"])
    print(json.dumps({
        "stream": str(args.stream), "max_events": args.max_events, "rounds": args.rounds,
        "old_triples_per_cpu_s": float(np.median(rates["old"])), "new_triples_per_cpu_s": float(np.median(rates["new"])),
        "new_over_old": {"median": float(np.median(ratios)), "q1": float(np.quantile(ratios, 0.25)),
                         "q3": float(np.quantile(ratios, 0.75)), "rounds": [round(float(r), 3) for r in ratios]},
    }, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
