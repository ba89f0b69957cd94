"""A paper's claims reach the site as the claims package judges them now, from the same results the site shows.

Which paper a run belongs to is what a claim file says (its ``published`` location); a run no
claim file names belongs to the paper its top folder is named after (``spectra-table1/`` to
``spectra``, ``tpjoin/`` to ``tpjoin``), or to none.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from harness.claims.model import PAPERS
from harness.site.runs import Run


@dataclass
class Paper:
    name: str
    experiments: list = field(default_factory=list)   # harness.claims.Experiment
    verdicts: list | None = None                      # harness.claims.Verdict; None: no claim recorded as data

    def status(self, runs: int) -> str:
        if self.verdicts is None:
            return f"{runs} run(s); no claims recorded as data"
        counts = pd.Series([verdict.verdict for verdict in self.verdicts], dtype=object).value_counts()
        changed = sum(verdict.verdict != verdict.expected for verdict in self.verdicts)
        return (f"{runs} run(s); {len(self.verdicts)} claim(s): " + "; ".join(f"{n} {name}" for name, n in counts.items())
                + (f"; {changed} differ from the verdict the repository records" if changed else ""))


def judged(results: Path) -> dict[str, Paper]:
    """Every paper, with its experiments and its claims judged from ``results`` (None for a paper without claim files)."""
    from harness import claims

    papers = {name: Paper(name) for name in PAPERS}
    for name in claims.papers():
        papers[name] = Paper(name, claims.experiments(name), claims.judge(name, results))
    return papers


def paper_of(run: Run, results: Path, papers: dict[str, Paper]) -> str | None:
    location = run.location.relative_to(results).as_posix()
    for paper in papers.values():
        if any(experiment.published.strip("/") == location for experiment in paper.experiments):
            return paper.name
    top = (run.folder.relative_to(results).parts or (run.benchmark,))[0]
    family = top.split("-")[0]
    return family if family in papers else None
