"""What a result was measured on: the machine (psutil, platform), the code's commit and the package versions."""

from __future__ import annotations

import os
import platform
import subprocess
import sys
from importlib import metadata
from pathlib import Path

import psutil

PACKAGES = ("cgpm-bench", "pyspark", "pyarrow", "pandas", "numpy", "rdflib", "owlrl", "pyoxigraph", "psutil", "scipy")
REPOSITORY = Path(__file__).resolve().parents[2]


def machine_info() -> dict:
    frequency = psutil.cpu_freq()
    memory = psutil.virtual_memory()
    return {
        "hostname": platform.node(),
        "platform": platform.platform(),
        "machine": platform.machine(),
        "processor": platform.processor() or _cpu_model(),
        "cpus_logical": psutil.cpu_count(logical=True),
        "cpus_physical": psutil.cpu_count(logical=False),
        "cpu_mhz_max": frequency.max if frequency else None,
        "memory_bytes": memory.total,
        "memory_available_bytes": memory.available,
        "load_average": list(os.getloadavg()) if hasattr(os, "getloadavg") else None,
        "python": sys.version.split()[0],
        "python_implementation": platform.python_implementation(),
    }


def _cpu_model() -> str | None:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        return None
    return None


NOT_CODE = ("results", "docs")


def git_info(directory: Path = REPOSITORY) -> dict:
    """The commit of the code that ran, and whether the working tree had changes to it (read-only git calls).

    Changes under ``results/`` and ``docs/`` do not count: they change no figure, and a bench appends to the history
    itself, so every run after the first of a checkout would otherwise say its numbers may not be reproducible."""
    def git(*args: str) -> str | None:
        try:
            result = subprocess.run(["git", "-C", str(directory), *args], capture_output=True, text=True, timeout=20)
        except (OSError, subprocess.TimeoutExpired):
            return None
        return result.stdout.strip() if result.returncode == 0 else None

    commit = git("rev-parse", "HEAD")
    status = git("status", "--porcelain", "--untracked-files=no", "--", ".", *(f":(exclude){path}" for path in NOT_CODE)) \
        if commit else None
    return {"commit": commit, "dirty": bool(status) if status is not None else None, "branch": git("rev-parse", "--abbrev-ref", "HEAD")}


def package_versions(names=PACKAGES) -> dict:
    versions = {}
    for name in names:
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            versions[name] = None
    return versions


def machine_label(machine: dict) -> str:
    """The machine as history keys it: host name, processor and logical CPUs (runs on one host compare)."""
    return f"{machine.get('hostname') or 'unknown'} ({machine.get('processor') or 'unknown processor'}, " \
           f"{machine.get('cpus_logical') or '?'} CPUs)"
