"""Every reference into the project's documents resolves: a cited DESIGN.md section exists and says what is cited, a link or a named file exists.

The code cites the design by section number (``DESIGN.md section 2``, ``DESIGN.md §3``), sometimes with the
title of a paragraph (``DESIGN.md section 2, "The same answers as intervals"``); the documents link to each other
with relative Markdown links and name source files in backticks (`engines/protocol.py`). Renumbering a section,
renaming a file or moving a document breaks such references silently; these tests make it loud.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DESIGN = ROOT / "DESIGN.md"
DOCUMENTS = sorted([ROOT / "README.md", DESIGN, *(ROOT / "docs").glob("*.md")])
CITING = ("common", "engines", "generators", "harness", "oracles", "benchmarks", "scripts", "tests", "docs")
CITING_SUFFIXES = {".py", ".md", ".toml", ".sh", ".rq"}

CITATION = re.compile(r"DESIGN\.md`*\s*(?:section|§)\s*(\d+)(?:,?\s*\(?\"([^\"]+)\")?")
HEADING = re.compile(r"^## (\d+)\. ", re.MULTILINE)
MARKDOWN_LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)\)")
# a file of the project named in backticks: a top-level folder, then a path ending in a source or document suffix
NAMED_FILE = re.compile(r"`((?:" + "|".join(CITING) + r")/[\w./-]+\.(?:md|py|toml|rq|sh))`")


def _citing_files() -> list[Path]:
    """The project's files that may cite DESIGN.md, this one left out (its self-test cites on purpose)."""
    files = [path for folder in CITING for path in (ROOT / folder).rglob("*")
             if path.suffix in CITING_SUFFIXES and path.resolve() != Path(__file__).resolve()]
    return sorted([*files, ROOT / "README.md"])


def design_sections(text: str) -> dict[int, str]:
    """Each ``## N.`` section of DESIGN.md's text, by number, with its body up to the next one."""
    starts = [(int(match.group(1)), match.start()) for match in HEADING.finditer(text)]
    ends = [start for _, start in starts[1:]] + [len(text)]
    return {number: text[start:end] for (number, start), end in zip(starts, ends)}


def citations(text: str) -> list[tuple[int, str | None]]:
    return [(int(match.group(1)), match.group(2)) for match in CITATION.finditer(text)]


def broken_citations(texts: dict[str, str], sections: dict[int, str]) -> list[str]:
    """What is wrong with the DESIGN.md citations in ``texts`` (file name -> its text)."""
    broken = []
    for where, text in texts.items():
        for number, title in citations(text):
            if number not in sections:
                broken.append(f"{where} cites DESIGN.md section {number}, which has no '## {number}.' heading")
            elif title is not None and f"**{title}**" not in sections[number]:
                broken.append(f"{where} cites DESIGN.md section {number}, \"{title}\": no paragraph of that title there")
    return broken


def local_links(path: Path) -> list[str]:
    """The relative link targets of a Markdown file, without their #fragment (web and mail links left out)."""
    targets = [match.group(1) for match in MARKDOWN_LINK.finditer(path.read_text(encoding="utf-8"))]
    return [target.split("#", 1)[0] for target in targets
            if not re.match(r"[a-z][a-z0-9+.-]*:", target) and not target.startswith("#")]


def test_design_numbers_its_sections_in_order():
    numbers = [int(match.group(1)) for match in HEADING.finditer(DESIGN.read_text(encoding="utf-8"))]
    assert numbers == list(range(1, len(numbers) + 1)), numbers


def test_the_code_cites_design_sections():
    cited = {number for path in _citing_files() for number, _ in citations(path.read_text(encoding="utf-8"))}
    assert {2, 3} <= cited, f"the citations found were {sorted(cited)}: has the pattern stopped matching them?"


def test_every_design_citation_resolves_to_a_section_that_says_what_is_cited():
    sections = design_sections(DESIGN.read_text(encoding="utf-8"))
    texts = {path.relative_to(ROOT).as_posix(): path.read_text(encoding="utf-8") for path in _citing_files()}
    broken = broken_citations(texts, sections)
    assert not broken, "\n".join(broken)


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda path: path.relative_to(ROOT).as_posix())
def test_every_relative_link_resolves_to_a_file_in_the_repository(document):
    missing = [target for target in local_links(document) if target and not (document.parent / target).exists()]
    assert not missing, f"{document.relative_to(ROOT)} links to files that do not exist: {missing}"


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda path: path.relative_to(ROOT).as_posix())
def test_every_project_file_a_document_names_exists(document):
    named = set(NAMED_FILE.findall(document.read_text(encoding="utf-8")))
    missing = sorted(name for name in named if not (ROOT / name).exists())
    assert not missing, f"{document.relative_to(ROOT)} names files that do not exist: {missing}"


def test_the_checks_recognise_what_they_must(tmp_path):
    sections = design_sections("# t\n\n## 1. One\n\ntext\n\n## 2. Two\n\n**The same answers as intervals** ...\n")
    assert set(sections) == {1, 2}
    text = ('"""DESIGN.md section 2, "The same answers as intervals"; ``DESIGN.md`` section 1; DESIGN.md §7;\n'
            'DESIGN.md section 1, "No such paragraph"."""\n')
    assert citations(text) == [(2, "The same answers as intervals"), (1, None), (7, None), (1, "No such paragraph")]
    assert broken_citations({"cites.py": text}, sections) == [
        "cites.py cites DESIGN.md section 7, which has no '## 7.' heading",
        'cites.py cites DESIGN.md section 1, "No such paragraph": no paragraph of that title there']
    page = tmp_path / "page.md"
    page.write_text("[a](other.md#x) [b](https://x.org) [c](#here) ![img](fig.png) [d](../up.md)\n", encoding="utf-8")
    assert local_links(page) == ["other.md", "../up.md"]
    assert NAMED_FILE.findall("see `engines/protocol.py` and `results/runs/x.md` and `docs/*.md`") == [
        "engines/protocol.py"]
