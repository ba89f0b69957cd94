"""A bench run's progress shows on stderr as it goes: the tasks done, and the events fed in the running cells."""

from __future__ import annotations

import threading
from pathlib import Path


class Progress:
    """Two bars on stderr: tasks done, and events fed in the running cells (read from their progress files); when
    stderr is not a terminal, a line of each every 10 s (``harness.progress_lines``)."""

    def __init__(self, total: int, directory: str | None):
        from tqdm import tqdm

        from harness.progress_lines import progress_bar

        enabled = directory is not None
        if enabled:
            self.tasks = progress_bar(total, "cells", "cell", position=0)
            self.events = progress_bar(0, "events fed", "ev", position=1, leave=False)
        else:
            self.tasks, self.events = tqdm(disable=True), tqdm(disable=True)
        self.directory = directory
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._poll, daemon=True) if enabled else None
        if self._thread:
            self._thread.start()

    def _poll(self) -> None:
        while not self._stop.wait(0.5):
            done = total = 0
            for path in Path(self.directory).glob("*"):
                try:
                    fed, events = (int(x) for x in path.read_text().split())
                except (OSError, ValueError):
                    continue
                done, total = done + fed, total + events
            self.events.total = total
            self.events.n = done
            self.events.refresh()

    def task_done(self, label: str) -> None:
        # the label leads with the outcome: the cut falls in the cell's id, never in what happened to it
        self.tasks.set_postfix_str(label[:60], refresh=False)
        self.tasks.update(1)

    def close(self) -> None:
        self._stop.set()
        if self._thread:
            self._thread.join()
        self.events.close()
        self.tasks.close()
