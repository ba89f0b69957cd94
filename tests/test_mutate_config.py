"""Every mutant `scripts/mutate.toml` lists as equivalent names a function that still exists.

mutmut names a mutant after the function it mutates (``module.xǁClassǁmethod__mutmut_N`` or
``module.x_function__mutmut_N``). When code moves, an entry keeps its name and silently stops matching
anything, and the reason written beside it no longer describes any code: this test makes such an entry fail."""
from __future__ import annotations

import ast
import re
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
NAME = re.compile(r"^(?P<module>[\w.]+?)\.x(?:ǁ(?P<cls>\w+)ǁ(?P<method>\w+)|_(?P<function>\w+))__mutmut_\d+$")


def _equivalents() -> dict[str, str]:
    return tomllib.loads((ROOT / "scripts" / "mutate.toml").read_text(encoding="utf-8")).get("equivalent", {})


def _defined(tree: ast.Module, cls: str | None, name: str) -> bool:
    functions = (ast.FunctionDef, ast.AsyncFunctionDef)
    if cls is None:
        return any(isinstance(node, functions) and node.name == name for node in tree.body)
    return any(isinstance(node, ast.ClassDef) and node.name == cls
               and any(isinstance(member, functions) and member.name == name for member in node.body)
               for node in tree.body)


def test_there_are_equivalents_to_check():
    assert len(_equivalents()) > 10


@pytest.mark.parametrize("mutant", sorted(_equivalents()))
def test_equivalent_mutant_names_an_existing_function(mutant):
    match = NAME.match(mutant)
    assert match, f"{mutant!r} is not a mutmut mutant name"
    path = ROOT / (match["module"].replace(".", "/") + ".py")
    assert path.is_file(), f"{mutant!r}: no module {path.relative_to(ROOT)}"
    tree = ast.parse(path.read_text(encoding="utf-8"))
    cls, name = match["cls"], match["method"] or match["function"]
    assert _defined(tree, cls, name), f"{mutant!r}: {path.relative_to(ROOT)} defines no {cls + '.' if cls else ''}{name}"
