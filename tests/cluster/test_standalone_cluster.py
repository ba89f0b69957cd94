"""The tool runs on a real Spark standalone cluster: generate, a small bench, the Spark oracle and a partitioned verify against its spark:// URL.

The cluster is the one a user starts: ``cgpm cluster`` (a master and two one-core workers on
127.0.0.1), run as a child process for this module only, its URL read from its stdout, and stopped
with SIGTERM even when a step fails; stopping must exit 0 and leave the master's port closed. Each
step is the command line a user types, run in its own process; the project's code reaches the
executors only through the zip the session ships (``harness.spark.ship_project``), since the
workers' directories hold no copy of it.
Marked ``cluster`` (deselect with ``-m "not cluster"``); about a minute and a half on an idle machine.
"""

from __future__ import annotations

import json
import signal
import socket
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit

import pandas as pd
import pytest

ROOT = Path(__file__).resolve().parents[2]
QUERY = ROOT / "generators" / "taxi" / "queries" / "Q1_star_complex.rq"
pytestmark = [pytest.mark.cluster, pytest.mark.spark]


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    directory = tmp_path_factory.mktemp("spark-cluster")
    stderr = tmp_path_factory.mktemp("spark-cluster-stderr") / "cluster.err"  # the cluster's directory must start empty
    with stderr.open("w") as errors:
        process = subprocess.Popen([sys.executable, "-m", "harness", "cluster", "--workers", "2", "--port", "0",
                                    "--dir", str(directory)], cwd=ROOT, stdout=subprocess.PIPE, stderr=errors, text=True)
        try:
            url = process.stdout.readline().strip()
            assert url.startswith("spark://"), f"cgpm cluster printed {url!r}:\n{stderr.read_text()}"
            yield url, directory
        finally:
            process.send_signal(signal.SIGTERM)
            status = process.wait(timeout=120)
    assert status == 0, stderr.read_text()
    where = urlsplit(url)
    with socket.socket() as probe:  # every daemon stopped: nothing listens on the master's port
        assert probe.connect_ex((where.hostname, where.port)) != 0


def cgpm(*arguments: str, timeout: float = 600) -> subprocess.CompletedProcess:
    result = subprocess.run([sys.executable, "-m", "harness", *arguments], cwd=ROOT, capture_output=True, text=True,
                            timeout=timeout)
    assert result.returncode == 0, f"cgpm {' '.join(arguments)} exited {result.returncode}:\n{result.stderr[-3000:]}"
    return result


def test_generate_bench_and_verify_on_a_standalone_cluster(cluster, tmp_path):
    url, directory = cluster
    stream_uri = (tmp_path / "taxi").as_uri()  # file:// — written by the executors through Spark's writer
    cgpm("generate", "taxi", "--scale", "300", "--events-of", "6", "--option", "block=75", "--partitions", "4", "--master", url,
         "--out", stream_uri, "--json")
    parts = sorted(p.name for p in (tmp_path / "taxi" / "events").iterdir() if p.name.startswith("part-"))
    assert len(parts) == 4

    verdict = json.loads(cgpm("verify", "--engine", "reeval", "--stream", stream_uri, "--query", str(QUERY),
                              "--window", "sliding:20min:5min", "--oracle", "spark", "--master", url, "--json").stdout)
    assert verdict["agrees"] and verdict["oracle"] == "spark"
    assert verdict["checkpoints"] == verdict["events"] > 100

    # split by ?trip into 3 partitions, each a task on the cluster's executors, merged here: the same verdict
    split = json.loads(cgpm("verify", "--engine", "spectra", "--stream", stream_uri, "--query", str(QUERY),
                            "--window", "sliding:20min:5min", "--oracle", "spark", "--partitions", "3", "--master", url,
                            "--json").stdout)
    assert split["agrees"] and split["partitions"] == 3 and split["checkpoints"] == verdict["checkpoints"]

    out = tmp_path / "bench"
    cgpm("bench", "--stream", str(tmp_path / "taxi"), "--query", str(QUERY), "--window", "sliding:20min:5min",
         "--engine", "reeval", "--repetitions", "1", "--max-events", "200", "--timeout", "300", "--rss-hz", "0",
         "--verify", "--oracle", "spark", "--master", url, "--out", str(out))
    run = json.loads((out / "run.json").read_text())
    assert run["status"] == "complete" and run["runner"]["spark_master"] == url
    cells = pd.read_csv(out / "cells.csv")
    assert set(cells["status"]) == {"ok"}, cells.to_string()
    assert list(cells["verdict"].dropna()) == ["agrees"], cells.to_string()

    # every worker ran executors of these applications, so the work really left the driver
    for worker in ("worker0", "worker1"):
        assert list((directory / worker).glob("app-*")), f"{worker} ran no executor"
