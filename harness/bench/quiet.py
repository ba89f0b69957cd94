"""A timed cell says whether its machine was quiet: the load average and the CPU time stolen, at its start and its end.

A figure measured while other processes fought for the cores measures them too: the Sparkwave runs published on
2026-11-24 started at load averages of 17 and 22 on 2 CPUs, and their per-round ratios for one claim ranged over
0.42-1.51. So each cell records, at its start and at its end, the one-minute load average and the steal time
(CPU time the hypervisor gave another guest), and is marked ``noisy`` when

- the load average at either end is above ``noisy_load`` per core (default 1.0: more runnable processes than
  cores; the cell's own process counts one, so a cell alone on a 2-core machine reads about 1), or
- the steal time over the cell is above ``noisy_steal`` of its wall time across every core (default 5%).

A claim judged on a noisy cell is ``undecided`` (``harness.claims.judge``). The load average is a one-minute
exponential average, so it lags: that is why both ends are read.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass

import psutil

NOISY_LOAD = 1.0
NOISY_STEAL = 0.05


@dataclass(frozen=True)
class MachineLoad:
    """The machine's load at one moment: the one-minute load average, the steal time so far and the clock."""

    load1: float | None
    steal_s: float | None
    cores: int
    at_s: float

    @classmethod
    def now(cls, clock=time.monotonic) -> MachineLoad:
        load1 = os.getloadavg()[0] if hasattr(os, "getloadavg") else None
        steal = getattr(psutil.cpu_times(), "steal", None)  # Linux only; elsewhere not known
        return cls(load1, steal, psutil.cpu_count(logical=True) or 1, clock())


def load_columns(start: MachineLoad, end: MachineLoad, *, noisy_load: float = NOISY_LOAD,
                 noisy_steal: float = NOISY_STEAL) -> dict:
    """The row's columns: load at both ends, the steal share over the cell, the core count, and ``noisy``."""
    elapsed = max(end.at_s - start.at_s, 1e-9)
    steal_share = None
    if start.steal_s is not None and end.steal_s is not None:
        steal_share = max(0.0, end.steal_s - start.steal_s) / (elapsed * start.cores)
    loads = [load for load in (start.load1, end.load1) if load is not None]
    noisy = bool(any(load > noisy_load * start.cores for load in loads)
                 or (steal_share is not None and steal_share > noisy_steal))
    return {"load_start": start.load1, "load_end": end.load1, "steal_share": steal_share, "cores": start.cores,
            "noisy": noisy}


def noisy_rows(rows) -> list[bool]:
    """Whether each published row was measured on a noisy machine: its ``noisy`` column where it has one (rows
    from before it have none: not known, so not noisy)."""
    if "noisy" not in rows:
        return [False] * len(rows)
    return [str(value).strip().lower() in ("true", "1", "1.0") for value in rows["noisy"]]
