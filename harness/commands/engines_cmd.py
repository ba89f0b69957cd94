"""``cgpm engines``: every registered engine and its capabilities, as a table or as JSON; external engines say where they come from."""

from __future__ import annotations

import json

from engines.registry import all_engine_names, get_engine


def add_parser(subparsers) -> None:
    parser = subparsers.add_parser("engines", help="list the registered engines and their capabilities")
    parser.add_argument("--json", action="store_true", help="print a JSON list")
    parser.set_defaults(handler=run)


def run(args) -> int:
    rows = []
    for name in all_engine_names():
        engine_cls = get_engine(name)
        row = {"name": name, "capabilities": engine_cls.capabilities.as_json()}
        descriptor = getattr(engine_cls, "descriptor", None)
        if descriptor is not None:
            row["external"] = {"descriptor": str(descriptor.path), "command": list(descriptor.command),
                               "unavailable": descriptor.unavailable()}
        rows.append(row)
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
            + (_external_note(row["external"]) if "external" in row else "")
        )
    return 0


def _external_note(external: dict) -> str:
    if external["unavailable"]:
        return f"  (external, unavailable: {external['unavailable']})"
    return f"  (external: {external['descriptor']})"
