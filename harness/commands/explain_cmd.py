"""``cgpm explain QUERY.rq``: the query's class in the delta engine's terms, its decomposition, and why each algorithm runs.

The window does not change the decomposition: a query without one is explained as unbounded,
and a windowed one is noted as running behind the window adapter.
"""

from __future__ import annotations

import json
from pathlib import Path

from common.errors import QueryError
from engines.model.query import load_query


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
    if window:
        return load_query(path, window=window), True
    try:
        return load_query(path), True
    except QueryError as error:
        if "has no window" not in str(error):
            raise
    return load_query(path, window="unbounded"), False


def run(args) -> int:
    from engines.delta import explain, explain_text

    query, declared = _load(args.query, args.window)
    info = explain(query, generic=args.engine == "delta-generic")
    info["window"] = query.window.spec() if declared else "unbounded (none declared)"
    if query.window.kind != "unbounded":
        info["notes"].append(f"{query.window} window: the engine runs behind the window adapter (insert stream -> insert/delete stream)")
    if query.entailment != "none":
        info["notes"].append(f"entailment {query.entailment!r} is not supported by the delta engines")
    if args.json:
        print(json.dumps(info, indent=2))
    else:
        print(explain_text(info))
        print(f"window: {info['window']}")
    return 0
