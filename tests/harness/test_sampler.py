"""The RSS sampler's points are consistent: a point's event count was read no later than its time stamp."""

from __future__ import annotations

import threading
import time

import pytest

from harness.bench.sampler import RssSampler

WAIT_BOUND_S = 60.0  # the samples come within milliseconds; a minute only keeps a sampler that never samples from hanging the test


def test_a_points_count_is_read_before_its_stamp():
    # the count callable returns the moment it was called: a point stamped before its count was read would claim
    # work done after its stamp (a pass run while the sampler waited for the GIL)
    sampler = RssSampler(200.0, count=time.perf_counter_ns).start()
    try:
        deadline = time.perf_counter() + WAIT_BOUND_S
        while len(sampler.series) < 5 and time.perf_counter() < deadline:
            time.sleep(0.01)
    finally:
        sampler.stop()
    assert len(sampler.series) >= 5
    assert all(count <= stamp for stamp, _, count in sampler.series)
    assert all(rss > 0 for _, rss, _ in sampler.series)


def test_no_count_gives_none():
    sampler = RssSampler(200.0).start()
    try:
        deadline = time.perf_counter() + WAIT_BOUND_S
        while not sampler.series and time.perf_counter() < deadline:
            time.sleep(0.01)
    finally:
        sampler.stop()
    assert sampler.series and all(count is None for _, _, count in sampler.series)


def test_a_limit_signalled_inside_a_gc_callback_is_signalled_again_not_lost():
    """Hypothesis (and others) register gc callbacks; an exception raised in one is swallowed as unraisable."""
    import gc
    import signal
    import sys

    from harness.bench.sampler import CellLimit, RssSampler

    frames = []

    def callback(phase, info):
        if not frames:
            frames.append(sys._getframe())

    gc.callbacks.append(callback)
    try:
        gc.collect()
        sampler = RssSampler(0)
        sampler._fired = CellLimit("timeout", "passed its time-out")
        sampler._raise_limit(signal.SIGUSR2, frames[0])  # inside the callback: deferred, not raised
        assert sampler._resend
    finally:
        gc.callbacks.remove(callback)
    with pytest.raises(CellLimit):
        sampler._raise_limit(signal.SIGUSR2, sys._getframe())  # in ordinary code: raised


def test_a_limit_swallowed_as_unraisable_is_signalled_again():
    """A limit raised inside a finalizer or weakref callback reaches sys.unraisablehook, not the cell: it is sent again."""
    import sys
    import weakref

    from harness.bench.sampler import CellLimit, RssSampler

    class Target:
        pass

    sampler = RssSampler(0).start()
    try:
        sampler._fired = CellLimit("timeout", "passed its time-out")

        def callback(_reference):
            raise sampler._fired

        target = Target()
        reference = weakref.ref(target, callback)  # noqa: F841 (kept alive so its callback runs)
        del target  # the callback raises; Python reports it as unraisable
        assert sampler._resend
        assert sys.unraisablehook == sampler._unraisable
    finally:
        sampler.stop()
    assert sys.unraisablehook is not sampler._unraisable


def test_a_limit_with_on_limit_interrupts_nothing_and_is_raised_at_the_cells_safe_point():
    # the cell is blocked in a call (here a wait, in the driver a Py4J answer) that on_limit is what ends: the
    # limit must not be raised inside it, only where the cell asks for it
    from harness.bench.sampler import CellLimit
    from tests.harness.clocks import HangClock

    clock, released = HangClock(), threading.Event()
    sampler = RssSampler(0, clock=clock.now_ns, on_limit=released.set).start()
    try:
        sampler.raise_if_fired(7)  # nothing passed yet: a safe point is a no-op
        sampler.arm(60.0)
        clock.hung.set()  # past the time-out from the next sample on, whatever the machine's load
        assert released.wait(WAIT_BOUND_S)  # the blocked call returned normally: no CellLimit raised inside it
        with pytest.raises(CellLimit, match="passed its time-out"):
            sampler.raise_if_fired(8)
        assert sampler.fired.status == "timeout"
    finally:
        sampler.stop()
