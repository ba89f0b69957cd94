"""Reads the W3C SPARQL 1.0 evaluation tests: manifests, data as canonical triples, expected results, and compares answers.

A test is a ``W3CTest`` (folder, name, query text, data files, result file). The query is read by
``engines.model.query.parse_query`` with an unbounded window; ASK queries are read as ``SELECT *`` and
answered by non-emptiness. Expected results (``.srx`` XML or ``.ttl`` result sets) become a list
of solutions (dicts from variable to canonical term) or a boolean. ``same_solutions`` compares two
solution lists as multisets with blank nodes matched up to renaming.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ElementTree
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlparse
from urllib.request import url2pathname

import rdflib
from rdflib import RDF, Namespace

from engines.model.query import parse_query
from engines.model.stream import ContinuousQuery
from engines.model.terms import check_triple, parse_term
from oracles import nterms

rdflib.NORMALIZE_LITERALS = False

W3C_DIR = (Path(__file__).resolve().parents[2] / ".." / "shared" / "w3c-sparql10").resolve()
MF = Namespace("http://www.w3.org/2001/sw/DataAccess/tests/test-manifest#")
QT = Namespace("http://www.w3.org/2001/sw/DataAccess/tests/test-query#")
RS = Namespace("http://www.w3.org/2001/sw/DataAccess/tests/result-set#")
SRX = "{http://www.w3.org/2005/sparql-results#}"
XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"

_ASK = re.compile(r"\bASK\b", re.IGNORECASE)
_COMMENT_OR_STRING = re.compile(r'#[^\n]*|"(?:[^"\\\n]|\\.)*"|\'(?:[^\'\\\n]|\\.)*\'|<[^<>"\s]*>')

Solution = dict[str, str]


@dataclass(frozen=True)
class W3CTest:
    folder: str
    name: str
    query_path: Path
    data_paths: tuple[Path, ...]
    graph_data_paths: tuple[Path, ...]
    result_path: Path

    @property
    def id(self) -> str:
        return f"{self.folder}/{self.name}"

    def query_text(self) -> str:
        return self.query_path.read_text(encoding="utf-8")


def _local_name(node) -> str:
    text = str(node)
    return text.rsplit("#", 1)[-1] if "#" in text else text.rsplit("/", 1)[-1]


def _path(node) -> Path:
    return Path(url2pathname(urlparse(str(node)).path))


def load_tests(root: Path = W3C_DIR) -> list[W3CTest]:
    """Every mf:QueryEvaluationTest of every folder's manifest, in manifest order."""
    tests = []
    for manifest in sorted(root.glob("*/manifest.ttl")):
        graph = rdflib.Graph()
        graph.parse(manifest, format="turtle")
        for manifest_node in graph.subjects(RDF.type, MF.Manifest):
            for entries in graph.objects(manifest_node, MF.entries):
                for entry in graph.items(entries):
                    if (entry, RDF.type, MF.QueryEvaluationTest) not in graph:
                        continue
                    action = graph.value(entry, MF.action)
                    tests.append(
                        W3CTest(
                            folder=manifest.parent.name,
                            name=_local_name(entry),
                            query_path=_path(graph.value(action, QT.query)),
                            data_paths=tuple(sorted(_path(d) for d in graph.objects(action, QT.data))),
                            graph_data_paths=tuple(sorted(_path(d) for d in graph.objects(action, QT.graphData))),
                            result_path=_path(graph.value(entry, MF.result)),
                        )
                    )
    return tests


def _canonical(node) -> str:
    return parse_term(nterms.from_rdflib(node))


def load_data(paths) -> frozenset[tuple[str, str, str]]:
    """The union of the data files as canonical triples."""
    graph = rdflib.Graph()
    for path in paths:
        graph.parse(path, format="turtle" if path.suffix == ".ttl" else "xml")
    return frozenset(check_triple(*(nterms.from_rdflib(node) for node in triple)) for triple in graph)


def is_ask(text: str) -> bool:
    masked = _COMMENT_OR_STRING.sub(lambda m: " " * len(m.group(0)), text)
    return _ASK.search(masked) is not None


def read_query(test: W3CTest) -> ContinuousQuery:
    """The test's query as a continuous query over an unbounded window (QueryError: outside the subset)."""
    text = test.query_text()
    if is_ask(text):
        masked = _COMMENT_OR_STRING.sub(lambda m: " " * len(m.group(0)), text)
        match = _ASK.search(masked)
        text = text[: match.start()] + "SELECT *" + text[match.end():]
    return parse_query(text, window="unbounded", name=test.id)


def _srx_term(element) -> str:
    tag = element.tag.replace(SRX, "")
    if tag == "uri":
        return parse_term(f"<{element.text or ''}>")
    if tag == "bnode":
        return f"_:{element.text}"
    lexical = element.text or ""
    return parse_term(
        nterms.canonical(nterms.Parts("literal", lexical, element.get("datatype"), element.get(XML_LANG)))
    )


def load_results(path: Path) -> list[Solution] | bool:
    """Expected solutions (a list, duplicates kept) or the boolean of an ASK query."""
    if path.suffix == ".srx":
        root = ElementTree.parse(path).getroot()
        boolean = root.find(f"{SRX}boolean")
        if boolean is not None:
            return boolean.text.strip() == "true"
        solutions = []
        for result in root.iter(f"{SRX}result"):
            solution = {}
            for binding in result.findall(f"{SRX}binding"):
                solution["?" + binding.get("name")] = _srx_term(list(binding)[0])
            solutions.append(solution)
        return solutions
    graph = rdflib.Graph()
    graph.parse(path, format="turtle")
    result_set = next(graph.subjects(RDF.type, RS.ResultSet))
    boolean = graph.value(result_set, RS.boolean)
    if boolean is not None:
        return str(boolean).lower() == "true"
    solutions = []
    for node in graph.objects(result_set, RS.solution):
        solution = {}
        for binding in graph.objects(node, RS.binding):
            value = graph.value(binding, RS.value)
            solution["?" + str(graph.value(binding, RS.variable))] = _canonical(value)
        solutions.append(solution)
    return solutions


def _bnodes(solution: Solution) -> set[str]:
    return {term for term in solution.values() if term.startswith("_:")}


def same_solutions(expected: list[Solution], actual: list[Solution]) -> bool:
    """Equal as multisets, blank nodes matched by one bijection across all solutions."""
    if len(expected) != len(actual):
        return False
    freeze = lambda s: tuple(sorted(s.items()))  # noqa: E731
    if not any(_bnodes(s) for s in expected) and not any(_bnodes(s) for s in actual):
        return Counter(map(freeze, expected)) == Counter(map(freeze, actual))
    expected = sorted(expected, key=lambda s: len(_bnodes(s)))

    def search(index: int, used: frozenset[int], renaming: dict[str, str]) -> bool:
        if index == len(expected):
            return True
        wanted = expected[index]
        for position, candidate in enumerate(actual):
            if position in used or candidate.keys() != wanted.keys():
                continue
            extended = dict(renaming)
            taken = set(extended.values())
            for variable, term in wanted.items():
                other = candidate[variable]
                if term.startswith("_:") and other.startswith("_:"):
                    if term in extended:
                        if extended[term] != other:
                            break
                    elif other in taken:
                        break
                    else:
                        extended[term] = other
                        taken.add(other)
                elif term != other:
                    break
            else:
                if search(index + 1, used | {position}, extended):
                    return True
        return False

    return search(0, frozenset(), {})
