"""One cell, two commits: every measurement is a fresh ``cgpm run`` process of that commit's own code, pinned to one core, interleaved pair by pair, and the run-over-base ratio is given with its 95% interval.

For a bisection over the history (issue 37): ``--base`` and ``--run`` are commits (a detached worktree is added
for each under ``--scratch`` and removed at the end) or existing checkouts. Each pair runs every ``--engine`` once
with each commit, the commit that goes first alternating from pair to pair so that neither always meets the
machine's load first. A measurement is ``python -m harness run --json`` started in the checkout (its working
directory comes first on ``sys.path``, so it imports that checkout: the script checks it), prefixed by
``taskset -c CORE``; what is kept is the child's CPU time (user + sys, from ``RUSAGE_CHILDREN`` around it: the
whole process, imports and decoding included) and the engine's own figure as the run prints it (``wall_s``, the
timed loop's wall time; ``decode_s`` where the commit measures it apart). Nothing is subtracted: to tell the
engine from the harness, run a reference engine beside it (``--engine scan``): a move that shows on both is the
harness's. ``--gc`` adds the CPU time spent in CPython's cyclic collector (``gc.callbacks``), the share of a run
that depends on how many objects the harness holds, not on the engine's work alone.

Ratios are run/base per pair; the interval is the t-interval of the mean log ratio (a geometric mean ratio), the
p-value the paired t-test of ``harness.bench.significance``, and the median ratio is given beside them. Both
commits must agree on the answers (added and removed over the stream), else the two do not do the same work.

    taskset -c 0 python -m benchmarks.diagnostics.bisect_engine --base c911e74 --run integ --engine sparkwave \\
        --engine scan --stream /tmp/bsbm-1000-leaf --query generators/bsbm/queries/P1_offer_type.rq \\
        --window sliding:100s:1s --entailment rdfs --pairs 7 --core 1 --gc
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
from scipy import stats

from harness.bench import significance

# Run inside the checkout under test: its harness, with the collector's CPU time kept and the module's origin told.
_WITH_GC = """
import atexit, gc, json, runpy, sys, time
spent, started = [0.0, 0], [0.0]
def timed(phase, info):
    if phase == "start":
        started[0] = time.process_time()
    else:
        spent[0] += time.process_time() - started[0]
        spent[1] += 1
gc.callbacks.append(timed)
atexit.register(lambda: print("BISECT " + json.dumps({"gc_s": spent[0], "collections": spent[1],
                              "harness": sys.modules["harness"].__file__}), file=sys.stderr))
sys.argv[0] = "cgpm"
runpy.run_module("harness", run_name="__main__", alter_sys=True)
"""
_ORIGIN = "import harness; print(harness.__file__)"


def checkout_for(commit: str, scratch: Path, repository: Path, added: list[Path]) -> Path:
    """``commit`` as a directory of code: an existing checkout as it is, else a detached worktree made for it."""
    given = Path(commit)
    if (given / "harness" / "__init__.py").is_file():
        return given.resolve()
    target = scratch / f"bisect-{commit.replace('/', '_')}"
    subprocess.run(["git", "-C", str(repository), "worktree", "add", "--detach", str(target), commit],
                   check=True, capture_output=True, text=True)
    added.append(target)
    return target


def check_origin(checkout: Path) -> None:
    """The checkout's ``python -m`` imports its own harness, not an installed one (an editable install points elsewhere)."""
    origin = subprocess.run([sys.executable, "-c", _ORIGIN], cwd=checkout, capture_output=True, text=True, check=True)
    if not Path(origin.stdout.strip()).resolve().is_relative_to(checkout.resolve()):
        raise SystemExit(f"bisect_engine: in {checkout}, harness is imported from {origin.stdout.strip()}")


