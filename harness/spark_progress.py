"""While a Spark job runs, the terminal shows the job's own progress (its stages' tasks), polled from a thread.

A command whose work is one long Spark job (``cgpm generate``, ``cgpm verify`` with the Spark
oracle) otherwise shows nothing, or a bar over events that stands still while the job runs and so
predicts hours. ``spark_progress`` polls ``SparkContext.statusTracker()`` every half second and
shows a tqdm bar on stderr (a line every 10 s when it is not a terminal): the tasks completed over the tasks of the stages
seen so far, with the running stage's name. It never starts Spark: with no active SparkContext
(an oracle that does not use Spark) it shows nothing and costs a poll of ``sys.modules``.
"""

from __future__ import annotations

import sys
import threading
from contextlib import contextmanager

POLL_S = 0.5


def _active_context():
    """The running SparkContext, without importing pyspark or starting one."""
    if "pyspark" not in sys.modules:
        return None
    from pyspark import SparkContext

    return SparkContext._active_spark_context


class _Poller:
    def __init__(self, description: str, enabled: bool) -> None:
        self.description = description
        self.enabled = enabled
        self.stages: dict[int, tuple[int, int]] = {}  # stage id -> (tasks, completed), as last seen
        self.bar = None
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True, name="spark-progress")

    def start(self) -> _Poller:
        if self.enabled:
            self._thread.start()
        return self

    def _run(self) -> None:
        while not self._stop.wait(POLL_S):
            try:
                self.poll()
            except Exception:  # noqa: BLE001 (a context starting or stopping under us: the display waits for the next poll)
                continue

    def poll(self) -> tuple[int, int]:
        """Read the active stages once; returns (completed tasks, tasks) over every stage seen."""
        context = _active_context()
        if context is None or getattr(context, "_jsc", None) is None:  # none, or still starting
            return 0, 0
        tracker = context.statusTracker()
        running = []
        for stage_id in tracker.getActiveStageIds():
            info = tracker.getStageInfo(stage_id)
            if info is not None:
                self.stages[stage_id] = (info.numTasks, info.numCompletedTasks)
                running.append(f"stage {stage_id} {info.name.split(' at ')[0]}"[:40])
        total = sum(tasks for tasks, _ in self.stages.values())
        done = sum(completed for _, completed in self.stages.values())
        if running and self.enabled:
            self._show(done, total, ", ".join(running))
        elif self.bar is not None:  # the job ended: its bar goes, so the comparison's is alone on the terminal
            self.bar.close()
            self.bar = None
        return done, total

    def _show(self, done: int, total: int, running: str) -> None:
        from harness.progress_lines import progress_bar

        if self.bar is None:
            self.bar = progress_bar(total, self.description, "task", leave=False)
        self.bar.total = total
        self.bar.n = done
        self.bar.set_postfix_str(running, refresh=False)
        self.bar.refresh()

    def stop(self) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join()
        if self.bar is not None:
            self.bar.close()


@contextmanager
def spark_progress(description: str, enabled: bool | None = None):
    """Show the Spark jobs run inside the ``with`` block as a bar of their tasks on stderr (a line every 10 s when
    stderr is not a terminal: ``harness.progress_lines``)."""
    poller = _Poller(description, True if enabled is None else enabled).start()
    try:
        yield poller
    finally:
        poller.stop()
