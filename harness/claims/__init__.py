"""Every paper claim is data (``benchmarks/papers/<paper>/<experiment>.toml``), judged from published results alone.

The API other commands read (``cgpm reproduce``, ``cgpm site``)::

    papers() -> ["delta", "sparkwave", "spectra", "tpjoin"]
    judge("spectra", Path("results/published")) -> [Verdict, ...]

``Verdict`` holds one claim's value (median, IQR, n, whether it is a lower bound), the paper's value, the
verdict (met / missed / not-shown) and the verdict the repository records as expected.
"""

from __future__ import annotations

from pathlib import Path

from common.errors import ConfigError
from harness.claims.judge import Verdict, judge_experiment
from harness.claims.model import PAPERS, Claim, Experiment, load_experiment

__all__ = ["Claim", "Experiment", "Verdict", "claim_files", "experiments", "judge", "load_experiment", "papers", "resolve_results"]

# the repository's root: benchmarks/papers/ and results/published/ are found from here, whatever the working directory
ROOT = Path(__file__).resolve().parents[2]
CLAIMS_DIR = ROOT / "benchmarks" / "papers"
RESULTS_DIR = Path("results/published")


def papers() -> list[str]:
    """The papers that have claim files, in a stable order."""
    return sorted(paper for paper in PAPERS if claim_files(paper))


def claim_files(paper: str) -> list[Path]:
    if paper not in PAPERS:
        raise ConfigError(f"unknown paper {paper!r}: choose one of {', '.join(PAPERS)} or give a claim file")
    return sorted((CLAIMS_DIR / paper).glob("*.toml"))


def experiments(paper: str) -> list[Experiment]:
    loaded = [load_experiment(path) for path in claim_files(paper)]
    for experiment in loaded:
        if experiment.paper != paper:
            raise ConfigError(f"{experiment.path}: paper {experiment.paper!r} but the file is under {paper}/")
    return loaded


def judge(paper: str, results_dir: Path = RESULTS_DIR) -> list[Verdict]:
    """Every claim of ``paper`` judged from the published folders under ``results_dir`` (relative to the repository
    root when not absolute and not found from the working directory)."""
    results_dir = resolve_results(Path(results_dir))
    verdicts = [verdict for experiment in experiments(paper) for verdict in judge_experiment(experiment, results_dir)]
    seen: set[str] = set()
    for verdict in verdicts:
        if verdict.claim_id in seen:
            raise ConfigError(f"claim id {verdict.claim_id!r} appears in two claim files of {paper}")
        seen.add(verdict.claim_id)
    return verdicts


def resolve_results(results_dir: Path) -> Path:
    """``results_dir`` as given when it exists (or is absolute), else under the repository's root."""
    if results_dir.is_absolute() or results_dir.exists():
        return results_dir
    return ROOT / results_dir
