"""The test suite stands on its own: it reads nothing outside the repository and skips nothing for want of its own code or data."""

from __future__ import annotations

import re
from pathlib import Path

TESTS = Path(__file__).resolve().parent
PROJECT_PACKAGES = ("common", "engines", "generators", "harness", "oracles", "tests")

# a path into the machine's shared folders, or a parent walk out of the repository
OUTSIDE_PATHS = re.compile(r"""["'](/work/|/home/|/srv/)|["']\.\./shared|/ *["']\.\.["'] */ *["']shared""")
OWN_IMPORTORSKIP = re.compile(r"""importorskip\(\s*["'](""" + "|".join(PROJECT_PACKAGES) + r""")\b""")
SKIP_ON_MISSING_FILE = re.compile(r"if not [^\n]*\.(is_file|is_dir|exists)\(\)[^\n]*:\s*\n\s*pytest\.skip")


def _sources() -> list[Path]:
    return sorted(path for path in TESTS.rglob("*.py") if path.resolve() != Path(__file__).resolve())


def test_no_test_reads_a_path_outside_the_repository():
    offenders = [f"{path.relative_to(TESTS)}" for path in _sources() if OUTSIDE_PATHS.search(path.read_text(encoding="utf-8"))]
    assert not offenders, f"tests naming paths outside the repository: {offenders}"


def test_no_test_skips_when_the_project_s_own_module_is_missing():
    offenders = [f"{path.relative_to(TESTS)}" for path in _sources() if OWN_IMPORTORSKIP.search(path.read_text(encoding="utf-8"))]
    assert not offenders, f"importorskip of the project's own modules (import it; a missing module is a failure): {offenders}"


def test_a_missing_data_file_is_a_failure_not_a_skip():
    offenders = [f"{path.relative_to(TESTS)}" for path in _sources() if SKIP_ON_MISSING_FILE.search(path.read_text(encoding="utf-8"))]
    assert not offenders, f"tests that skip when a data file is missing: {offenders}"


def test_the_guards_recognise_what_they_forbid():
    assert OUTSIDE_PATHS.search('REFERENCE = Path("/work/shared/reference/x.json")')
    assert OUTSIDE_PATHS.search('(Path(__file__).parents[2] / ".." / "shared" / "w3c")')
    assert OWN_IMPORTORSKIP.search('evaluate = pytest.importorskip("oracles.evaluate")')
    assert not OWN_IMPORTORSKIP.search('pytest.importorskip("pyspark")')
    assert SKIP_ON_MISSING_FILE.search('    if not REFERENCE.is_file():\n        pytest.skip("gone")')
