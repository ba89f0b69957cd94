"""One cell, two commits: every measurement is a fresh ``cgpm run`` process of that commit's own code, pinned to one core, interleaved pair by pair, and the run-over-base ratio is given with its 95% interval.

For a bisection over the history (issue 37): ``--base`` and ``--run`` are commits (a detached worktree is added
for each under ``--scratch`` and removed at the end) or existing checkouts. Each pair runs every ``--engine`` once
with each commit, the commit that goes first alternating from pair to pair so that neither always meets the
machine's load first. A measurement is ``python -m harness run --json`` started in the checkout (its working
directory comes first on ``sys.path``, so it imports that checkout: the script checks it; the worktrees, the
check and the pinning are ``harness.bench.checkouts``, which ``cgpm regress --against`` uses too), prefixed by
``taskset -c CORE``; what is kept is the child's CPU time (user + sys, from ``RUSAGE_CHILDREN`` around it: the
whole process, imports and decoding included) and the engine's own figure as the run prints it (``wall_s``, the
timed loop's wall time; ``decode_s`` where the commit measures it apart). Nothing is subtracted: to tell the
engine from the harness, run a reference engine beside it (``--engine scan``): a move that shows on both is the
harness's. ``--gc`` adds the engine's own CPU time (``engine_cpu_s``: inside its per-event ``push``, so decoding
and the harness's loop stay out, whatever the commit's reader), the cyclic collector's share of it
(``engine_gc_s``) and of the whole process (``gc_s``, ``gc.callbacks``): a collection's cost grows with every object
alive, the harness's too. ``--freeze`` takes what is alive when the engine is built out of the collector's reach
(``gc.freeze``), so that a commit whose harness holds the whole stream (before the streaming reader) and one that
reads it batch by batch charge the engine's collections alike; ``--collector-off`` then disables the collector from
the engine's build on, which leaves the engine's work without it (a layout that makes fewer objects wins nothing).

Ratios are run/base per pair; the interval is the t-interval of the mean log ratio (a geometric mean ratio), the
p-value the paired t-test of ``harness.bench.significance``, and the median ratio is given beside them. Both
commits must agree on the answers (added and removed over the stream), else the two do not do the same work.

    taskset -c 0 python -m benchmarks.diagnostics.bisect_engine --base c911e74 --run integ --engine sparkwave \\
        --engine scan --stream /tmp/bsbm-1000-leaf --query generators/bsbm/queries/P1_offer_type.rq \\
        --window sliding:100s:1s --entailment rdfs --pairs 7 --core 1 --freeze
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
from pathlib import Path

import numpy as np
from scipy import stats

from common.errors import CgpmError
from harness.bench import significance
from harness.bench.checkouts import check_origin, checkouts, clean_env, origin_of, pinned

# Run inside the checkout under test (its own harness, the origin told back). The engine that build_engine returns
# has its per-event push timed (CPU time inside push, and of that the cyclic collector's), so decoding and the
# harness's loop stay out; with FREEZE, what is alive when the engine is built (the stream, at a commit that reads
# it whole) leaves the collector's reach, so that a harness holding the stream does not make the engine's
# collections dearer. An engine that batches (feed) is not timed: its calls interleave with the reading.
_PROBED = """
import atexit, gc, json, runpy, sys, time
import harness.engines_setup as setup
clock = time.process_time
spent = {"engine_cpu_s": 0.0, "engine_gc_s": 0.0, "gc_s": 0.0}
state = {"inside": False, "started": 0.0}
def collected(phase, info):
    if phase == "start":
        state["started"] = clock()
    else:
        took = clock() - state["started"]
        spent["gc_s"] += took
        if state["inside"]:
            spent["engine_gc_s"] += took
gc.callbacks.append(collected)
build = setup.build_engine
def timed_push(push):
    def one(event):
        state["inside"], started = True, clock()
        try:
            return push(event)
        finally:
            spent["engine_cpu_s"] += clock() - started
            state["inside"] = False
    return one
def probed_build(*args, **kwargs):
    if FREEZE:
        gc.collect()
        gc.freeze()
    if COLLECTOR_OFF:
        gc.disable()
    engine = build(*args, **kwargs)
    if hasattr(engine, "push") and not hasattr(engine, "feed"):
        engine.push = timed_push(engine.push)
    else:
        spent["engine_cpu_s"] = spent["engine_gc_s"] = None
    return engine
setup.build_engine = probed_build  # before run_cmd imports it by name
atexit.register(lambda: print("BISECT " + json.dumps({**spent, "harness": sys.modules["harness"].__file__}),
                              file=sys.stderr))
