"""Where the partitions run, and nothing else: in this process, or one Spark task each; either way the same histories merged.

``InProcessExecutor`` runs every partition as a lazy ``PartitionRun`` in this process, advanced as the merge
pulls its records (each partition its own pass of the stream): the tests' executor, and the one for a machine
without Java. ``SparkExecutor`` runs one Spark task per partition (``harness.partitions.tasks``): each reads
the stream, runs its engine and writes its history to a file of the run's work directory; the driver then
merges the files, reading each a line at a time. The stream's directory and the work directory must be
reachable from the executors (true on ``local[N]`` and on a standalone cluster on this machine, as for
``cgpm bench`` on a cluster). A failed Spark job, a lost executor among them, is one ``EngineFailure`` line;
the work directory is removed whatever happens (``PartitionedRun.close``).
"""

from __future__ import annotations

import re
import shutil
import tempfile
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from common.errors import EngineFailure
from engines.model.stream import Stream
from harness.partitions.history import PartitionRun, PartitionSummary, Record
from harness.partitions.merge import merge_histories
from harness.partitions.plan import PartitionPlan


@dataclass
class PartitionJob:
    """Everything a partition needs: the engine reference, the plan, the stream (in memory, or opened from a
    directory: both are pickled to the executors) and the engine's options."""

    engine: str | type
    plan: PartitionPlan
    stream: object
    options: dict = field(default_factory=dict)
    steady_from: int | None = None  # the steady state's first event, for each partition's ``steady_s``

    def portable_stream(self):
        """The stream as a task receives it: an opened directory without the driver's cached scans."""
        if isinstance(self.stream, Stream) or not hasattr(self.stream, "limited"):
            return self.stream
        return self.stream.limited(self.stream.max_events)


class PartitionedRun:
    """The partitions' histories, merged on demand; their summaries once the merge has been read to its end."""

    def __init__(self, histories: list[Iterable[Record]], summaries, work: Path | None = None) -> None:
        self.histories = histories
        self._summaries = summaries  # a list, or a callable giving it after the histories are read
        self.work = work

    def merged(self) -> Iterator[Record]:
        return merge_histories(self.histories)

    def summaries(self) -> list[PartitionSummary]:
        return self._summaries() if callable(self._summaries) else self._summaries

    def close(self) -> None:
        if self.work is not None:
            shutil.rmtree(self.work, ignore_errors=True)
            self.work = None


class InProcessExecutor:
    name = "in-process"

    def run(self, job: PartitionJob) -> PartitionedRun:
        runs = [
            PartitionRun(job.engine, job.plan, job.stream, partition, options=job.options, steady_from=job.steady_from)
            for partition in range(job.plan.partitions)
        ]
        return PartitionedRun(runs, lambda: [run.summary for run in runs])


class SparkExecutor:
    name = "spark"

    def __init__(self, master: str | None = None, *, context=None) -> None:
        """On the active session (or a new one on ``master``); ``context`` stands in for a SparkContext in tests."""
        if context is None:
            from harness.spark import spark_session

            context = spark_session(master, app_name="cgpm partitions").sparkContext
        self.context = context
        self.master = master or context.master

    def run(self, job: PartitionJob) -> PartitionedRun:
        from harness.partitions.tasks import history_file, partition_task, read_history

        partitions = job.plan.partitions
        work = Path(tempfile.mkdtemp(prefix="cgpm-partitions-"))
        spec = (job.engine, job.plan, job.portable_stream(), job.options, job.steady_from, str(work))
        try:
            self.context.setJobGroup(f"cgpm-partitions-{work.name}", f"cgpm: {job.plan.describe()}")
            # a failed task is this one line, not the executor's and the scheduler's stack traces on stderr
            _spark_log_level(self.context, "OFF")
            rows = (
                self.context.parallelize(range(partitions), partitions).map(lambda p: partition_task(spec, p)).collect()
            )
        except Exception as error:  # Py4J wraps the executor's failure: keep the line that says what failed
            shutil.rmtree(work, ignore_errors=True)
            raise EngineFailure(f"the partitioned run on {self.master} failed: {failure_line(error)}") from None
        finally:
            _spark_log_level(self.context, "ERROR")  # harness.spark's level
        summaries = [PartitionSummary(**row) for row in sorted(rows, key=lambda row: row["partition"])]
        if [summary.partition for summary in summaries] != list(range(partitions)):
            shutil.rmtree(work, ignore_errors=True)
            raise EngineFailure(
                f"the partitioned run on {self.master} returned partitions "
                f"{[s.partition for s in summaries]}, not 0..{partitions - 1}"
            )
        histories = [read_history(history_file(work, partition)) for partition in range(partitions)]
        return PartitionedRun(histories, summaries, work)


def _spark_log_level(context, level: str) -> None:
    """Spark's own loggers (``org.apache.spark``, which harness.spark's log4j file sets apart from the root) at ``level``."""
    jvm = getattr(context, "_jvm", None)
    if jvm is not None:
        log4j = jvm.org.apache.logging.log4j
        log4j.core.config.Configurator.setLevel("org.apache.spark", getattr(log4j.Level, level))


PYTHON_ERROR = re.compile(r"^[A-Za-z_][\w.]*(Error|Exception|Problem|Failure)\b: ")


def failure_line(error: Exception) -> str:
    """The line of a Spark failure that says what failed: the Python exception a task raised (its traceback's last
    line), else Spark's own reason (a lost executor, an aborted job), else the first line."""
    lines = [line.strip() for line in str(error).splitlines() if line.strip()]
    raised = [line for line in lines if PYTHON_ERROR.match(line) and not line.startswith(("org.", "py4j.", "java."))]
    if raised:
        return raised[-1][:300]
    for line in lines:
        if "SparkException: " in line:
            reason = line.split("SparkException: ", 1)[1]
            reason = reason.split("most recent failure: ", 1)[-1].replace("org.apache.spark.SparkException: ", "")
            return reason.split(" Consider setting", 1)[0][:300]
    return (lines[0] if lines else type(error).__name__)[:300]


def make_executor(name: str, master: str | None = None):
    if name == "in-process":
        return InProcessExecutor()
    if name == "spark":
        return SparkExecutor(master)
    raise ValueError(f"unknown partition executor {name!r}")
