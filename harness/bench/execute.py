"""A benchmark run measures every cell of its matrix once per repetition, each in a fresh process, and can be resumed.

Order: repetition rounds (every cell's repetition 0, then every cell's repetition 1, ...), so a
drift in the machine's load spreads over all cells instead of landing on a few; ``parallel``
timed tasks at once (1 by default). A run of several sides (``run_sides``: the code of two commits, say, each
with its own runner and run directory) runs each cell's repetition on every side one right after the other. A cell whose repetition ended ``unsupported``, ``timeout`` or
``memory`` is not repeated. Verification tasks, when asked for, run after the timed ones and
may run in parallel: they time nothing. Each finished task is stored at once (``store.save_part``)
and the cells table rebuilt, so killing the run loses at most the tasks in flight.
"""

from __future__ import annotations

import json
import os
import tempfile
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass, field
from datetime import UTC, datetime
from itertools import chain
from pathlib import Path

from common.errors import ConfigError
from engines.registry import known_engines, load_problem
from harness.bench import run_status, store
from harness.bench.bench_progress import Progress
from harness.bench.cell import run_task
from harness.bench.config import BenchConfig, config_digest_view
from harness.bench.datasets import prepare_streams
from harness.bench.machine import git_info, machine_info, package_versions
from harness.bench.matrix import Cell, engine_class, expand, workload_engines
from harness.bench.task import CellTask
from harness.bench.verify_policy import verified_cells

NOT_REPEATED = ("unsupported", "timeout", "memory")


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def resolve_engines(config: BenchConfig, say=lambda message: None) -> list[str]:
    """The engines named in ``config`` (an unknown or broken one fails before any work), else every one that loads."""
    if config.engines:
        for name in config.engines:
            engine_class(name)
        return list(config.engines)
    problems = {name: load_problem(name) for name in known_engines()}
    for name, problem in problems.items():
        if problem:
            say(f"left out engine {name!r}: {problem}")
    return [name for name, problem in problems.items() if not problem]


def check_out_dir(out: Path, config: BenchConfig) -> dict | None:
    """The stored run.json when ``out`` holds this same run (to resume); None for a new run; ConfigError otherwise."""
    if not out.exists():
        return None
    if not out.is_dir():
        raise ConfigError(f"--out {out} exists and is not a directory")
    if not (out / store.RUN_FILE).exists():
        if any(out.iterdir()):
            raise ConfigError(f"--out {out} already holds files that are not a benchmark run; choose another directory")
        return None
    info = store.read_run_info(out)
    if info.get("status") == run_status.RUNNING and run_status.owner_alive(info.get("owner")):
        raise ConfigError(f"{out} is being written by a bench still running (pid {info['owner']['pid']}); "
                          "wait for it or stop it, or choose another --out")
    if config_digest_view(info["config"]) != config_digest_view(json.loads(json.dumps(config.as_json()))):
        raise ConfigError(f"{out} holds a run of a different configuration; resume it with the same one or choose another --out")
    return info


def _task(kind: str, cell: Cell, repetition, config: BenchConfig, progress_dir: str | None) -> CellTask:
    progress_path = None
    if progress_dir and kind == "time":
        progress_path = os.path.join(progress_dir, f"{cell.cell_id}.r{repetition}")
    return CellTask(
        kind=kind, cell=cell, repetition=repetition, warmup=config.warmup,
        min_time_s=min(config.min_time_s, config.timeout_s / 4), rate=config.rate, rate_lag_s=config.rate_lag_s,
        timeout_s=config.verify_timeout_s if kind == "verify" else config.timeout_s, memory_bytes=config.memory_mb * 2**20, rss_hz=config.rss_hz,
        verify_every=config.verify_every, oracle=config.oracle, progress_path=progress_path,
        noisy_load=config.noisy_load, noisy_steal=config.noisy_steal, spark_master=config.spark_master,
    )


@dataclass
class Side:
    """One code base a run measures: the directory its run goes to, the runner of its tasks (``runners.make_runner``
    for the configuration's by default), and the commit of that code (this process's by default)."""

    out: Path
    runner: object = None
    git: dict | None = None
    run_id: str | None = None  # the out directory's name by default
    done: set = field(default_factory=set)
    stopped: set = field(default_factory=set)  # a repetition ended in NOT_REPEATED: no more of the cell
    unfinished: set = field(default_factory=set)  # a repetition did not finish: the cell is not verified


