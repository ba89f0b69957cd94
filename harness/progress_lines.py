"""Progress is never silent: a bar on a terminal, and when stderr is not one (a log, CI, a pipe), a line every 10 s.

Every long command's progress (``cgpm generate``'s triples, a Spark job's tasks, ``cgpm verify``'s compared
events, ``cgpm bench``'s cells) is made by ``progress_bar``: tqdm on a terminal; otherwise an ``IntervalLog`` with
the few members the callers use (``n``, ``total``, ``update``, ``set_postfix_str``, ``refresh``, ``close``) that
writes ``cgpm: WHAT: DONE/TOTAL UNIT (P%), S s`` to stderr at most once per ``INTERVAL_S``, so a demo that runs
for minutes in a log says what it is doing and how far it got. Its clock is injected (the tests count lines
against a made-up time, never the machine's).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable

INTERVAL_S = 10.0


class IntervalLog:
    """A tqdm stand-in that writes one line of progress per ``interval_s`` of ``clock`` (and one at the end of a
    task that wrote any), nothing in between."""

    def __init__(self, total, description: str, unit: str, *, interval_s: float = INTERVAL_S,
                 clock: Callable[[], float] = time.monotonic, write: Callable[[str], None] | None = None) -> None:
        self.total, self.description, self.unit = total, description, unit
        self.n = 0
        self.postfix = ""
        self.interval_s, self.clock = interval_s, clock
        self.write = write or (lambda line: print(line, file=sys.stderr, flush=True))
        self.started = self.last = clock()
        self.lines = 0

    def line(self) -> str:
        done = f"{self.n:,}/{self.total:,} {self.unit}" if self.total else f"{self.n:,} {self.unit}"
        share = f" ({100 * self.n / self.total:.0f}%)" if self.total else ""
        postfix = f", {self.postfix}" if self.postfix else ""
        return f"cgpm: {self.description}: {done}{share}{postfix}, {self.clock() - self.started:.0f} s"

    def refresh(self) -> None:
        now = self.clock()
        if now - self.last >= self.interval_s:
            self.last = now
            self.lines += 1
            self.write(self.line())

    def update(self, count: int = 1) -> None:
        self.n += count
        self.refresh()

    def set_postfix_str(self, text: str = "", refresh: bool = True) -> None:
        self.postfix = text
        if refresh:
            self.refresh()

    def close(self) -> None:
        if self.lines:  # a task long enough to be logged says where it ended; a short one stays quiet
            self.lines = 0
            self.write(self.line() + ", done")


def following(bar) -> Callable[[int, int], None]:
    """A ``progress(done, total)`` callback (the writers') that moves ``bar`` to ``done`` of ``total``."""
    def advance(done: int, total: int) -> None:
        bar.total = total
        bar.update(done - bar.n)

    return advance


def progress_bar(total, description: str, unit: str, *, terminal: bool | None = None, **bar_options):
    """A tqdm bar on stderr when it is a terminal (``bar_options`` go to tqdm), else an ``IntervalLog``."""
    if sys.stderr.isatty() if terminal is None else terminal:
        from tqdm import tqdm

        return tqdm(total=total, desc=description, unit=unit, file=sys.stderr, **bar_options)
    return IntervalLog(total, description, unit)
