"""A Spark standalone cluster on this machine (master and workers on 127.0.0.1) whose every daemon is stopped on the way out.

Started from the PySpark installation's own launcher (``bin/spark-class`` with the Master and
Worker classes: a pip-installed PySpark has no ``sbin/start-master.sh``), each daemon in its own
process session with its log and scratch space under one directory, and stopped (that session's
process group, by its own id) whatever happened. ``cgpm cluster`` holds one for a user until
interrupted; the cluster tests (``tests/cluster/``) start one the same way. A cluster of several
machines is Spark's own business (its ``sbin/`` scripts); this one shows that the commands taking
``--master`` run on a real one.
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
from dataclasses import dataclass
from pathlib import Path

from common.errors import ConfigError, EnvironmentProblem

LOCALHOST = "127.0.0.1"
SPARK_PORT = 7077  # the standalone master's customary port


@dataclass(frozen=True)
class RunningCluster:
    url: str  # spark://127.0.0.1:PORT, what --master takes
    web_ui: str  # the master's status page
    workers: int
    directory: Path  # logs (master.log, workerN.log) and each worker's work directory


def spark_home() -> Path:
    import pyspark

    return Path(pyspark.__file__).resolve().parent


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((LOCALHOST, 0))
        return probe.getsockname()[1]


def _check_port_free(port: int) -> None:
    # the master would silently move to the next free port (spark.port.maxRetries): refuse instead
    with socket.socket() as probe:
        try:
            probe.bind((LOCALHOST, port))
        except OSError:
            raise ConfigError(f"port {port} on {LOCALHOST} is in use (another master?): give --port 0 for a free one") from None


def _daemon(arguments: list[str], log: Path, scratch: Path) -> subprocess.Popen:
    home = spark_home()
    env = {**os.environ, "SPARK_HOME": str(home), "SPARK_LOCAL_IP": LOCALHOST, "SPARK_LOCAL_DIRS": str(scratch),
           "SPARK_LOG_DIR": str(scratch), "SPARK_NO_DAEMONIZE": "1"}
    with log.open("wb") as handle:
        return subprocess.Popen([str(home / "bin" / "spark-class"), *arguments], stdout=handle, stderr=subprocess.STDOUT,
                                env=env, start_new_session=True)


def master_status(web_ui: str) -> dict:
    """The master's ``/json/`` status (its URL, alive workers, applications), or {} while it does not answer."""
    try:
        with urllib.request.urlopen(f"{web_ui}/json/", timeout=2) as response:
            return json.load(response)
    except (OSError, ValueError):
        return {}


def _stop(process: subprocess.Popen) -> None:
    if process.poll() is not None:
        return
    os.killpg(process.pid, signal.SIGTERM)  # its own session: the JVM the launcher started, nothing else
    try:
        process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=10)


def _check_directory(directory: Path) -> None:
    if directory.exists() and (not directory.is_dir() or any(directory.iterdir())):
        raise ConfigError(f"cluster directory {directory} is not an empty directory: give a new one")
    directory.mkdir(parents=True, exist_ok=True)


@contextmanager
def standalone_cluster(directory: Path, workers: int = 2, *, port: int = 0, cores: int = 1, memory: str = "1g",
                       start_timeout_s: float = 120.0, watch: list[subprocess.Popen] | None = None):
    """Yield a RunningCluster of ``workers`` workers (``cores`` cores and ``memory`` each) once all have registered.

    ``port`` 0 takes a free port. Every daemon is stopped on the way out. ``watch``, when given,
    receives the daemons' processes, so a caller holding the cluster can notice one dying.
    """
    from harness.spark import check_java

    if workers < 1 or cores < 1:
        raise ConfigError(f"a cluster needs at least one worker of at least one core (got {workers} of {cores})")
    if port:
        _check_port_free(port)
    _check_directory(directory)
    check_java()
    port, ui_port = port or free_port(), free_port()
    web_ui = f"http://{LOCALHOST}:{ui_port}"
    processes: list[subprocess.Popen] = [] if watch is None else watch
    try:
        processes.append(_daemon(["org.apache.spark.deploy.master.Master", "--host", LOCALHOST, "--port", str(port),
                                  "--webui-port", str(ui_port)], directory / "master.log", directory))
        url = f"spark://{LOCALHOST}:{port}"
        for number in range(workers):
            work = directory / f"worker{number}"
            work.mkdir()
            processes.append(_daemon(["org.apache.spark.deploy.worker.Worker", url, "--host", LOCALHOST, "--cores", str(cores),
                                      "--memory", memory, "--webui-port", str(free_port()), "--work-dir", str(work)],
                                     directory / f"worker{number}.log", work))
        deadline = time.monotonic() + start_timeout_s
        while (status := master_status(web_ui)).get("aliveworkers", 0) < workers:
            if any(p.poll() is not None for p in processes) or time.monotonic() > deadline:
                raise EnvironmentProblem(f"the standalone cluster did not come up with {workers} workers within "
                                         f"{start_timeout_s:.0f} s; see the logs in {directory}")
            time.sleep(0.5)
        yield RunningCluster(status.get("url", url), web_ui, workers, directory)
    finally:
        for process in reversed(processes):
            _stop(process)