def _run_info(config: BenchConfig, side: Side, cells: list[Cell], previous: dict | None, argv) -> dict:
    runner = side.runner
    info = {
        "schema_version": store.SCHEMA_VERSION,
        "run_id": side.run_id or side.out.name,
        "created": previous["created"] if previous else now(),
        "resumed": (previous.get("resumed", []) + [now()]) if previous else [],
        "status": run_status.RUNNING,
        "owner": run_status.owner(),  # lets a reader tell a killed bench's "running" from a live one
        "command": list(argv) if argv is not None else None,
        "runner": {"name": runner.name, "description": runner.description,
                   "spark_master": config.spark_master if runner.name == "spark" else None},
        "machine": machine_info(),
        "git": side.git or git_info(),
        "packages": package_versions(),
        "config": config.as_json(),
        "cells": [{"cell_id": cell.cell_id, **cell.as_json()} for cell in cells],
    }
    if previous:
        info["machine_at_start"] = previous.get("machine_at_start", previous.get("machine"))
        # a resumption may run other code (a verify retried with a longer time-out, say): the run keeps both
        info["git_at_start"] = previous.get("git_at_start", previous.get("git"))
    return info


def run_bench(config: BenchConfig, out: str | Path, *, runner=None, argv=None, say=lambda message: None,
              show_progress: bool | None = None) -> Path:
    """Run (or resume) the benchmark ``config`` into ``out``; returns the run directory."""
    return run_sides(config, [Side(Path(out), runner)], argv=argv, say=say, show_progress=show_progress)[0]


def run_sides(config: BenchConfig, sides: list[Side], *, argv=None, say=lambda message: None,
              show_progress: bool | None = None) -> list[Path]:
    """Run (or resume) ``config`` once per side into its own directory, the sides' repetitions of a cell one right
    after the other (which side goes first alternating from cell to cell and round to round), so that every side
    meets the same machine; returns the run directories."""
    from harness.bench.runners import make_runner

    if not config.workloads:
        raise ConfigError("the configuration has no workloads: give [[workloads]] in the file, or --stream and --query")
    if len(sides) > 1 and (config.parallel != 1 or config.verify not in (False, "none")):
        raise ConfigError("a run of several sides times one task at a time and verifies nothing: parallel = 1 and "
                          "verify = \"none\"")
    previous = {}
    for side in sides:
        side.out = side.out.resolve()
        previous[side.out] = check_out_dir(side.out, config)
        stored = (previous[side.out] or {}).get("git", {}).get("commit")
        if side.git is not None and stored is not None and stored != side.git.get("commit"):
            raise ConfigError(f"{side.out} holds a run of commit {stored[:10]}, not of {side.git.get('commit')}: "
                              "choose another --out")
    engines = resolve_engines(config, say)
    workload_engines(config, engines)  # a bad name fails before any stream is generated
    for side in sides:
        side.runner = side.runner or make_runner(config.runner, config.spark_master)
    spark = None
    if any(side.runner.name == "spark" for side in sides):
        from harness.spark import spark_session
        spark = spark_session(config.spark_master)
    generated = prepare_streams(config, spark, say)
    cells = expand(config, engines, generated)
    if len(sides) > 1 and any(cell.partitions for cell in cells):
        raise ConfigError("a run of several sides splits no cell: its merge would be this checkout's code on every side")
    infos = {}
    for side in sides:
        side.done = store.finished_parts(side.out) - _verifies_to_retry(side.out, config.verify_timeout_s)
        if previous[side.out]:
            for partial in side.out.rglob(".*.partial-*"):  # left by a kill mid-write; never read
                partial.unlink(missing_ok=True)
            say(f"resuming {side.out}: {len(side.done)} finished tasks kept")
        infos[side.out] = _run_info(config, side, cells, previous[side.out], argv)
        store.write_json(side.out / store.RUN_FILE, infos[side.out])
    show_progress = True if show_progress is None else show_progress  # a log, not a terminal, gets lines
    try:
        with run_status.terminate_raises(), tempfile.TemporaryDirectory(prefix="cgpm-bench-progress-") as progress_dir:
            _execute(config, sides, cells, progress_dir if show_progress else None)
    except BaseException:
        for side in sides:  # the parts stored so far stay; rerun to resume
            infos[side.out].update(status=run_status.INTERRUPTED, interrupted=now())
            store.write_json(side.out / store.RUN_FILE, infos[side.out])
            store.write_cells(side.out)
        raise
    for side in sides:
        store.write_cells(side.out)
        store.write_series(side.out)
        infos[side.out].update(status="complete", finished=now())
        store.write_json(side.out / store.RUN_FILE, infos[side.out])
    return [side.out for side in sides]


