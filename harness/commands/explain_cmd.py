"""``cgpm explain QUERY.rq``: the query's class in the delta engine's terms, its decomposition, and why each algorithm runs.

The window does not change the decomposition: a query without one is explained as unbounded,
and a windowed one is noted as running behind the window adapter. The text form writes IRIs with
the query's own prefixes (``ub:advisor``, and ``a`` for ``rdf:type`` as SPARQL does); ``--json``
keeps them whole, with the prefixes beside.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from common.errors import QueryError
from engines.model.query import load_query
from harness.query_files import check_query_file


def add_parser(subparsers) -> None:
    parser = subparsers.add_parser(
        "explain", help="show a query's class and decomposition for the delta engine (Gergatsoulis and Damigos)"
    )
    parser.add_argument("query", type=Path, help="SPARQL SELECT query file (.rq)")
    parser.add_argument("--engine", choices=("delta", "delta-generic"), default="delta",
                        help="whose plan to show (default: delta, the class-specific algorithms)")
    parser.add_argument("--window", help="window to read the query with (default: its own, else unbounded)")
    parser.add_argument("--json", action="store_true", help="print the explanation as JSON")
    parser.set_defaults(handler=run)


def _load(path: Path, window: str | None):
    check_query_file(path)
    if window:
        return load_query(path, window=window), True
    try:
        return load_query(path), True
    except QueryError as error:
        if "has no window" not in str(error):
            raise
    return load_query(path, window="unbounded"), False


_PREFIX = re.compile(r"PREFIX\s+([A-Za-z][\w.-]*)?:\s*<([^>]*)>", re.IGNORECASE)
_IRI = re.compile(r"<([^<>\s]*)>")
_LOCAL = re.compile(r"[A-Za-z0-9_][\w-]*")
RDF_TYPE = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type"


def query_prefixes(text: str) -> dict[str, str]:
    """The ``PREFIX name: <iri>`` declarations of a query's text, name -> namespace (``""`` for the default prefix)."""
    return {name or "": namespace for name, namespace in _PREFIX.findall(text)}


def compact_iris(text: str, prefixes: dict[str, str]) -> str:
    """``text`` with every ``<iri>`` written ``prefix:local`` where a prefix covers it, and ``rdf:type`` as ``a``."""
    by_length = sorted(prefixes.items(), key=lambda item: -len(item[1]))

    def shorter(match: re.Match) -> str:
        iri = match.group(1)
        if iri == RDF_TYPE:
            return "a"
        for name, namespace in by_length:
            if namespace and iri.startswith(namespace) and _LOCAL.fullmatch(iri[len(namespace):]):
                return f"{name}:{iri[len(namespace):]}"
        return match.group(0)

    return _IRI.sub(shorter, text)


def run(args) -> int:
    from engines.delta import explain, explain_text

    query, declared = _load(args.query, args.window)
    info = explain(query, generic=args.engine == "delta-generic")
    info["window"] = query.window.spec() if declared else "unbounded (none declared)"
    if query.window.kind != "unbounded":
        info["notes"].append(f"{query.window} window: the engine runs behind the window adapter (insert stream -> insert/delete stream)")
    if query.entailment != "none":
        info["notes"].append(f"entailment {query.entailment!r} is not supported by the delta engines")
    prefixes = query_prefixes(query.text)
    if args.json:
        print(json.dumps({**info, "prefixes": prefixes}, indent=2))
    else:
        print(compact_iris(explain_text(info), prefixes))
        print(f"window: {info['window']}")
    return 0