def measure(checkout: Path, engine: str, cell: list[str], core: int, with_gc: bool) -> dict:
    """One fresh ``cgpm run`` of ``engine`` over the cell in ``checkout``: its CPU time, its printed figures."""
    program = ["-c", _WITH_GC] if with_gc else ["-m", "harness"]
    command = ["taskset", "-c", str(core), sys.executable, *program, "run", "--engine", engine, *cell, "--json"]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(command, cwd=checkout, capture_output=True, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        tail = (done.stderr.strip().splitlines() or ["no output"])[-1]
        raise SystemExit(f"bisect_engine: {engine} in {checkout} failed: {tail}")
    summary = json.loads(done.stdout.strip().splitlines()[-1])
    figures = {"cpu_s": (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime),
               "wall_s": summary["wall_s"], "decode_s": summary.get("decode_s"),
               "answers": (summary["added"], summary["removed"], summary["answers"])}
    for line in done.stderr.splitlines():
        if line.startswith("BISECT "):
            probe = json.loads(line[len("BISECT "):])
            if not Path(probe["harness"]).resolve().is_relative_to(checkout.resolve()):
                raise SystemExit(f"bisect_engine: in {checkout}, harness came from {probe['harness']}")
            figures["gc_s"] = probe["gc_s"]
    return figures


def ratio_summary(base: list[float], run: list[float]) -> dict:
    """Run/base per pair: the median, the geometric mean with its 95% t-interval, and the paired t-test's p-value."""
    ratios = np.array(run) / np.array(base)
    logs = np.log(ratios)
    mean, spread = logs.mean(), stats.sem(logs) if len(logs) > 1 else np.nan
    low, high = stats.t.interval(0.95, len(logs) - 1, loc=mean, scale=spread) if spread > 0 else (mean, mean)
    tested = significance.sample(dict(enumerate(base)), dict(enumerate(run)), pair=True)
    p = None if isinstance(tested, significance.Refusal) else float(significance.p_values([tested])[0])
    return {"median": round(float(np.median(ratios)), 4), "geomean": round(float(np.exp(mean)), 4),
            "ci95": [round(float(np.exp(low)), 4), round(float(np.exp(high)), 4)], "p": p,
            "pairs": [round(float(r), 4) for r in ratios]}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", required=True, help="the older commit (or a checkout's directory)")
    parser.add_argument("--run", required=True, help="the newer commit (or a checkout's directory)")
    parser.add_argument("--engine", action="append", required=True, help="engine to measure (repeatable: e.g. scan beside it)")
    parser.add_argument("--stream", type=Path, required=True, help="stream directory both commits read")
    parser.add_argument("--query", type=Path, required=True, help="query file (.rq), the same for both commits")
    parser.add_argument("--window", help="window spec (default: the query's own)")
    parser.add_argument("--entailment", choices=("none", "rdfs"))
    parser.add_argument("--max-events", type=int)
    parser.add_argument("--pairs", type=int, default=5, help="interleaved pairs per engine (at least 3)")
    parser.add_argument("--core", type=int, default=1, help="the core every measurement is pinned to")
    parser.add_argument("--gc", action="store_true", help="also keep the cyclic collector's CPU time")
    parser.add_argument("--scratch", type=Path, help="where worktrees for commits go (default: a temporary directory)")
    parser.add_argument("--json", action="store_true", help="print one JSON document instead of lines")
    args = parser.parse_args(argv)
    if args.pairs < significance.MIN_REPETITIONS:
        parser.error(f"--pairs must be at least {significance.MIN_REPETITIONS}")
    cell = ["--stream", str(args.stream.resolve()), "--query", str(args.query.resolve())]
    for flag, value in (("--window", args.window), ("--entailment", args.entailment), ("--max-events", args.max_events)):
        if value is not None:
            cell += [flag, str(value)]
    repository = Path.cwd()
    added: list[Path] = []
    with tempfile.TemporaryDirectory(prefix="bisect-", dir=args.scratch) as scratch:
        try:
            sides = {"base": checkout_for(args.base, Path(scratch), repository, added),
                     "run": checkout_for(args.run, Path(scratch), repository, added)}
            for checkout in sides.values():
                check_origin(checkout)
            report = {"base": args.base, "run": args.run, "cell": cell, "core": args.core,
                      "engines": {engine: interleaved(engine, sides, cell, args) for engine in args.engine}}
        finally:
            for target in added:
                subprocess.run(["git", "-C", str(repository), "worktree", "remove", "--force", str(target)],
                               capture_output=True)
    print(json.dumps(report, indent=1) if args.json else "\n".join(lines_of(report)))
    return 0


def interleaved(engine: str, sides: dict, cell: list[str], args) -> dict:
    """``args.pairs`` pairs of one engine, the side that goes first alternating; the figures and their ratios."""
    kept: dict[str, list[dict]] = {"base": [], "run": []}
    for pair in range(args.pairs):
        for side in (("base", "run") if pair % 2 == 0 else ("run", "base")):
            kept[side].append(measure(sides[side], engine, cell, args.core, args.gc))
            print(f"# {engine} pair {pair + 1} {side}: {kept[side][-1]}", file=sys.stderr)
    answers = {repr(one["answers"]) for side in kept.values() for one in side}
    result = {"same_answers": len(answers) == 1}
    for figure in ("cpu_s", "wall_s", "gc_s"):
        if all(one.get(figure) is not None for side in kept.values() for one in side):
            base, run = [one[figure] for one in kept["base"]], [one[figure] for one in kept["run"]]
            result[figure] = {"base_median": round(float(np.median(base)), 4),
                              "run_median": round(float(np.median(run)), 4), "run_over_base": ratio_summary(base, run)}
    return result


def lines_of(report: dict) -> list[str]:
    lines = [f"{report['run']} over {report['base']} on {' '.join(report['cell'])}, core {report['core']}"]
    for engine, result in report["engines"].items():
        if not result["same_answers"]:
            lines.append(f"{engine}: THE COMMITS' ANSWERS DIFFER: not the same work")
        for figure in ("cpu_s", "wall_s", "gc_s"):
            if figure in result:
                one, ratio = result[figure], result[figure]["run_over_base"]
                lines.append(f"{engine} {figure}: base {one['base_median']} run {one['run_median']}; ratio median "
                             f"{ratio['median']}, geomean {ratio['geomean']} [95% {ratio['ci95'][0]}-{ratio['ci95'][1]}]"
                             f" p={'n/a' if ratio['p'] is None else format(ratio['p'], '.3g')} over {len(ratio['pairs'])} pairs")
    return lines


if __name__ == "__main__":
    raise SystemExit(main())
