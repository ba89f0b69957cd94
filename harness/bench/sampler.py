"""The cell's own RSS is sampled from a thread at a fixed rate, and the cell is stopped once it passes its time-out or memory cap.

The sampler runs in the measured process (psutil on its own pid, as SPECTRA polled /proc), so a
sample costs one ``/proc/self/statm`` read (with ``children=True``, for an external engine, the
RSS is the process's plus its children's, whose own RSS is also kept apart in ``children_series``); it keeps its own CPU time (``cpu_s``) so every cell
states the sampler's overhead beside its wall time. Limits are enforced from the same thread:
when armed and past the deadline or the cap, it signals the main thread once (SIGUSR2), whose
handler raises ``CellLimit``; the runner's hard deadline stops a process that ignores it (a
long call in native code). A cell that must not be interrupted anywhere gives ``on_limit`` instead: a verify
task on the driver's Spark session, where a limit raised inside a Py4J call leaves the gateway's connection with
an answer nobody read, and every later call on that session reads the wrong one (a run's later cells then failed
with ``KeyError: 'm'`` and "SparkSession does not exist in the JVM"). The sampler then calls ``on_limit`` at every sample
from the limit on (it cancels the cell's Spark jobs, so the blocked call returns with an error, and cancels again a
job started after the limit) and the cell raises the limit itself at its safe points (``raise_if_fired``). The time-out is judged on ``clock`` (ns), the machine's monotonic clock unless a test
gives its own, so that a test's verdict on it need not race the machine's load.
"""

from __future__ import annotations

import gc
import os
import signal
import sys
import threading
import time
from collections.abc import Callable

import psutil

LIMIT_SIGNAL = signal.SIGUSR2
WATCH_HZ = 10.0  # limits are checked this often even when no series is kept


def _swallows_exceptions(frame) -> bool:
    """Whether ``frame`` runs inside a garbage-collector callback or a ``__del__``, where an exception is not propagated."""
    callbacks = {getattr(callback, "__code__", None) for callback in gc.callbacks}
    while frame is not None:
        if frame.f_code in callbacks or frame.f_code.co_name == "__del__":
            return True
        frame = frame.f_back
    return False


class CellLimit(BaseException):
    """Raised in the main thread when the cell passed a limit; BaseException so engine code cannot swallow it."""

    def __init__(self, status: str, detail: str):
        super().__init__(detail)
        self.status = status
        self.detail = detail


