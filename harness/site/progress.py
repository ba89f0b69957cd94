"""Building the site is never silent: a bar on a terminal, else a line at the start, every ``INTERVAL_S`` seconds and at the end.

The build counts its steps (a run's page with its figures, a paper's page, a history's tested steps
and its page, the index, the link check); ``SiteProgress`` is told of each one as it finishes. On a
terminal it is a tqdm bar on stderr; on a pipe or a log file (CI, ``make site > log``) a bar would
be a stream of carriage returns, so it writes a plain line instead, no more often than the interval,
read from an injected clock so a test controls time. ``SiteProgress.silent()`` reports nothing
(``build_site`` called from code).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import TextIO

INTERVAL_S = 10.0


class SiteProgress:
    def __init__(self, stream: TextIO | None = None, *, terminal: bool | None = None,
                 clock: Callable[[], float] = time.monotonic, interval_s: float = INTERVAL_S, enabled: bool = True):
        self.stream = stream if stream is not None else sys.stderr
        self.terminal = enabled and (self.stream.isatty() if terminal is None else terminal)
        self.enabled = enabled
        self.clock, self.interval_s = clock, interval_s
        self.total = self.done = 0
        self.bar = None
        self.started = self.reported = 0.0

    @classmethod
    def silent(cls) -> SiteProgress:
        return cls(enabled=False)

    def start(self, total: int) -> None:
        self.total, self.done = total, 0
        self.started = self.reported = self.clock()
        if self.terminal:
            from tqdm import tqdm

            self.bar = tqdm(total=total, desc="cgpm site", unit="step", file=self.stream, leave=False)
        elif self.enabled:
            self._line(f"{total} steps to build (a page each, the histories' tests, the link check)")

    def advance(self, what: str) -> None:
        """One step finished: ``what`` names it (``run tpjoin--tpjoin-windows``, ``history spectra-table1``)."""
        self.done += 1
        if self.bar is not None:
            self.bar.set_postfix_str(what[:40], refresh=False)
            self.bar.update()
        elif self.enabled and self.clock() - self.reported >= self.interval_s:
            self._line(f"{self.done}/{self.total} steps, last {what}")

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
            self.bar = None
        elif self.enabled and self.total:
            self._line(f"{self.done}/{self.total} steps done")

    def _line(self, text: str) -> None:
        now = self.clock()
        print(f"cgpm site: {text} ({now - self.started:.0f} s)", file=self.stream, flush=True)
        self.reported = now
