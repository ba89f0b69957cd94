"""``cgpm reproduce PAPER|FILE``: every claim of a paper judged, exit 1 when a verdict differs from the one recorded.

PAPER is spectra, sparkwave, tpjoin or delta (all its claim files under benchmarks/papers/PAPER/), or ``all`` (every
paper's); FILE is one claim file. Without ``--check`` or ``--run`` the experiments' configs are run first (``cgpm bench CONFIG``, or a
workload script with ``--publish``) and the claims judged from those new runs; ``--run RUN`` judges a finished
run; ``--check`` judges the published results alone (``--results DIR``, default results/published) and runs
nothing. Exit 0 when every verdict is the one the claim file records (a claim honestly missed stays missed),
1 naming the claims whose verdict changed, 2 on bad input. ``--docs`` rewrites the generated block of
docs/PAPER-results.md from the verdicts; with ``all`` it also rewrites docs/paper-scale.md's table of time and memory
of every paper-scale cell (``benchmarks/papers/scale.toml``).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

from common.errors import ConfigError
from harness.claims import standing

RUNS = Path("results/runs")
ALL = "all"  # every paper's claim files


def add_parser(subparsers) -> None:
    parser = subparsers.add_parser("reproduce", help="judge a paper's claims (run it, or --check the published results)")
    parser.add_argument("target", metavar="PAPER|FILE", help="spectra, sparkwave, tpjoin, delta, all, or a claim file (.toml)")
    parser.add_argument("--run", type=Path, metavar="RUN", help="judge this finished run instead of running the config")
    parser.add_argument("--check", action="store_true", help="judge the published results only; run nothing")
    parser.add_argument("--results", type=Path, default=Path("results/published"), metavar="DIR",
                        help="root of the published folders (default results/published)")
    parser.add_argument("--json", action="store_true", help="print the verdicts as JSON")
    parser.add_argument("--docs", action="store_true", help="with --check: rewrite the generated block of docs/PAPER-results.md "
                        "(with all: every paper's, and docs/paper-scale.md)")
    parser.add_argument("--max-age", type=float, default=None, metavar="DAYS",
                        help="with --check: list the claims recorded as not met for longer than DAYS "
                             f"(default {standing.MAX_AGE_DAYS}; from the claim files' git history)")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from harness import claims
    from harness.claims import render
    from harness.claims.judge import judge_experiment

    experiments = _experiments(args.target)
    if args.max_age is not None and not args.check:
        raise ConfigError("--max-age lists standing verdicts of the published results: use it with --check")
    if args.max_age is not None and not args.max_age >= 0:
        raise ConfigError(f"--max-age {args.max_age:g}: a number of days >= 0")
    if args.run is not None and args.check:
        raise ConfigError("give --run RUN or --check, not both")
    if args.run is not None and len(experiments) != 1:
        raise ConfigError(f"--run judges one experiment's run; {args.target} has {len(experiments)}: give its claim file")
    if args.docs and (not args.check or Path(args.target).suffix == ".toml"):
        raise ConfigError("--docs rewrites a paper's generated block: use it with PAPER --check")
    if args.run is not None and not args.run.is_dir():
        raise ConfigError(f"--run {args.run}: no such run directory")
    results = claims.resolve_results(args.results)
    if args.check and not results.is_dir():
        raise ConfigError(f"--results {args.results}: no such directory")
    verdicts = []
    for experiment in experiments:
        run_dir = args.run if args.run is not None else (None if args.check else _run_experiment(experiment))
        verdicts += judge_experiment(experiment, results, run_dir)
    if args.json:
        print(json.dumps(render.as_json(verdicts), indent=2))
    else:
        print(render.text_table(verdicts))
    if args.docs:
        _rewrite_docs(args.target, verdicts, results)
    if args.check:
        _list_standing(experiments, standing.MAX_AGE_DAYS if args.max_age is None else args.max_age)
    changed = [verdict for verdict in verdicts if verdict.changed]
    counts = {name: sum(v.verdict == name for v in verdicts) for name in render.VERDICT_ORDER}
    print(f"cgpm reproduce {args.target}: {len(verdicts)} claims: "
          + ", ".join(f"{count} {name}" for name, count in counts.items() if count or name == "met"), file=sys.stderr)
    if changed:
        print("verdicts that differ from the recorded ones: " + ", ".join(
            f"{v.claim_id} ({v.verdict}, recorded {v.expected})" for v in changed), file=sys.stderr)
        return 1
    return 0


def _list_standing(experiments, max_age_days: float) -> None:
    """On stderr: the claims recorded as not met for longer than ``max_age_days``, so a permanent miss is seen."""
    from harness import claims

    old = standing.stale(experiments, claims.ROOT, max_age_days)
    if not old:
        return
    print(f"{len(old)} claim(s) recorded as not met for more than {max_age_days:g} days (harness.claims.standing):",
          file=sys.stderr)
    for record in old:
        print(f"  {record.claim_id}: {record.verdict} since {record.since:%Y-%m-%d} ({record.commit[:10]})",
              file=sys.stderr)


def _rewrite_docs(target: str, verdicts, results: Path) -> None:
    """Each judged paper's generated block of docs/PAPER-results.md; with ``all`` also docs/paper-scale.md's table.

    Every document is made before any is written, so an error leaves all of them as they were."""
    from harness import claims
    from harness.claims import render, scale

    papers = claims.papers() if target == ALL else [target]
    documents = {}
    for paper in papers:
        path = render.docs_path(claims.ROOT, paper)
        documents[path] = render.replace_block(path.read_text(), paper, [v for v in verdicts if v.paper == paper],
                                               claims.experiments(paper))
    if target == ALL:
        path = claims.ROOT / "docs" / "paper-scale.md"
        block = scale.scale_table(scale.load_runs(claims.CLAIMS_DIR / "scale.toml"), results)
        documents[path] = scale.replace_block(path.read_text(), block)
    for path, text in documents.items():
        path.write_text(text)
        print(f"rewrote the generated block of {path}", file=sys.stderr)


def _experiments(target: str):
    from harness import claims

    if target.endswith(".toml"):
        return [claims.load_experiment(target)]
    if target == ALL:
        return [experiment for paper in claims.papers() for experiment in claims.experiments(paper)]
    found = claims.experiments(target)
    if not found:
        raise ConfigError(f"paper {target!r} has no claim files under {claims.CLAIMS_DIR}")
    return found


def _run_experiment(experiment) -> Path:
    """Run the experiment's config into results/runs/NAME (a finished run there is resumed, not repeated)."""
    from harness import claims

    config = claims.ROOT / experiment.config
    if not config.is_file():
        raise ConfigError(f"{experiment.path}: config {experiment.config} does not exist")
    out = (RUNS / f"reproduce-{experiment.paper}-{experiment.name}").resolve()
    if config.suffix == ".py":  # a workload script that publishes its own folder
        command = [sys.executable, str(config), "--publish", str(out)]
    else:
        command = [sys.executable, "-m", "harness", "bench", str(config), "--out", str(out)]
    print("running: " + " ".join(command), file=sys.stderr)
    # from the checkout's root, so the run imports this checkout's code whatever the working directory
    if subprocess.run(command, cwd=claims.ROOT).returncode != 0:
        raise ConfigError(f"the run of {experiment.config} failed; its output is above")
    return out