sys.argv[0] = "cgpm"
runpy.run_module("harness", run_name="__main__", alter_sys=True)
"""
FIGURES = ("cpu_s", "wall_s", "engine_cpu_s", "engine_gc_s", "gc_s")


def measure(checkout: Path, engine: str, cell: list[str], core: int, probe: str | None) -> dict:
    """One fresh ``cgpm run`` of ``engine`` over the cell in ``checkout``: its CPU time, its printed figures.
    ``probe``: None (plain ``python -m harness``), ``gc`` (push and the collector timed), ``freeze`` (and the stream
    frozen) or ``off`` (frozen, and the collector disabled from the engine's build on)."""
    source = _PROBED.replace("FREEZE", str(probe in ("freeze", "off"))).replace("COLLECTOR_OFF", str(probe == "off"))
    program = ["-m", "harness"] if probe is None else ["-c", source]
    command = pinned([sys.executable, *program, "run", "--engine", engine, *cell, "--json"], core)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(command, cwd=checkout, capture_output=True, text=True, env=clean_env())
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
            probed = json.loads(line[len("BISECT "):])
            origin_of(probed["harness"], checkout)
            figures.update((key, probed[key]) for key in FIGURES if key in probed)
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
    parser.add_argument("--gc", action="store_true", help="also keep the CPU time inside the engine's push and the collector's")
    parser.add_argument("--freeze", action="store_true",
                        help="gc.freeze() what is alive when the engine is built (the whole stream at commits that hold it); implies --gc")
    parser.add_argument("--collector-off", action="store_true",
                        help="--freeze, and gc.disable() from the engine's build on: the engine's work without the collector")
    parser.add_argument("--scratch", type=Path, help="where worktrees for commits go (default: a temporary directory)")
    parser.add_argument("--json", action="store_true", help="print one JSON document instead of lines")
    args = parser.parse_args(argv)
    if args.pairs < significance.MIN_REPETITIONS:
        parser.error(f"--pairs must be at least {significance.MIN_REPETITIONS}")
    cell = ["--stream", str(args.stream.resolve()), "--query", str(args.query.resolve())]
    for flag, value in (("--window", args.window), ("--entailment", args.entailment), ("--max-events", args.max_events)):
        if value is not None:
            cell += [flag, str(value)]
    try:
        with checkouts([args.base, args.run], Path.cwd(), args.scratch) as (base, run):
            sides = {"base": base, "run": run}
            for checkout in sides.values():
                check_origin(checkout)
            report = {"base": args.base, "run": args.run, "cell": cell, "core": args.core, "probe": probe_of(args),
                      "engines": {engine: interleaved(engine, sides, cell, args) for engine in args.engine}}
    except CgpmError as problem:
        raise SystemExit(f"bisect_engine: {problem}") from None
    print(json.dumps(report, indent=1) if args.json else "\n".join(lines_of(report)))
    return 0


def probe_of(args) -> str | None:
    return "off" if args.collector_off else "freeze" if args.freeze else "gc" if args.gc else None


def interleaved(engine: str, sides: dict, cell: list[str], args) -> dict:
    """``args.pairs`` pairs of one engine, the side that goes first alternating; the figures and their ratios."""
    kept: dict[str, list[dict]] = {"base": [], "run": []}
    for pair in range(args.pairs):
        for side in (("base", "run") if pair % 2 == 0 else ("run", "base")):
            kept[side].append(measure(sides[side], engine, cell, args.core, probe_of(args)))
            print(f"# {engine} pair {pair + 1} {side}: {kept[side][-1]}", file=sys.stderr)
    answers = {repr(one["answers"]) for side in kept.values() for one in side}
    result = {"same_answers": len(answers) == 1}
    for figure in FIGURES:
        if all(one.get(figure) is not None for side in kept.values() for one in side):
            base, run = [one[figure] for one in kept["base"]], [one[figure] for one in kept["run"]]
            if min(base + run) <= 0:
                continue  # a figure of 0 (no collection with the collector off) has no ratio
            result[figure] = {"base_median": round(float(np.median(base)), 4),
                              "run_median": round(float(np.median(run)), 4), "run_over_base": ratio_summary(base, run)}
    return result


def lines_of(report: dict) -> list[str]:
    lines = [f"{report['run']} over {report['base']} on {' '.join(report['cell'])}, core {report['core']}"]
    for engine, result in report["engines"].items():
        if not result["same_answers"]:
            lines.append(f"{engine}: THE COMMITS' ANSWERS DIFFER: not the same work")
        for figure in FIGURES:
            if figure in result:
                one, ratio = result[figure], result[figure]["run_over_base"]
                lines.append(f"{engine} {figure}: base {one['base_median']} run {one['run_median']}; ratio median "
                             f"{ratio['median']}, geomean {ratio['geomean']} [95% {ratio['ci95'][0]}-{ratio['ci95'][1]}]"
                             f" p={'n/a' if ratio['p'] is None else format(ratio['p'], '.3g')} over {len(ratio['pairs'])} pairs")
    return lines


if __name__ == "__main__":
    raise SystemExit(main())
