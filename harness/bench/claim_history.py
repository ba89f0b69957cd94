"""A claim's verdict at each run is kept per commit and machine, append-only, so a claim met at one run and not at the next on the same machine is named a regression.

Claims (``harness.claims``) judged from a run's published folder are appended to ``history/claims/verdicts.csv``
(beside the benchmarks' files of ``harness.bench.history``, keyed the same way); ``claim_changes`` names each
verdict's change from the run before.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from common.errors import ConfigError
from harness.bench.machine import machine_label

HISTORY_DIR = Path("results") / "history"  # the benchmarks' histories' folder (harness.bench.history)

CLAIMS_FILE = "claims/verdicts.csv"  # apart from the benchmarks' files: no benchmark name can reach it
CLAIM_SCHEMA_VERSION = "cgpm-claim-history/1"
CLAIM_COLUMNS = ("schema_version", "paper", "experiment", "claim_id", "benchmark", "commit", "machine", "created",
                 "run_id", "verdict", "value", "bound", "paper_value")


def add_verdicts(verdicts, run, directory: str | Path = HISTORY_DIR) -> int:
    """Append the verdicts of the claims judged from ``run``'s published folder (``harness.claims.Verdict``), keyed by
    its commit and machine, to ``history/claims/verdicts.csv``; returns how many were new."""
    target = Path(directory) / CLAIMS_FILE
    fixed = {"schema_version": CLAIM_SCHEMA_VERSION, "benchmark": run.benchmark, "commit": run.commit,
             "machine": machine_label(run.info.get("machine", {})), "created": run.info.get("created"),
             "run_id": run.run_id}
    rows = pd.DataFrame([{**fixed, "paper": verdict.paper, "experiment": verdict.experiment,
                          "claim_id": verdict.claim_id, "verdict": verdict.verdict, "value": verdict.value,
                          "bound": bool(verdict.bound), "paper_value": verdict.paper_value} for verdict in verdicts],
                        columns=list(CLAIM_COLUMNS))
    if target.exists():
        known = read_claim_history(target)
        seen = set(zip(known["paper"], known["claim_id"], known["run_id"], known["commit"], known["machine"]))
        rows = rows[[key not in seen for key in zip(rows["paper"], rows["claim_id"], rows["run_id"], rows["commit"],
                                                     rows["machine"])]]
    if rows.empty:
        return 0
    target.parent.mkdir(parents=True, exist_ok=True)
    with target.open("a", encoding="utf-8", newline="") as handle:  # append-only, as the benchmarks' files
        rows.to_csv(handle, header=handle.tell() == 0, index=False)
    return len(rows)


def read_claim_history(path: str | Path) -> pd.DataFrame:
    path = Path(path)
    try:
        frame = pd.read_csv(path, dtype={"commit": str, "run_id": str, "claim_id": str})
    except OSError as error:
        raise ConfigError(f"cannot read claim history {path}: {error.strerror}") from None
    if list(frame.columns) != list(CLAIM_COLUMNS) or set(frame["schema_version"]) - {CLAIM_SCHEMA_VERSION}:
        raise ConfigError(f"{path} is not a {CLAIM_SCHEMA_VERSION} claim history")
    return frame


def claim_changes(claims: pd.DataFrame) -> pd.DataFrame:
    """Each claim's verdict against its verdict at the run before on the same machine: ``regression`` when it was met
    and is no longer, ``fixed`` when it is met again, ``same`` else."""
    columns = ["paper", "claim_id", "machine", "base_commit", "commit", "base_verdict", "verdict", "change", "value",
               "paper_value"]
    changes = []
    ordered = claims.sort_values("created", kind="stable")
    for (paper, claim_id, machine), series in ordered.groupby(["paper", "claim_id", "machine"], sort=True):
        for before, after in zip(series.itertuples(), series.iloc[1:].itertuples()):
            change = ("regression" if before.verdict == "met" and after.verdict != "met" else
                      "fixed" if before.verdict != "met" and after.verdict == "met" else "same")
            changes.append({"paper": paper, "claim_id": claim_id, "machine": machine, "base_commit": before.commit,
                            "commit": after.commit, "base_verdict": before.verdict, "verdict": after.verdict,
                            "change": change, "value": after.value, "paper_value": after.paper_value})
    return pd.DataFrame(changes, columns=columns)
