#!/usr/bin/env python3
"""Mutation score of the engines and the verifier: every mutant mutmut makes is killed, survives, or is listed equivalent.

The tool is mutmut 3 (``pip install -e '.[mutate]'``): it mutates a copy of the sources, runs once with
coverage to learn which tests reach each function, then runs for each mutant only those tests (``-x``),
in forked workers; results stay in the work folder, so a run stopped by ``--time-limit`` resumes where it
stopped. Targets, killing suite, the CI sample and the equivalent mutants are in ``scripts/mutate.toml``.

    scripts/mutate.py run [--targets spectra,delta] [--sample N] [--time-limit S]   # measure (resumable)
    scripts/mutate.py run --per-target 40 [--floor 1]                                # stratified draw per target
    scripts/mutate.py run --survivors [--per-target 60]                              # after new tests: killed now?
    scripts/mutate.py run --targets spark-oracle --own-tests --workdir .mutate-spark  # a target only its own tests reach
    scripts/mutate.py report [--per-target 40] [--survivors]                         # tables per target and module
    scripts/mutate.py quick                                                          # CI: fixed sample, minimum score
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import tomllib
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CONFIG = ROOT / "scripts" / "mutate.toml"
SOURCE_PATHS = ["common", "engines", "generators", "harness", "oracles"]
# mutmut's exit codes, as its stats module reads them; anything else it calls suspicious
STATUS = {1: "killed", 3: "killed", 0: "survived", 5: "no tests", 33: "no tests", 34: "skipped",
          36: "timeout", -24: "timeout", 24: "timeout", 152: "timeout", 255: "timeout", None: "not checked"}
GENERATE = """
import os
from mutmut.__main__ import copy_also_copy_files, copy_src_dir, create_mutants, setup_source_paths
os.makedirs("mutants", exist_ok=True)
copy_src_dir(); copy_also_copy_files(); setup_source_paths(); create_mutants(2)
"""


def load_config() -> dict:
    return tomllib.loads(CONFIG.read_text(encoding="utf-8"))


def target_modules(config: dict, names: list[str]) -> dict[str, list[str]]:
    """Target -> its module files (relative paths); a glob matching nothing is said, not silently dropped."""
    chosen = {}
    for name in names:
        if name not in config["targets"]:
            sys.exit(f"mutate: unknown target {name!r} (known: {', '.join(config['targets'])})")
        files = []
        for pattern in config["targets"][name]["modules"]:
            excluded = set(config["targets"][name].get("exclude", []))
            matched = sorted(str(p.relative_to(ROOT)) for p in ROOT.glob(pattern)
                             if p.name != "__init__.py" and str(p.relative_to(ROOT)) not in excluded)
            if not matched:
                print(f"mutate: {name}: {pattern} matches no file here", file=sys.stderr)
            files += matched
        chosen[name] = files
    return chosen


def quick_targets(config: dict) -> list[str]:
    """The targets CI's quick sample draws from: all but those run apart on their own tests (``quick = false``)."""
    return [name for name, target in config["targets"].items() if target.get("quick", True)]


def killing_suite(config: dict, base: list[str] | None = None, targets: list[str] | None = None) -> list[str]:
    tests = list(config["suite"]["tests"] if base is None else base)
    for name, target in config["targets"].items():
        if targets is None or name in targets:
            tests += target.get("tests", [])
    return [t for t in dict.fromkeys(tests) if (ROOT / t).exists()]


def prepare(workdir: Path, config: dict, modules: list[str], tests: list[str]) -> None:
    """Copy the repository's files into ``workdir`` (mtimes kept, so unchanged mutants keep their results)."""
    listed = subprocess.run(["git", "ls-files", "-co", "--exclude-standard", "-z"], cwd=ROOT, check=True,
                            capture_output=True).stdout.decode().split("\0")
    for name in filter(None, listed):
        source, target = ROOT / name, workdir / name
        # benchmarks/ stays: tests read engine descriptors from it (benchmarks/external/*.toml)
        if not source.is_file() or name.startswith("results/"):
            continue
        if target.exists() and target.stat().st_mtime == source.stat().st_mtime:
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(source, target)
    for module in modules:
        # a plain copy left by a run that did not mutate this module would pass for its mutants: regenerate it
        copy = workdir / "mutants" / module
        if copy.is_file() and copy.read_bytes() == (ROOT / module).read_bytes():
            copy.unlink()
    quoted = lambda items: "[" + ", ".join(json.dumps(i) for i in items) + "]"  # noqa: E731
    settings = (f"\n[tool.mutmut]\nsource_paths = {quoted(SOURCE_PATHS)}\nonly_mutate = {quoted(modules)}\n"
                f"pytest_add_cli_args_test_selection = {quoted(tests)}\n"
                # tests read engine descriptors from benchmarks/external/ and worked examples from DESIGN.md and
                # docs/ (mutmut copies only sources and tests)
                'also_copy = ["benchmarks", "DESIGN.md", "README.md", "docs"]\n'
                'pytest_add_cli_args = ["-p", "no:cacheprovider", "-p", "no:benchmark"]\n'
                # a mutant's CPU limit is (its tests' time + 1 s) x multiplier x 2; mutmut's default 15 gives a
                # looping mutant half an hour of a shared core, 3 still leaves six times what its tests take
                "timeout_multiplier = 3.0\n"
                "use_git_change_detection = false\n")
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    (workdir / "pyproject.toml").write_text(pyproject + settings, encoding="utf-8")


