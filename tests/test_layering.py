"""The layers import only downwards: engines never import the harness, Spark or the oracles; generators never import engines.

Read from the source with ``ast`` (imports inside functions count too), so a forbidden import
fails here even when no test happens to execute the line that makes it.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PROJECT = ("common", "engines", "generators", "harness", "oracles")
FORBIDDEN = {
    "common": {"engines", "generators", "harness", "oracles", "pyspark"},
    "engines": {"generators", "harness", "oracles", "pyspark"},
    "generators": {"engines", "harness", "oracles"},
    "oracles": {"generators", "harness", "pyspark"},
}


def imported_roots(path: Path) -> set[tuple[str, int]]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update((alias.name.split(".")[0], node.lineno) for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add((node.module.split(".")[0], node.lineno))
    return found


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_package_imports_no_higher_layer(package):
    files = sorted((ROOT / package).rglob("*.py"))
    assert files, f"no Python files under {package}/"
    offences = [
        f"{path.relative_to(ROOT)}:{line} imports {root}"
        for path in files
        for root, line in sorted(imported_roots(path))
        if root in FORBIDDEN[package]
    ]
    assert not offences, "\n".join(offences)


def test_the_rules_cover_every_project_package():
    assert set(FORBIDDEN) | {"harness"} == set(PROJECT)
