"""``cgpm engines``: every registered engine and its capabilities, as a table or as JSON."""

from __future__ import annotations

import json

from engines.registry import get_engine, known_engines


def add_parser(subparsers) -> None:
    parser = subparsers.add_parser("engines", help="list the registered engines and their capabilities")
    parser.add_argument("--json", action="store_true", help="print a JSON list")
    parser.set_defaults(handler=run)


def run(args) -> int:
    rows = []
    for name in known_engines():
        engine_cls = get_engine(name)
        rows.append({"name": name, "capabilities": engine_cls.capabilities.as_json()})
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    width = max(len(row["name"]) for row in rows)
    for row in rows:
        caps = row["capabilities"]
        print(
            f"{row['name']:<{width}} windows={','.join(caps['windows']):<24} deletions={str(caps['deletions']).lower():<5} "
            f"entailment={','.join(caps['entailment']):<9} static={str(caps['static']).lower():<5} "
            f"filters={str(caps['filters']).lower():<5} output={caps['output']}"
            + ("" if caps["matches"] else "  (cost floor: computes no answers)")
        )
    return 0