def mutmut(workdir: Path, config: dict, args: list[str], time_limit: float | None = None) -> int:
    env = os.environ | {"HYPOTHESIS_PROFILE": config["suite"]["hypothesis_profile"], "PYTHONDONTWRITEBYTECODE": "1"}
    command = [sys.executable, "-m", "mutmut", *args] if args else [sys.executable, "-c", GENERATE]
    # a run's progress lines are noise, but when it fails (its baseline test run, say) the reason is in them
    with tempfile.TemporaryFile("w+", encoding="utf-8", errors="replace") as output:
        process = subprocess.Popen(command, cwd=workdir, env=env, stdout=output if args else None,
                                   stderr=subprocess.STDOUT if args else None, start_new_session=True)
        try:
            status = process.wait(timeout=time_limit)
        except subprocess.TimeoutExpired:
            # mutmut stops its workers on an interrupt and keeps every result it has
            os.killpg(process.pid, signal.SIGINT)
            try:
                status = process.wait(timeout=120)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                status = process.wait()
        if args and status not in (0, -signal.SIGINT):
            output.seek(0)
            tail = [line for line in output.read().splitlines() if line.strip()][-8:]
            print(f"mutmut {args[0]} exited {status}; its last lines:", *tail, sep="\n  ", file=sys.stderr)
    return status


def results(workdir: Path, modules: list[str]) -> dict[str, dict[str, int | None]]:
    """Module -> mutant name -> mutmut exit code (None: not run yet)."""
    found = {}
    for module in modules:
        meta = workdir / "mutants" / (module + ".meta")
        found[module] = json.loads(meta.read_text())["exit_code_by_key"] if meta.is_file() else {}
    return found


def sample(names: list[str], count: int, seed: int | str) -> list[str]:
    names = sorted(names)
    return names if count <= 0 or count >= len(names) else sorted(random.Random(f"{seed}").sample(names, count))


def draw(names: list[str], count: int, seed: int | str) -> list[str]:
    """The first ``count`` of a seeded shuffle: a larger draw extends a smaller one, so results carry over."""
    order = sorted(names)
    random.Random(f"{seed}").shuffle(order)
    return sorted(order[:max(count, 0)])


def allocate(sizes: dict[str, int], total: int, floor: int) -> dict[str, int]:
    """Stratified allocation of ``total`` draws over strata of ``sizes``: ``floor`` each (so no module goes
    unsampled), the rest proportional to size by largest remainder, never more than a stratum holds."""
    share = {m: min(floor, n) for m, n in sizes.items()}
    while True:
        room = {m: n - share[m] for m, n in sizes.items() if n > share[m]}
        left = total - sum(share.values())
        if left <= 0 or not room:
            return share
        weight = sum(room.values())
        exact = {m: left * r / weight for m, r in room.items()}
        extra = {m: min(room[m], int(x)) for m, x in exact.items()}
        if not any(extra.values()):  # fewer draws left than strata: the largest remainders get one each
            for m in sorted(exact, key=lambda m: (-(exact[m] - int(exact[m])), m))[:left]:
                extra[m] = 1
        for m, x in extra.items():
            share[m] += x


def stratified(found: dict[str, dict[str, int | None]], chosen: dict[str, list[str]], per_target: int,
               floor: int, seed: int | str) -> dict[str, list[str]]:
    """Module -> its seeded random draw: ``per_target`` mutants per target, spread over its modules."""
    picked = {}
    for files in chosen.values():
        share = allocate({m: len(found[m]) for m in files}, per_target, floor)
        for module in files:
            picked[module] = draw(list(found[module]), share[module], f"{seed}:{module}")
    return picked


def wilson(killed: int, checked: int) -> tuple[float, float] | None:
    """95% Wilson interval of the kill rate, the sample read as draws from the target's mutants."""
    if not checked:
        return None
    from scipy.stats import binomtest
    interval = binomtest(killed, checked).proportion_ci(confidence_level=0.95, method="wilson")
    return interval.low, interval.high