def _execute(config: BenchConfig, sides: list[Side], cells: list[Cell], progress_dir: str | None) -> None:
    for side in sides:
        for cell_id, repetition in side.done:
            if repetition != store.VERIFY_PART:
                status = _stored_status(store.part_path(side.out, cell_id, repetition))
                if status in NOT_REPEATED:
                    side.stopped.add(cell_id)
                if status != "ok":
                    side.unfinished.add(cell_id)
    verify_cells = verified_cells(cells, config.verify)
    pending_timed = sum(1 for side in sides for cell in cells for r in range(config.repetitions)
                        if (cell.cell_id, r) not in side.done)
    pending_verify = sum(1 for side in sides for cell in verify_cells if (cell.cell_id, store.VERIFY_PART) not in
                         side.done and cell.cell_id not in side.unfinished)
    progress = Progress(pending_timed + pending_verify, progress_dir)
    try:
        for repetition in range(config.repetitions):
            tasks = [(side, _task("time", cell, repetition, config, progress_dir))
                     for number, cell in enumerate(cells)
                     for side in (sides if (number + repetition) % 2 == 0 else sides[::-1])
                     if (cell.cell_id, repetition) not in side.done and cell.cell_id not in side.stopped]
            for (side, task), result in _pool(tasks, config.parallel):
                store.save_part(side.out, task.cell.as_json(), task.cell_id, repetition, result)
                store.write_cells(side.out)
                if result["row"].get("status") in NOT_REPEATED:
                    side.stopped.add(task.cell_id)
                if result["row"].get("status") != "ok":
                    side.unfinished.add(task.cell_id)
                progress.task_done(f"r{repetition} {result['row'].get('status')}: {task.cell_id}")
        for side in sides:  # verify is none for several sides (run_sides): one side verifies its cells
            _verify(config, side, verify_cells, progress)
    finally:
        progress.close()


def _verify(config: BenchConfig, side: Side, verify_cells: list[Cell], progress) -> None:
    # a cell whose timed run failed or timed out is not verified: its verdict is its status, and a time-out would recur
    tasks = [_verify_task(cell, config) for cell in verify_cells
             if (cell.cell_id, store.VERIFY_PART) not in side.done and cell.cell_id not in side.unfinished]
    # the Spark oracle needs the driver's session: those cells are checked here, the others in fresh processes
    here = [task for task in tasks if task.oracle == "spark"]
    pooled = _pool([(side, task) for task in tasks if task.oracle != "spark"],
                   max(config.parallel, os.cpu_count() or 1))
    for (_, task), result in chain((((side, task), run_task(task)) for task in here), pooled):
        store.save_part(side.out, task.cell.as_json(), task.cell_id, store.VERIFY_PART, result)
        store.write_cells(side.out)
        progress.task_done(f"verify {result['row'].get('verdict')}: {task.cell_id}")


def _verify_task(cell: Cell, config: BenchConfig) -> CellTask:
    """A verify task with its oracle decided (``auto`` reads the cell's stream to weigh it, harness.oracle_choice)."""
    task = _task("verify", cell, store.VERIFY_PART, config, None)
    if config.oracle == "auto":
        from harness.bench.cell import _load_inputs
        from harness.oracle_choice import choose_oracle
        from harness.verify import checkpoints

        query, stream = _load_inputs(cell)
        task = task.with_oracle(choose_oracle("auto", query, stream, checkpoints(query, stream, config.verify_every)))
    return task


def _verifies_to_retry(run_dir: Path, verify_timeout_s: float) -> set[tuple[str, str]]:
    """Stored verify tasks that passed a shorter time-out than this run's: a resumption with a longer
    ``verify_timeout_s`` checks them again (the timed repetitions are kept)."""
    retry = set()
    for part in Path(run_dir).glob(f"{store.PARTS}/*/{store.VERIFY_PART}.json"):
        row = _stored_row(part)
        if row.get("status") == "timeout" and float(row.get("verify_s") or 0) < verify_timeout_s:
            retry.add((part.parent.name, store.VERIFY_PART))
    return retry


def _stored_row(part: Path) -> dict:
    """A stored part's row; empty when the part cannot be read."""
    try:
        return json.loads(part.read_text(encoding="utf-8"))["row"]
    except (OSError, ValueError, KeyError):
        return {}


def _stored_status(part: Path) -> str | None:
    return _stored_row(part).get("status")


def _run_one(runner, task: CellTask) -> dict:
    """A task's result: a timed repetition of a split cell is run from here (``harness.bench.split_cell``), anything
    else by the runner in a fresh process."""
    if task.is_split:
        from harness.bench.split_cell import run_split_task

        return run_split_task(task, runner)
    return runner.run(task)


def _pool(tasks: list[tuple[Side, CellTask]], parallel: int):
    """((side, task), result) as tasks finish, ``parallel`` at a time, each on its side's runner; results are
    handled in the calling thread only."""
    if parallel <= 1 or len(tasks) <= 1:
        for side, task in tasks:
            yield (side, task), _run_one(side.runner, task)
        return
    with ThreadPoolExecutor(max_workers=parallel) as pool:
        futures = {pool.submit(_run_one, side.runner, task): (side, task) for side, task in tasks}
        for future in as_completed(futures):
            yield futures[future], future.result()
