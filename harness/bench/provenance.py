"""A published folder says, inside it, how to rebuild it: the command, the commit, the machine and how long the run took.

``readme_text(run_info)`` is written as ``README.md`` into every report (and into a published
results folder by ``cgpm report --publish``): read from the run's ``run.json`` alone.
"""

from __future__ import annotations

import shlex
from datetime import datetime
from pathlib import Path


def command_text(argv: list[str] | None) -> str:
    """The command line as a user types it: ``cgpm ...`` whatever path or ``python -m harness`` started it."""
    if not argv:
        return "(not recorded)"
    program = Path(argv[0]).name
    words = list(argv[1:])
    if program in ("cgpm", "__main__.py") or program.startswith("python"):
        if program.startswith("python") and words[:2] == ["-m", "harness"]:
            words = words[2:]
        return "cgpm " + shlex.join(words)
    return shlex.join(argv)


def duration_text(info: dict) -> str:
    """How long the run took, from its start to its last finish (a resumed run: summed over its sittings is unknown)."""
    try:
        started = datetime.fromisoformat(info["created"])
        finished = datetime.fromisoformat(info["finished"])
    except (KeyError, TypeError, ValueError):
        return "unknown (the run did not finish)"
    seconds = (finished - started).total_seconds()
    resumed = info.get("resumed") or []
    text = f"{seconds / 60:.0f} min" if seconds >= 120 else f"{seconds:.0f} s"
    if resumed:
        text += f" from start to finish, resumed {len(resumed)} time(s) (idle time between sittings included)"
    return text


def load_text(machine: dict) -> str:
    """The load average as a reader weighs it: ``11.43, 9.27, 6.09 (1, 5, 15 min) on 2 logical CPUs``."""
    load = machine.get("load_average")
    if not load:
        return "not recorded"
    cpus = machine.get("cpus_logical")
    return (", ".join(f"{float(value):.2f}" for value in load) + " (1, 5, 15 min)"
            + (f" on {cpus} logical CPUs" if cpus else ""))


def machine_text(machine: dict) -> str:
    memory = machine.get("memory_bytes")
    size = f", {memory / 2**30:.0f} GiB" if memory else ""
    load = machine.get("load_average")
    load_text = f"; load average at start {', '.join(f'{value:.1f}' for value in load)}" if load else ""
    return (f"{machine.get('processor') or machine.get('machine') or 'unknown CPU'}, {machine.get('cpus_logical')} "
            f"logical CPUs{size}, {machine.get('platform', '')}, Python {machine.get('python', '?')}{load_text}")


def readme_text(info: dict, *, contents: str = "this folder", run_dir: str | None = None,
                publish_dir: str | None = None, note: str = "") -> str:
    git = info.get("git", {})
    commit = git.get("commit") or "unknown"
    dirty = " (with uncommitted changes: the numbers may not be reproducible from the commit alone)" if git.get("dirty") else ""
    command = command_text(info.get("command"))
    out = run_dir or _out_of(info.get("command")) or "RUN"
    config = info.get("config", {})
    lines = [
        f"# {info.get('run_id')}: how to rebuild {contents}",
        "",
        "```bash",
        f"git checkout {commit[:12]}",
        command,
        f"cgpm report {out}" + (f" --publish {publish_dir}" if publish_dir else ""),
        "```",
        "",
        f"- commit: `{commit}`{dirty}" + _started_at(info, commit),
        f"- machine: {machine_text(info.get('machine', {}))}",
        f"- run: {info.get('created')} to {info.get('finished', '(unfinished)')}, took {duration_text(info)}",
        f"- repetitions {config.get('repetitions')}, " + (
            f"timed loop of at least {config['min_time_s']:g} s per repetition" if "min_time_s" in config
            else "one pass per repetition (run before short cells were repeated)")
        + f", parallel {config.get('parallel')}, runner {info.get('runner', {}).get('name')}",
        "- the machine was shared with other work unless the load average above says otherwise: prefer the ratios "
        "measured side by side in the run to its absolute times",
    ]
    if note:
        lines += ["", note]
    return "\n".join(lines) + "\n"


def _started_at(info: dict, commit: str) -> str:
    """A run resumed with other code says with which it began (its first passes were that code's)."""
    first = (info.get("git_at_start") or {}).get("commit")
    if not first or first == commit:
        return ""
    return f"; resumed with it, begun at `{first}` (the tasks finished before a resumption ran that code)"


def _out_of(argv: list[str] | None) -> str | None:
    if not argv or "--out" not in argv:
        return None
    index = argv.index("--out")
    return argv[index + 1] if index + 1 < len(argv) else None