def summarise(found: dict[str, dict[str, int | None]], equivalent: dict[str, str], only: set[str] | None = None) -> dict:
    """Per module: counts by status; the score counts time-outs as killed and equivalents apart."""
    rows = {}
    for module, codes in found.items():
        counts = Counter()
        for name, code in codes.items():
            if only is not None and name not in only:
                counts["unsampled"] += 1
                continue
            counts["equivalent" if name in equivalent else STATUS.get(code, "suspicious")] += 1
        checked = counts["killed"] + counts["timeout"] + counts["survived"] + counts["no tests"] + counts["suspicious"]
        killed = counts["killed"] + counts["timeout"]
        rows[module] = dict(counts) | {"checked": checked, "score": killed / checked if checked else None,
                                       "ci": wilson(killed, checked)}
    return rows


def score_text(score: float | None, ci: tuple[float, float] | None) -> str:
    if score is None:
        return " | "
    return f"{score:.1%} | {ci[0]:.1%} to {ci[1]:.1%}"


def markdown(rows: dict) -> str:
    lines = ["| module | mutants | sampled | killed | survived | timed out | no test reaches | equivalent | sampled, not run | checked | score | 95% CI (Wilson) |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|"]

    def line(name: str, row: dict) -> str:
        every = sum(v for k, v in row.items() if k not in ("score", "ci", "checked"))
        checked, killed = row["checked"], row.get("killed", 0) + row.get("timeout", 0)
        score = score_text(killed / checked if checked else None, wilson(killed, checked))
        return (f"| {name} | {every} | {every - row.get('unsampled', 0)} | {row.get('killed', 0)} | {row.get('survived', 0)} | "
                f"{row.get('timeout', 0)} | {row.get('no tests', 0)} | {row.get('equivalent', 0)} | {row.get('not checked', 0)} | "
                f"{checked} | {score} |")

    total = Counter()
    for module, row in rows.items():
        total.update({k: v for k, v in row.items() if k not in ("score", "ci")})
        lines.append(line(f"`{module}`", row))
    lines.append(line("all", total))
    return "\n".join(lines)


def by_target(rows: dict, chosen: dict[str, list[str]]) -> dict:
    """The module rows summed per target (an engine package, the verifier), with the target's score."""
    totals = {}
    for target, files in chosen.items():
        total = Counter()
        for module in files:
            total.update({k: v for k, v in rows.get(module, {}).items() if k not in ("score", "ci")})
        killed = total["killed"] + total["timeout"]
        totals[target] = dict(total) | {"checked": total["checked"], "score": killed / total["checked"] if total["checked"] else None,
                                        "ci": wilson(killed, total["checked"])}
    return totals


def cmd_run(args, config) -> int:
    chosen = target_modules(config, args.targets or list(config["targets"]))
    modules = [m for files in chosen.values() for m in files]
    every_module = [m for files in target_modules(config, list(config["targets"])).values() for m in files]
    workdir = Path(args.workdir).resolve()
    workdir.mkdir(parents=True, exist_ok=True)
    # every target's modules are mutated in every run (the chosen targets only pick which mutants run), so
    # the mutated copies never go stale between runs of different targets
    # --own-tests: only the chosen targets' own tests kill (and only they run in the coverage pass); right for a
    # target the shared suite never reaches (the Spark oracle), and kept apart with its own --workdir
    tests = [t for name in chosen for t in config["targets"][name].get("tests", [])] if args.own_tests else killing_suite(config)
    prepare(workdir, config, every_module, tests)
    if mutmut(workdir, config, []) != 0:
        return 1
    found = results(workdir, modules)
    wanted = []
    drawn = stratified(found, chosen, args.per_target, args.floor, args.seed) if args.per_target else {}
    for files in chosen.values():
        for module in files:
            if args.survivors:  # after new tests: do they kill what survived? (with --per-target: and the draw)
                wanted += [name for name, code in found[module].items()
                           if STATUS.get(code) in ("survived", "no tests") and name not in config.get("equivalent", {})]
                if not args.per_target:
                    continue
            pool = drawn[module] if args.per_target else sample(list(found[module]), args.sample, f"{args.seed}:{module}")
            wanted += [name for name in pool if (args.rerun or found[module][name] is None) and name not in wanted]
    if args.also_quick:  # the CI sample's mutants, run with the full suite (the report counts only the draw)
        wanted += sorted(set(quick_sample(config, chosen, found)) - set(wanted))
    print(f"mutate: {len(wanted)} mutants to run in {len(modules)} modules", file=sys.stderr)
    started = time.monotonic()
    if wanted:
        mutmut(workdir, config, ["run", "--max-children", str(args.jobs), *wanted], args.time_limit)
    print(f"mutate: ran for {time.monotonic() - started:.0f} s", file=sys.stderr)
    return cmd_report(args, config, chosen)


