"""A real Spark standalone cluster on this machine for one test session: a master and two workers, on 127.0.0.1 only.

Started from the PySpark installation's own launcher (``bin/spark-class`` with the Master and
Worker classes: a pip-installed PySpark has no ``sbin/start-master.sh``), each worker with one
core and 1 GiB, every daemon's logs and scratch space under a temporary directory, and stopped
(process group killed, by its own id) whatever happened.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import time
import urllib.request
from contextlib import contextmanager
from pathlib import Path

import pyspark

SPARK_HOME = Path(pyspark.__file__).resolve().parent
LOCALHOST = "127.0.0.1"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((LOCALHOST, 0))
        return probe.getsockname()[1]


def _daemon(arguments: list[str], log: Path, scratch: Path) -> subprocess.Popen:
    env = {**os.environ, "SPARK_HOME": str(SPARK_HOME), "SPARK_LOCAL_IP": LOCALHOST, "SPARK_LOCAL_DIRS": str(scratch),
           "SPARK_LOG_DIR": str(scratch), "SPARK_NO_DAEMONIZE": "1"}
    handle = log.open("wb")
    return subprocess.Popen([str(SPARK_HOME / "bin" / "spark-class"), *arguments], stdout=handle, stderr=subprocess.STDOUT,
                            env=env, start_new_session=True)


def _alive_workers(ui_port: int) -> int:
    try:
        with urllib.request.urlopen(f"http://{LOCALHOST}:{ui_port}/json/", timeout=2) as response:
            return int(json.load(response).get("aliveworkers", 0))
    except (OSError, ValueError):
        return 0


def _stop(process: subprocess.Popen) -> None:
    if process.poll() is not None:
        return
    os.killpg(process.pid, signal.SIGTERM)  # its own session: the JVM the launcher started, nothing else
    try:
        process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=10)


@contextmanager
def standalone_cluster(directory: Path, workers: int = 2, start_timeout_s: float = 120.0):
    """Yield the ``spark://127.0.0.1:PORT`` URL of a running cluster; stop every daemon on the way out."""
    port, ui_port = free_port(), free_port()
    processes: list[subprocess.Popen] = []
    try:
        processes.append(_daemon(["org.apache.spark.deploy.master.Master", "--host", LOCALHOST, "--port", str(port),
                                  "--webui-port", str(ui_port)], directory / "master.log", directory))
        url = f"spark://{LOCALHOST}:{port}"
        for number in range(workers):
            work = directory / f"worker{number}"
            work.mkdir()
            processes.append(_daemon(["org.apache.spark.deploy.worker.Worker", url, "--host", LOCALHOST, "--cores", "1",
                                      "--memory", "1g", "--webui-port", str(free_port()), "--work-dir", str(work)],
                                     directory / f"worker{number}.log", work))
        deadline = time.monotonic() + start_timeout_s
        while _alive_workers(ui_port) < workers:
            dead = [p for p in processes if p.poll() is not None]
            if dead or time.monotonic() > deadline:
                logs = "\n".join((directory / name).read_text(errors="replace")[-2000:]
                                 for name in ["master.log"] + [f"worker{n}.log" for n in range(workers)])
                raise RuntimeError(f"the standalone cluster did not come up with {workers} workers:\n{logs}")
            time.sleep(0.5)
        yield url
    finally:
        for process in reversed(processes):
            _stop(process)
