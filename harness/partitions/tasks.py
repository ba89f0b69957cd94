"""A partition as a Spark task: it runs its ``PartitionRun`` and leaves its whole history in one file, or no file at all.

The history is JSON Lines, one record per changed instant (``[index, ts, added, removed]``, mappings as
lists of N-Triples terms), written to a hidden temporary name and renamed when complete: the driver, which
reads it only after the job has succeeded, never sees part of one. The task returns its summary (a dict).
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path

from harness.partitions.history import PartitionRun, Record


def history_file(work: str | Path, partition: int) -> Path:
    return Path(work) / f"partition-{partition}.jsonl"


def partition_task(spec: tuple, partition: int) -> dict:
    """Run partition ``partition`` of ``spec`` (engine, plan, stream, options, work directory); its summary."""
    engine, plan, stream, options, work = spec
    target = history_file(work, partition)
    pending = target.with_name(f".{target.name}.part")
    run = PartitionRun(engine, plan, stream, partition, options=options)
    try:
        with open(pending, "w", encoding="utf-8") as out:
            for index, ts, added, removed in run:
                out.write(json.dumps([index, ts, added, removed], ensure_ascii=False, separators=(",", ":")) + "\n")
        os.replace(pending, target)
    finally:
        if pending.exists():
            pending.unlink()
    return run.summary.as_json()


def read_history(path: Path) -> Iterator[Record]:
    """A history file's records, a line at a time."""
    with open(path, encoding="utf-8") as lines:
        for line in lines:
            index, ts, added, removed = json.loads(line)
            yield index, ts, [tuple(m) for m in added], [tuple(m) for m in removed]
