"""One ``cgpm`` command's peak memory: the Python process alone (``ru_maxrss`` of itself), its child processes (a Spark
JVM) apart, sampled by psutil.

Not part of the test run. ``/usr/bin/time -v`` reports the larger of the Python process and the JVM it starts, so
this runs the command in-process instead (from the checkout to measure, so that its ``harness`` is imported)::

    nice -n 10 taskset -c 0 python -c "import runpy, sys; sys.argv[0] = 'peak'; \
        runpy.run_path('benchmarks/diagnostics/command_peak_rss.py', run_name='__main__')" \
        stream export DIR --format nt-events --out F

Prints the command's own output, then one JSON line on stderr: exit code, wall seconds, Python peak RSS (MiB),
children's peak RSS (MiB, the sum of every live descendant at each 100 ms sample; 0 without a JVM).
"""

from __future__ import annotations

import json
import resource
import sys
import threading
import time

import psutil

import harness
from harness.cli import main


def _sample_children(peak: list[int], done: threading.Event) -> None:
    me = psutil.Process()
    while not done.wait(0.1):
        total = 0
        for child in me.children(recursive=True):
            try:
                total += child.memory_info().rss
            except psutil.Error:
                pass  # a child that ended between the listing and the reading
        peak[0] = max(peak[0], total)


if __name__ == "__main__":
    peak, done = [0], threading.Event()
    sampler = threading.Thread(target=_sample_children, args=(peak, done), daemon=True)
    sampler.start()
    started = time.perf_counter()
    try:
        code = main(sys.argv[1:])
    except SystemExit as exit_:
        code = exit_.code
    seconds = time.perf_counter() - started
    done.set()
    sampler.join()
    print(json.dumps({"argv": sys.argv[1:], "harness": harness.__file__, "exit": code, "wall_s": round(seconds, 1),
                      "python_peak_mib": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
                      "children_peak_mib": round(peak[0] / 2**20, 1)}), file=sys.stderr)
    sys.exit(code)
