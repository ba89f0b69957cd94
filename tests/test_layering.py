"""The layers import only downwards: engines never import the harness, Spark or the oracles; generators never import engines.

Inside ``engines/``, the vocabulary package ``engines.model`` imports nothing else of ``engines/``, and
the oracles take only its model types (``engines.model.stream``) so that no engine code, not even the
shared term and FILTER code, can hide a bug from them (DESIGN.md section 3).

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
# Sub-packages allowed one import their package's rule forbids: the Spark oracle is a Spark job, and the
# spark-streaming engine is a Structured Streaming query (DESIGN.md section 3).
EXCEPTIONS = {"oracles/spark": {"pyspark"}, "engines/spark_streaming": {"pyspark"}}


def forbidden_for(package: str, path: Path) -> set[str]:
    """The roots ``path`` (a file under ``package``) must not import."""
    relative = path.relative_to(ROOT).as_posix()
    allowed = set().union(*(roots for where, roots in EXCEPTIONS.items() if relative.startswith(where + "/")))
    return FORBIDDEN[package] - allowed


def imported_modules(path: Path) -> set[tuple[str, int]]:
    """Every absolute module an import names, with ``from X import y`` also giving ``X.y`` (y may be a module)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update((alias.name, node.lineno) for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add((node.module, node.lineno))
            found.update((f"{node.module}.{alias.name}", node.lineno) for alias in node.names)
    return found


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
        if root in forbidden_for(package, path)
    ]
    assert not offences, "\n".join(offences)


def test_only_the_spark_oracle_may_import_pyspark():
    assert forbidden_for("oracles", ROOT / "oracles" / "spark" / "history.py") == {"generators", "harness"}
    assert "pyspark" in forbidden_for("oracles", ROOT / "oracles" / "plain_oracle.py")
    assert "pyspark" in forbidden_for("oracles", ROOT / "oracles" / "sparkish.py")  # a sibling module is no exception
    assert any(root == "pyspark" for path in (ROOT / "oracles" / "spark").rglob("*.py") for root, _ in imported_roots(path))


def test_the_rules_cover_every_project_package():
    assert set(FORBIDDEN) | {"harness"} == set(PROJECT)


# What a module under the key may import from ``engines``: a name is allowed when it is one of these
# or lies inside one of them. ``from engines.model.stream import Triple`` names ``engines.model.stream``
# and ``engines.model.stream.Triple``; ``from engines.model import stream`` names ``engines.model`` and
# ``engines.model.stream``.
ENGINES_ALLOWED = {
    # the semantics profiles are data the oracles must read (oracles.reports); they hold no evaluation code
    "oracles": ("engines.model", "engines.model.stream", "engines.model.semantics"),
    "engines/model": ("engines.model",),
}


def _inside(module: str, allowed: tuple[str, ...], exact: tuple[str, ...]) -> bool:
    return module in exact or any(module.startswith(prefix + ".") for prefix in allowed)


@pytest.mark.parametrize("where", sorted(ENGINES_ALLOWED))
def test_engine_imports_stay_inside_the_allowed_modules(where):
    files = sorted((ROOT / where).rglob("*.py"))
    assert files, f"no Python files under {where}/"
    allowed = ENGINES_ALLOWED[where]
    # The oracles may name the package itself and its ``stream`` module (and the names inside
    # ``stream``), never ``engines.model.filters`` or ``engines.model.terms``.
    prefixes = tuple(name for name in allowed if name != "engines.model") if where == "oracles" else allowed
    offences = [
        f"{path.relative_to(ROOT)}:{line} imports {module}"
        for path in files
        for module, line in sorted(imported_modules(path))
        if (module == "engines" or module.startswith("engines."))
        and not _inside(module, prefixes, allowed)
    ]
    assert not offences, "\n".join(offences)


def test_the_vocabulary_rule_catches_an_oracle_importing_filter_code(tmp_path):
    """The rule above is not vacuous: an oracle importing the shared FILTER code is an offence."""
    module = tmp_path / "bad_oracle.py"
    module.write_text("from engines.model import filters\nfrom engines.model.stream import Triple\n")
    names = {name for name, _ in imported_modules(module)}
    offending = [name for name in names if name.startswith("engines") and not _inside(name, ("engines.model.stream",), ENGINES_ALLOWED["oracles"])]
    assert offending == ["engines.model.filters"]
