"""CI's speed gate compares with a landing this clone holds: `.ci/regress-base` names one commit, an ancestor of HEAD."""

import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_regress_base_is_one_full_commit_that_head_descends_from():
    lines = [line for line in (ROOT / ".ci" / "regress-base").read_text().splitlines() if not line.startswith("#")]
    assert len(lines) == 1 and len(lines[0]) == 40, lines
    ancestor = subprocess.run(["git", "-C", str(ROOT), "merge-base", "--is-ancestor", lines[0], "HEAD"])
    assert ancestor.returncode == 0, f"{lines[0]} is not an ancestor of HEAD: set .ci/regress-base to a landing of main"


def test_ci_runs_the_gate_against_it():
    assert "--against \"$(grep -v '^#' .ci/regress-base)\" --check" in (ROOT / ".ci" / "run").read_text()