def cmd_report(args, config, chosen=None) -> int:
    chosen = chosen or target_modules(config, args.targets or list(config["targets"]))
    workdir = Path(args.workdir).resolve()
    found = results(workdir, [m for files in chosen.values() for m in files])
    only = None
    if args.per_target:  # count the stratified draw only, whatever else has a result
        only = {name for names in stratified(found, chosen, args.per_target, args.floor, args.seed).values() for name in names}
    rows = summarise(found, config.get("equivalent", {}), only)
    targets = by_target(rows, chosen)
    print(markdown(targets).replace("| module |", "| target |").replace("| `", "| ").replace("` |", " |"))
    print()
    print(markdown(rows))
    (workdir / "report.json").write_text(json.dumps({"targets": targets, "modules": rows}, indent=1))
    if getattr(args, "survivors", False):
        for codes in found.values():
            for name, code in sorted(codes.items()):
                if STATUS.get(code) in ("survived", "no tests") and name not in config.get("equivalent", {}):
                    diff = subprocess.run([sys.executable, "-m", "mutmut", "show", name], cwd=workdir,
                                          capture_output=True, text=True).stdout
                    print(f"\n## {name} ({STATUS[code]})\n{diff}")
    return 0


def quick_sample(config: dict, chosen: dict[str, list[str]], found: dict[str, dict[str, int | None]]) -> set[str]:
    """The CI's mutants: ``per_target`` drawn (seeded) from each target's non-equivalent mutants."""
    quick, picked = config["quick"], set()
    for target, files in chosen.items():
        names = [name for module in files for name in found[module] if name not in config.get("equivalent", {})]
        picked |= set(sample(names, quick["per_target"], f"{quick['seed']}:{target}"))
    return picked


def cmd_quick(args, config) -> int:
    """CI: the same seeded sample from every target; fails when its score drops below the recorded minimum."""
    quick = config["quick"]
    args.sample, args.seed, args.rerun, args.targets = quick["per_target"], quick["seed"], True, None
    targets = quick_targets(config)
    chosen = target_modules(config, targets)
    workdir = Path(args.workdir).resolve()
    workdir.mkdir(parents=True, exist_ok=True)
    modules = [m for files in chosen.values() for m in files]
    prepare(workdir, config, modules, killing_suite(config, quick["tests"], targets))
    if mutmut(workdir, config, []) != 0:
        return 1
    picked = quick_sample(config, chosen, results(workdir, modules))
    mutmut(workdir, config, ["run", "--max-children", str(args.jobs), *sorted(picked)], args.time_limit)
    rows = summarise(results(workdir, modules), config.get("equivalent", {}), only=picked)
    print(markdown(rows))
    killed = sum(r.get("killed", 0) + r.get("timeout", 0) for r in rows.values())
    checked = sum(r["checked"] for r in rows.values())
    score = killed / checked if checked else 0.0
    print(f"mutate quick: {killed}/{checked} sampled mutants killed ({score:.0%}; minimum {quick['minimum_score']:.0%})")
    if checked < len(picked):
        # an unrun mutant is no evidence either way: the sample must be run whole, so a slow machine fails loudly
        print(f"mutate quick: {len(picked) - checked} of {len(picked)} sampled mutants not run "
              f"(time limit {args.time_limit} s reached?)", file=sys.stderr)
    return 0 if checked == len(picked) and score >= quick["minimum_score"] else 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("command", choices=["run", "report", "quick"])
    parser.add_argument("--targets", type=lambda text: [t for t in text.split(",") if t], default=None)
    parser.add_argument("--sample", type=int, default=0, help="mutants per module, seeded (0: all)")
    parser.add_argument("--per-target", type=int, default=0,
                        help="run: a stratified sample of this many mutants per target, seeded, spread over its "
                             "modules in proportion to their mutants (overrides --sample)")
    parser.add_argument("--also-quick", action="store_true", help="run: also the CI sample's mutants")
    parser.add_argument("--floor", type=int, default=3, help="with --per-target: at least this many per module")
    parser.add_argument("--seed", default="14")
    parser.add_argument("--rerun", action="store_true", help="run sampled mutants again even when they have a result")
    parser.add_argument("--time-limit", type=float, default=None, help="seconds; results so far are kept")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--workdir", default=str(ROOT / ".mutate"))
    parser.add_argument("--own-tests", action="store_true",
                        help="run: kill with the chosen targets' own tests only (use a separate --workdir)")
    parser.add_argument("--survivors", action="store_true",
                        help="run: run the non-equivalent survivors again; report: print each survivor's diff")
    args = parser.parse_args(argv)
    config = load_config()
    if args.command == "quick" and args.workdir == str(ROOT / ".mutate"):
        args.workdir = str(ROOT / ".mutate-quick")
    return {"run": cmd_run, "report": cmd_report, "quick": cmd_quick}[args.command](args, config)


if __name__ == "__main__":
    sys.exit(main())
