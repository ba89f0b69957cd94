"""``cgpm cluster``: hold a Spark standalone cluster on this machine until interrupted, its master URL the one line on stdout.

The cluster is ``harness.spark_cluster.standalone_cluster``, the one the cluster tests start. It
runs in the foreground: Ctrl-C or SIGTERM stops every daemon and exits 0, so starting it with ``&``
and stopping it with ``kill`` is the whole life cycle. The URL goes to stdout alone (flushed), so
a script reads it with one ``read``; everything else goes to stderr.
"""

from __future__ import annotations

import argparse
import shutil
import signal
import sys
import tempfile
import time
from pathlib import Path

from common.errors import EnvironmentProblem
from harness.spark_cluster import SPARK_PORT, standalone_cluster


def add_parser(subparsers) -> None:
    parser = subparsers.add_parser(
        "cluster", help="run a Spark standalone cluster on 127.0.0.1 until interrupted; prints its spark:// URL",
        description="Start a Spark standalone master and workers on 127.0.0.1, print the master URL (for --master of "
        "generate, verify and bench) on stdout, and keep them until Ctrl-C or SIGTERM, which stops every daemon. "
        "A demonstration cluster on one machine: the same commands run on a real cluster given its URL.")
    parser.add_argument("--workers", type=int, default=2, help="worker daemons (default 2)")
    parser.add_argument("--cores", type=int, default=1, help="cores each worker offers (default 1)")
    parser.add_argument("--memory", default="1g", help="memory each worker offers to executors (default 1g)")
    parser.add_argument("--port", type=int, default=SPARK_PORT, help=f"master port (default {SPARK_PORT}; 0: a free one)")
    parser.add_argument("--dir", type=Path, help="directory for the daemons' logs and work (new or empty; kept). "
                        "Default: a temporary one, removed when the cluster stops cleanly")
    parser.set_defaults(handler=run)


class _Stopped(Exception):
    """SIGTERM arrived: leave the cluster's context so that its daemons are stopped."""


def _raise_stopped(signum, frame) -> None:
    signal.signal(signal.SIGTERM, signal.SIG_IGN)  # a second SIGTERM must not interrupt the stopping
    raise _Stopped


def run(args: argparse.Namespace) -> int:
    directory = args.dir or Path(tempfile.mkdtemp(prefix="cgpm-cluster-"))
    daemons: list = []
    stopped_cleanly = False
    previous = signal.signal(signal.SIGTERM, _raise_stopped)
    try:
        with standalone_cluster(directory, args.workers, port=args.port, cores=args.cores, memory=args.memory,
                                watch=daemons) as cluster:
            print(cluster.url, flush=True)
            print(f"cgpm cluster: {cluster.url}: {cluster.workers} worker(s) of {args.cores} core(s) and {args.memory}; "
                  f"web UI {cluster.web_ui}; logs in {directory}; Ctrl-C or SIGTERM stops it", file=sys.stderr, flush=True)
            while not (dead := [p for p in daemons if p.poll() is not None]):
                time.sleep(1)
            raise EnvironmentProblem(f"a cluster daemon exited by itself (status {dead[0].returncode}); "
                                     f"see the logs in {directory}")
    except (KeyboardInterrupt, _Stopped):
        stopped_cleanly = True
        print("cgpm cluster: stopped", file=sys.stderr)
        return 0
    finally:
        signal.signal(signal.SIGTERM, previous)
        if args.dir is None and stopped_cleanly:  # after a failure its logs are what the error points to
            shutil.rmtree(directory, ignore_errors=True)
