#!/usr/bin/env python3
"""The same ``cgpm generate`` and ``cgpm verify --oracle spark`` on local[1] and on standalone clusters of 1 and 2 workers: same output.

Starts two clusters with ``cgpm cluster`` (1 and 2 workers of one core each, both on 127.0.0.1),
then runs each task's command once per master, the masters interleaved within a round: a round of
the first task on every master, then a round of the next. A task whose slowest run of the first round
took under 3 minutes gets 3 rounds, else 1. Each run is the command a user types, in its own
process, timed wall-clock (JVM start and all). A generated stream is summarised by the sha256 of its
event rows in stream order (``event ts op s p o`` lines, tab-separated, over the Parquet parts in
name order): equal digests mean equal streams, whatever the number of partitions Spark wrote.
``verify`` is summarised by its verdict and counts (``--json``). Every run becomes a row of
``OUT/runs.csv``, written as it ends; ``OUT/table.md`` sums the rows up. The clusters are stopped
(SIGTERM) whatever happens.

    taskset -c 0 nice -n 5 python scripts/cluster-demo.py --out results/published/cluster-demo \\
        --work results/runs/cluster-demo
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import json
import re
import shutil
import signal
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

ROOT = Path(__file__).resolve().parents[1]
COLUMNS = ("event", "ts", "op", "s", "p", "o")
MANY_ROUNDS, FEW_ROUNDS_ABOVE_S = 3, 180.0
LUBM10 = "lubm10"  # the first round's local[1] LUBM(10) is the stream every verify run reads
# name -> arguments of `python -m harness`; {out} is a fresh directory per run, {lubm10} the stream above
TASKS = {
    LUBM10: ["generate", "lubm", "--scale", "10", "--seed", "0", "--out", "{out}"],
    "verify-L7": ["verify", "--engine", "tpjoin-lazy", "--stream", "{lubm10}", "--query", "generators/lubm/queries/L7.rq",
                  "--window", "sliding:100s:1s", "--oracle", "spark", "--json"],
    "taxi1e6": ["generate", "taxi", "--scale", "1000000", "--seed", "7", "--out", "{out}"],
}


def events_digest(stream: Path) -> str:
    """sha256 of the stream's rows in order, one ``event\\tts\\top\\ts\\tp\\to\\n`` line each (vectorised, batch-size free)."""
    digest = hashlib.sha256()
    for path in sorted((stream / "events").glob("part-*.parquet")):
        for batch in pq.ParquetFile(path).iter_batches(batch_size=1 << 16, columns=list(COLUMNS)):
            fields = [pc.cast(batch.column(name), pa.string()) for name in COLUMNS]
            lines = pc.binary_join_element_wise(pc.binary_join_element_wise(*fields, "\t"), "", "\n")
            if lines.null_count:
                raise ValueError(f"{path}: a row with a null field")
            offsets = np.frombuffer(lines.buffers()[1], dtype=np.int32)
            start, end = offsets[lines.offset], offsets[lines.offset + len(lines)]
            digest.update(memoryview(lines.buffers()[2])[start:end])
    return digest.hexdigest()


def start_cluster(workers: int, directory: Path) -> tuple[subprocess.Popen, str]:
    errors = (directory.parent / f"{directory.name}.stderr").open("w")
    process = subprocess.Popen([sys.executable, "-m", "harness", "cluster", "--workers", str(workers), "--port", "0",
                                "--dir", str(directory)], cwd=ROOT, stdout=subprocess.PIPE, stderr=errors, text=True)
    url = process.stdout.readline().strip()
    if not url.startswith("spark://"):
        raise SystemExit(f"cgpm cluster --workers {workers} did not start: see {errors.name}")
    return process, url


def _slug(master: str) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "-", master).strip("-")  # Hadoop reads [1] in a path as a glob


