"""A partition as a Spark task: it runs its ``PartitionRun`` and leaves its whole history in one file, or no file at all.

The history is JSON Lines, one record per changed instant (``[index, ts, added, removed]``, mappings as
lists of N-Triples terms), written to a hidden temporary name and renamed when complete: the driver, which
reads it only after the job has succeeded, never sees part of one. The task returns its summary (a dict).
"""

from __future__ import annotations

import json
import os
import resource
from collections.abc import Iterator
from pathlib import Path

from harness.partitions.history import PartitionRun, Record


def history_file(work: str | Path, partition: int) -> Path:
    return Path(work) / f"partition-{partition}.jsonl"


def partition_task(spec: tuple, partition: int) -> dict:
    """Run partition ``partition`` of ``spec`` (engine, plan, stream, options, steady state's first event, work
    directory); its summary, with the peak RSS of the worker that ran it (a fresh one unless Spark reuses workers)."""
    engine, plan, stream, options, steady_from, work = spec
    target = history_file(work, partition)
    pending = target.with_name(f".{target.name}.part")
    run = PartitionRun(engine, plan, stream, partition, options=options, steady_from=steady_from)
    try:
        with open(pending, "w", encoding="utf-8") as out:
            for index, ts, added, removed in run:
                out.write(json.dumps([index, ts, added, removed], ensure_ascii=False, separators=(",", ":")) + "\n")
        os.replace(pending, target)
    finally:
        if pending.exists():
            pending.unlink()
    run.summary.rss_peak_bytes = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024  # KiB on Linux
    return run.summary.as_json()


def read_history(path: Path) -> Iterator[Record]:
    """A history file's records, a line at a time."""
    with open(path, encoding="utf-8") as lines:
        for line in lines:
            index, ts, added, removed = json.loads(line)
            yield index, ts, [tuple(m) for m in added], [tuple(m) for m in removed]
