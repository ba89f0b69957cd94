#!/usr/bin/env python3
"""Verify the spark-streaming engine under its profile on LUBM, LSBench and SNB queries, one ``cgpm verify`` each.

Each cell is ``cgpm verify --engine spark-streaming --semantics PROFILE --stream S --query Q --window W --json``
in a fresh process (its own Spark session, on ``--master``), against the rdflib oracle's report stream.
The streams are generated into ``--work`` when missing. Writes ``verdicts.csv`` (one line per cell: the
verdict, the reports, the wall time) and ``table.md`` into ``--out``; the README there says what ran.

    nice python scripts/spark-streaming-verify.py --out results/published/spark-streaming \\
        --work results/runs/spark-streaming [--lubm-scale 10] [--only lubm] [--master spark://...]
"""

from __future__ import annotations

import argparse
import csv
import json
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PROFILES = ROOT / "benchmarks" / "spark_streaming"
LUBM = [f"generators/lubm/queries/L{n}.rq" for n in (2, 5, 4, 6, 7, 1, 3)]  # the two-pattern ones first
LSBENCH = [f"generators/lsbench/queries/Q{n}.rq" for n in range(1, 8)]
SNB = [f"generators/snb/queries/{name}.rq" for name in (
    "IS1_profile", "IS3_friends", "IS5_creator", "IS7_replies", "Q1_star_atomic", "Q2_chain_complex", "Q3_complex")]


def datasets(lubm_scale: int) -> list[dict]:
    """Each dataset: its generate arguments, window, profile file, event limit and queries."""
    return [
        {"name": f"lubm{lubm_scale}", "generate": ["lubm", "--scale", str(lubm_scale), "--seed", "0"],
         "window": "sliding:30s:10s", "profile": PROFILES / "tick-10s.toml", "max_events": 0, "queries": LUBM},
        {"name": "lsbench100", "generate": ["lsbench", "--scale", "100", "--seed", "0", "--option", "stream=all"],
         "window": "sliding:6h:1h", "profile": PROFILES / "tick-1h.toml", "max_events": 1500, "queries": LSBENCH},
        {"name": "snb300", "generate": ["snb", "--scale", "300", "--seed", "0"],
         "window": "sliding:7d:1d", "profile": PROFILES / "tick-1d.toml", "max_events": 1000, "queries": SNB},
    ]


def cgpm(*arguments: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "harness", *arguments], cwd=ROOT, capture_output=True, text=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--work", type=Path, required=True)
    parser.add_argument("--lubm-scale", type=int, default=1)
    parser.add_argument("--only", action="append", help="dataset name prefix (lubm, lsbench, snb); repeatable")
    parser.add_argument("--query", action="append", help="only these query file stems")
    parser.add_argument("--master", default="local[2]")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    args.work.mkdir(parents=True, exist_ok=True)
    verdicts = args.out / "verdicts.csv"
    fields = ["dataset", "query", "window", "profile", "max_events", "master", "exit", "agrees", "reports",
              "expected_reports", "first_divergence", "wall_s", "error"]
    new = not verdicts.exists()
    with verdicts.open("a", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=fields)
        if new:
            writer.writeheader()
        for dataset in datasets(args.lubm_scale):
            if args.only and not any(dataset["name"].startswith(prefix) for prefix in args.only):
                continue
            stream = args.work / dataset["name"]
            if not (stream / "stream.json").exists():
                made = cgpm("generate", *dataset["generate"], "--out", str(stream), "--no-spark")
                if made.returncode:
                    print(made.stderr, file=sys.stderr)
                    return 1
            for query in dataset["queries"]:
                if args.query and Path(query).stem not in args.query:
                    continue
                started = time.perf_counter()
                command = ["verify", "--engine", "spark-streaming", "--semantics", str(dataset["profile"]),
                           "--stream", str(stream), "--query", query, "--window", dataset["window"],
                           "--master", args.master, "--json"]
                if dataset["max_events"]:
                    command += ["--max-events", str(dataset["max_events"])]
                result = cgpm(*command)
                wall = time.perf_counter() - started
                row = {"dataset": dataset["name"], "query": Path(query).stem, "window": dataset["window"],
                       "profile": dataset["profile"].stem, "max_events": dataset["max_events"] or "all",
                       "master": args.master, "exit": result.returncode, "wall_s": f"{wall:.0f}"}
                try:
                    verdict = json.loads(result.stdout.strip().splitlines()[-1])
                    row.update(agrees=verdict["agrees"], reports=verdict["reports"],
                               expected_reports=verdict["expected_reports"],
                               first_divergence=json.dumps(verdict["first_divergence"])[:300]
                               if verdict["first_divergence"] else "")
                except (IndexError, ValueError, KeyError):
                    row["error"] = (result.stderr.strip().splitlines() or [""])[-1][:300]
                writer.writerow(row)
                handle.flush()
                print(" ".join(f"{key}={row.get(key, '')}" for key in ("dataset", "query", "exit", "agrees", "reports",
                                                                       "wall_s", "error")), flush=True)
    write_table(verdicts, args.out / "table.md")
    return 0


def write_table(verdicts: Path, table: Path) -> None:
    with verdicts.open(encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    lines = ["| dataset | query | window | profile | events | master | verdict | reports (oracle's) | wall s |",
             "|---|---|---|---|---|---|---|---|---|"]
    for row in rows:
        verdict = ("exact" if row["agrees"] == "True" else "DIFFERS") if row["agrees"] else f"no verdict: {row['error'][:160]}"
        lines.append(f"| {row['dataset']} | {row['query']} | {row['window']} | {row['profile']} | {row['max_events']} "
                     f"| {row['master']} | {verdict} | {row['reports']} ({row['expected_reports']}) | {row['wall_s']} |")
    table.write_text("\n".join(lines) + "\n", encoding="utf-8")


if __name__ == "__main__":
    sys.exit(main())