def run_once(task: str, master: str, round_number: int, work: Path) -> dict:
    out = work / "streams" / f"{task}-{_slug(master)}-r{round_number}"
    arguments = [part.format(out=out, lubm10=work / "streams" / f"{LUBM10}-{_slug('local[1]')}-r1") for part in TASKS[task]]
    command = [sys.executable, "-m", "harness", *arguments, "--master", master]
    started = time.perf_counter()
    result = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
    wall_s = time.perf_counter() - started
    row = {"task": task, "master": master, "round": round_number, "wall_s": round(wall_s, 1), "exit": result.returncode,
           "command": "cgpm " + " ".join(arguments + ["--master", master]).replace(str(work), "WORK")}
    if result.returncode not in ((0, 1) if arguments[0] == "verify" else (0,)):  # verify exits 1 on a disagreement
        raise SystemExit(f"{row['command']} exited {result.returncode}:\n{result.stderr[-3000:]}")
    if TASKS[task][0] == "generate":
        info = json.loads((out / "stream.json").read_text())
        row.update(triples=info["counts"]["triples"], events=info["counts"]["events"],
                   parts=len(list((out / "events").glob("part-*.parquet"))), output=events_digest(out))
        if not (task == LUBM10 and master == "local[1]" and round_number == 1):
            shutil.rmtree(out)  # only its digest is kept
    else:
        verdict = json.loads(result.stdout)
        row.update(events=verdict["events"], output=f"agrees={verdict['agrees']} checkpoints={verdict['checkpoints']} "
                   f"mismatches={verdict['mismatches']}")
    return row


def _shown(row: dict) -> str:
    if row.get("triples") in (None, ""):
        return row["output"]
    return f"{row['triples']:,} triples, {row['events']:,} events; sha256 {row['output'][:16]}…"


def table(rows: list[dict]) -> str:
    lines = ["| task | master | runs | wall s, median [min–max] | Parquet parts | output |", "|---|---|---:|---|---:|---|"]
    for task in TASKS:
        for master in dict.fromkeys(r["master"] for r in rows if r["task"] == task):
            runs = [r for r in rows if r["task"] == task and r["master"] == master]
            walls = [r["wall_s"] for r in runs]
            spread = f"{statistics.median(walls):.1f} [{min(walls):.1f}–{max(walls):.1f}]" if len(walls) > 1 else f"{walls[0]:.1f}"
            outputs = sorted({_shown(r) for r in runs})
            parts = " / ".join(sorted({str(r.get("parts") or "-") for r in runs}))
            lines.append(f"| {task} | {master} | {len(runs)} | {spread} | {parts} | {' / '.join(outputs)} |")
    return "\n".join(lines) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True, help="folder for runs.csv and table.md")
    parser.add_argument("--work", type=Path, required=True, help="new folder for the clusters and the streams")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    (args.work / "streams").mkdir(parents=True)
    clusters = []
    try:
        clusters = [start_cluster(workers, args.work / f"cluster-{workers}-worker") for workers in (1, 2)]
        masters = ["local[1]"] + [url for _, url in clusters]
        rows: list[dict] = []
        with (args.out / "runs.csv").open("w", newline="") as handle:
            writer = None
            for task in TASKS:
                rounds = 1
                round_number = 0
                while round_number < rounds:
                    round_number += 1
                    for master in masters:
                        row = run_once(task, master, round_number, args.work)
                        row["master"] = {clusters[0][1]: "standalone, 1 worker", clusters[1][1]: "standalone, 2 workers"}.get(
                            master, master)
                        rows.append(row)
                        print(json.dumps(row), flush=True)
                        writer = writer or csv.DictWriter(handle, fieldnames=["task", "master", "round", "wall_s", "exit",
                                                                              "triples", "events", "parts", "output",
                                                                              "command"])
                        if handle.tell() == 0:
                            writer.writeheader()
                        writer.writerow(row)
                        handle.flush()
                    if round_number == 1:
                        slowest = max(r["wall_s"] for r in rows if r["task"] == task)
                        rounds = MANY_ROUNDS if slowest < FEW_ROUNDS_ABOVE_S else 1
        (args.out / "table.md").write_text(table(rows))
    finally:
        for process, _ in clusters:
            process.send_signal(signal.SIGTERM)
            process.wait(timeout=120)
    return 0


if __name__ == "__main__":
    sys.exit(main())
