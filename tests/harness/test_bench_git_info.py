"""A run's commit says whether its code had changes; its results and docs changing do not make it dirty."""

from __future__ import annotations

import subprocess

from harness.bench.machine import git_info


def _git(directory, *args):
    subprocess.run(["git", "-C", str(directory), *args], check=True, capture_output=True)


def test_a_change_to_code_is_dirty_and_one_to_results_or_docs_is_not(tmp_path):
    for path in ("harness/cell.py", "results/history/bench.csv", "docs/results.md"):
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text("one\n")
    _git(tmp_path, "init", "-q")
    _git(tmp_path, "add", ".")
    _git(tmp_path, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "one")
    assert git_info(tmp_path)["dirty"] is False
    # a bench appends to the history itself, and the docs cite its figures: the next run's code is unchanged
    (tmp_path / "results/history/bench.csv").write_text("one\ntwo\n")
    (tmp_path / "docs/results.md").write_text("two\n")
    (tmp_path / "untracked.py").write_text("not yet added\n")
    assert git_info(tmp_path)["dirty"] is False
    (tmp_path / "harness/cell.py").write_text("two\n")
    info = git_info(tmp_path)
    assert info["dirty"] is True and len(info["commit"]) == 40
