"""Each timed cell runs in a fresh Python process, and one that overruns its hard deadline is killed while the run goes on.

Two runners call ``harness.bench.cell.run_task`` in a new process per task:

- ``SparkRunner``: the task is a Spark job of one partition on a session with
  ``spark.python.worker.reuse=false``, so every task gets a newly forked Python worker (from
  PySpark's daemon, which imports only PySpark) that exits after it. Local mode by default; a
  cluster master URL fans the cells out, the stream and query paths must then be readable on the
  executors. A task past its hard deadline is cancelled (its job group), which kills the worker.
- ``ProcessRunner``: a ``multiprocessing`` spawn context, one new interpreter per task; for
  machines without Java and for the tests.

``harness.bench.checkout_runner.CheckoutRunner`` runs a task with another checkout's code (``cgpm regress --against``).

The soft limits (time-out, memory cap) are enforced inside the cell by its sampler; the hard
deadline here is a backstop for a cell stuck in native code.
"""

from __future__ import annotations

import multiprocessing
import signal
import threading
import uuid

from common.errors import EnvironmentProblem
from harness.bench.cell import run_task
from harness.bench.task import CellTask

LOAD_ALLOWANCE_S = 120.0


def hard_deadline_s(task: CellTask) -> float:
    """Seconds the runner waits for a task: twice its time-out per pass, plus time to start and load the stream."""
    passes = 1 + task.warmup if task.kind == "time" else 1
    return 2 * task.timeout_s * passes + LOAD_ALLOWANCE_S


def stopped(status: str, detail: str) -> dict:
    return {"row": {"status": status, "error": detail}, "rss": [], "latency_ns": None}


def _child(task: CellTask, connection) -> None:
    try:
        connection.send(run_task(task))
    finally:
        connection.close()


class ProcessRunner:
    name = "process"
    description = "multiprocessing spawn context, one new interpreter per cell repetition"

    def __init__(self) -> None:
        self._context = multiprocessing.get_context("spawn")

    def run(self, task: CellTask, deadline_s: float | None = None) -> dict:
        deadline_s = hard_deadline_s(task) if deadline_s is None else deadline_s
        receiver, sender = self._context.Pipe(duplex=False)
        process = self._context.Process(target=_child, args=(task, sender), daemon=True)
        process.start()
        sender.close()
        try:
            if receiver.poll(deadline_s):
                try:
                    return receiver.recv()
                except EOFError:
                    process.join(5)
                    return stopped("error", _death(process.exitcode))
            process.kill()
            return stopped("timeout", f"no answer within the hard deadline of {deadline_s:.0f}s; the process was killed")
        finally:
            receiver.close()
            process.join(5)
            if process.is_alive():
                process.kill()
                process.join()

    def close(self) -> None:
        pass


def _death(exitcode: int | None) -> str:
    if exitcode is not None and exitcode < 0:
        name = signal.Signals(-exitcode).name
        hint = " (the kernel's out-of-memory killer sends this)" if -exitcode == signal.SIGKILL else ""
        return f"the cell process died from {name}{hint}"
    return f"the cell process exited with code {exitcode} without a result"


class SparkRunner:
    name = "spark"
    description = "Spark tasks, one partition per cell repetition, spark.python.worker.reuse=false"

    def __init__(self, master: str) -> None:
        from harness.spark import spark_session

        self.master = master
        # no Spark stage lines: cgpm bench draws its own progress bars
        spark = spark_session(master, app_name="cgpm-bench", progress=False,
                              config={"spark.python.worker.reuse": "false", "spark.task.maxFailures": "1"})
        self.context = spark.sparkContext
        reuse = self.context.getConf().get("spark.python.worker.reuse", "true")
        if reuse.lower() != "false":
            raise EnvironmentProblem("the active Spark session reuses Python workers (spark.python.worker.reuse=true); "
                                     "timed cells need a fresh process each: run cgpm bench in its own process")

    def run(self, task: CellTask, deadline_s: float | None = None) -> dict:
        deadline_s = hard_deadline_s(task) if deadline_s is None else deadline_s
        group = f"cgpm-bench-{uuid.uuid4().hex[:12]}"
        cancelled = threading.Event()

        def cancel() -> None:
            cancelled.set()
            self.context.cancelJobGroup(group)

        self.context.setJobGroup(group, f"cgpm bench {task.cell_id} {task.kind} r{task.repetition}",
                                 interruptOnCancel=True)
        timer = threading.Timer(deadline_s, cancel)
        timer.daemon = True
        timer.start()
        try:
            return self.context.parallelize([task], 1).map(run_task).collect()[0]
        except Exception as error:  # Py4J wraps the worker's failure; keep its first line
            if cancelled.is_set():
                return stopped("timeout", f"no answer within the hard deadline of {deadline_s:.0f}s; the Spark task was cancelled")
            return stopped("error", _spark_failure(error))
        finally:
            timer.cancel()

    def close(self) -> None:
        pass


def _spark_failure(error: Exception) -> str:
    text = str(error)
    for line in text.splitlines():
        if "Error" in line or "Exception" in line:
            return f"Spark task failed: {line.strip()[:300]}"
    return f"Spark task failed: {text.splitlines()[0][:300] if text else type(error).__name__}"


def make_runner(name: str, master: str):
    if name != "spark":
        return ProcessRunner()
    try:
        return SparkRunner(master)
    except EnvironmentProblem as problem:
        raise EnvironmentProblem(f"{problem} (or run each cell in a spawned process: --runner process)") from None
