"""A run says ``running`` only while its bench process lives: a killed bench reads as ``interrupted``.

``cgpm bench`` records in ``run.json`` the process that writes it (``owner``: pid, host and the process's start
time, so a pid the system has since given to another process does not count). On SIGTERM it raises, like
Ctrl-C, so the run is marked ``interrupted`` as it stops; a SIGKILL or a power cut cannot be caught, so every
reader (``store.read_run_info``: the report, a resume; the site) asks ``shown_status``: a ``running`` run whose
owner no longer lives on this host is ``interrupted``. A run recorded on another host, or before owners were
recorded, cannot be checked and keeps what it says.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import threading

import psutil

RUNNING, INTERRUPTED = "running", "interrupted"
START_SLACK_S = 1.0  # create_time is rounded differently by different reads


def owner() -> dict:
    """This process, as ``run.json`` records who writes it."""
    return {"pid": os.getpid(), "host": socket.gethostname(), "started": psutil.Process().create_time()}


def owner_alive(recorded: dict | None, host: str | None = None) -> bool | None:
    """True when the recorded owner still runs, False when it does not, None when this host cannot tell."""
    if not recorded or "pid" not in recorded:
        return None
    if recorded.get("host") != (host or socket.gethostname()):
        return None
    try:
        started = psutil.Process(int(recorded["pid"])).create_time()
    except (psutil.NoSuchProcess, psutil.ZombieProcess, ValueError):
        return False
    except psutil.AccessDenied:
        return True
    return recorded.get("started") is None or abs(started - float(recorded["started"])) <= START_SLACK_S


def shown_status(info: dict, host: str | None = None) -> str:
    """``info``'s status, ``interrupted`` for a run that says ``running`` but whose bench no longer lives."""
    status = info.get("status")
    if status == RUNNING and owner_alive(info.get("owner"), host) is False:
        return INTERRUPTED
    return status


class Terminated(SystemExit):
    """SIGTERM, raised where the bench is so its ``except BaseException`` marks the run interrupted."""


@contextlib.contextmanager
def terminate_raises():
    """Inside: SIGTERM raises ``Terminated`` (exit 143) in the main thread instead of killing the process silently."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def raise_terminated(signum, _frame):
        raise Terminated(128 + signum)

    before = signal.signal(signal.SIGTERM, raise_terminated)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, before)