class RssSampler:
    """Samples RSS at ``hz`` (0: no series) into ``series`` as (perf_counter_ns, rss_bytes, count) and watches the limits.

    ``count`` (when given) is read with each sample: the events processed so far, so memory can be
    drawn against work done rather than wall time; None otherwise. ``clock`` is what the time-out counts on; the
    series and the sampling rate stay on the machine's clock."""

    def __init__(self, hz: float, *, memory_cap_bytes: int | None = None, progress: Callable[[], None] | None = None,
                 progress_every_s: float = 0.5, count: Callable[[], int] | None = None, children: bool = False,
                 clock: Callable[[], int] = time.perf_counter_ns, on_limit: Callable[[], None] | None = None):
        self.hz = hz
        self._on_limit = on_limit
        self.clock = clock
        self.interval = 1.0 / hz if hz > 0 else 1.0 / WATCH_HZ
        self.memory_cap_bytes = memory_cap_bytes
        self.series: list[tuple[int, int, int | None]] = []
        self._count = count
        self.peak = 0
        self.cpu_s = 0.0
        self.children = children
        self.children_peak = 0
        self.children_series: list[tuple[int, int]] = []  # (perf_counter_ns, the children's RSS) with children=True
        self.children_last = 0  # the children's RSS at the latest sample or rss() call
        self.lifetime_s = 0.0
        self._process = psutil.Process(os.getpid())
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._deadline_ns: int | None = None
        self._armed = False
        self._fired: CellLimit | None = None
        self._resend = False
        self._stopping = False
        self._previous_unraisable = sys.unraisablehook
        self._progress = progress
        self._progress_every_ns = int(progress_every_s * 1e9)
        self._thread = threading.Thread(target=self._run, name="cgpm-rss-sampler", daemon=True)
        self._previous_handler = None

    def rss(self) -> int:
        own = self._process.memory_info().rss
        if not self.children:
            return own
        theirs = 0
        for child in self._process.children(recursive=True):
            try:
                theirs += child.memory_info().rss
            except psutil.Error:  # it exited between the listing and the read
                pass
        self.children_peak = max(self.children_peak, theirs)
        self.children_last = theirs
        return own + theirs

    def start(self) -> RssSampler:
        if self._on_limit is None and threading.current_thread() is threading.main_thread():
            self._previous_handler = signal.signal(LIMIT_SIGNAL, self._raise_limit)
            self._previous_unraisable = sys.unraisablehook
            sys.unraisablehook = self._unraisable
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stopping = True  # the cell is over: a limit sent again now must not raise in its clean-up
        self.disarm()
        self._stop.set()
        self._thread.join()
        if self._previous_handler is not None:
            signal.signal(LIMIT_SIGNAL, self._previous_handler)
            sys.unraisablehook = self._previous_unraisable

    def arm(self, timeout_s: float) -> None:
        """Start enforcing the limits: the time-out counts from now."""
        with self._lock:
            self._deadline_ns = self.clock() + int(timeout_s * 1e9)
            self._armed = True

    def disarm(self) -> None:
        with self._lock:
            self._armed = False

    def _raise_limit(self, signum, frame):
        if self._fired is None or self._stopping:
            return
        if _swallows_exceptions(frame):
            # raised here, the limit would be lost (Python reports an exception escaping a gc callback or a
            # __del__ as unraisable and goes on): ask the sampler to signal again at its next sample
            self._resend = True
            return
        raise self._fired

    def _unraisable(self, unraisable) -> None:
        # the limit was raised where Python cannot propagate it (a weakref callback, a finalizer): send it again
        if self._fired is not None and unraisable.exc_value is self._fired:
            self._resend = True
            return
        self._previous_unraisable(unraisable)

    def _fire(self, status: str, detail: str) -> None:
        with self._lock:
            if not self._armed or self._fired is not None:
                return
            self._fired = CellLimit(status, detail)
            self._armed = False
        if self._on_limit is None and self._previous_handler is not None:
            os.kill(os.getpid(), LIMIT_SIGNAL)

    def raise_if_fired(self, *_progress) -> None:
        """A safe point of a cell the sampler does not interrupt (``on_limit``): the limit it passed, raised here.
        Takes and ignores a progress count, so it can be a verification's ``progress`` callback."""
        if self._on_limit is not None and self._fired is not None:
            raise self._fired

    def _run(self) -> None:
        keep_series = self.hz > 0
        last_progress = 0
        started_ns = next_ns = time.perf_counter_ns()
        while not self._stop.is_set():
            # the count is read before the clock: the main thread may run a whole pass while this thread waits for
            # the GIL after the clock, and a point stamped before the loop began must not claim its events
            count = self._count() if keep_series and self._count is not None else None
            now = time.perf_counter_ns()
            rss = self.rss()
            if keep_series:
                self.series.append((now, rss, count))
                if self.children:
                    self.children_series.append((now, self.children_last))
            if rss > self.peak:
                self.peak = rss
            if self._resend:
                self._resend = False
                os.kill(os.getpid(), LIMIT_SIGNAL)
            if self._armed:
                if self.memory_cap_bytes is not None and rss > self.memory_cap_bytes:
                    self._fire("memory", f"RSS {rss / 2**20:.0f} MiB passed the cap of {self.memory_cap_bytes / 2**20:.0f} MiB")
                elif self._deadline_ns is not None and self.clock() > self._deadline_ns:
                    self._fire("timeout", "passed its time-out")
            if self._on_limit is not None and self._fired is not None and not self._stopping:
                # at every sample from the limit on: cancelling Spark jobs stops the running ones only, and the
                # cell may start another before it reaches its next safe point
                self._on_limit()
            if self._progress is not None and now - last_progress >= self._progress_every_ns:
                last_progress = now
                self._progress()
            next_ns += int(self.interval * 1e9)
            self._stop.wait(max(0.0, (next_ns - time.perf_counter_ns()) / 1e9))
        self.cpu_s = time.thread_time()
        self.lifetime_s = (time.perf_counter_ns() - started_ns) / 1e9

    @property
    def fired(self) -> CellLimit | None:
        return self._fired
