"""``cgpm engines``: every registered engine and its capabilities, as a table or as JSON; external engines say where they come from.

An engine that cannot be loaded (a plugin whose module fails to import) is listed as unavailable
with the reason, as an external engine whose program is missing is: one broken engine never hides
the others.
"""

from __future__ import annotations

import json

from common.errors import EngineError
from engines.registry import all_engine_names, get_engine


def add_parser(subparsers) -> None:
    parser = subparsers.add_parser(
        "engines", help="list the registered engines and their capabilities",
        description="List every registered engine (in-tree, cgpm.engines entry points, external descriptors) with "
        "what it can run: window kinds, deletions, entailment, static data, FILTERs, and whether it outputs deltas "
        "or an istream, and what several queries registered in one instance share (none: one instance per query). "
        "An engine that cannot be loaded or started is listed as unavailable, with the reason. "
        "Give any listed name to --engine of run, verify and bench.")
    parser.add_argument("--json", action="store_true", help="print a JSON list")
    parser.set_defaults(handler=run)


def run(args) -> int:
    rows = []
    for name in all_engine_names():
        try:
            engine_cls = get_engine(name)
        except EngineError as error:
            rows.append({"name": name, "capabilities": None, "unavailable": str(error)})
            continue
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
        if caps is None:
            print(f"{row['name']:<{width}} unavailable: {row['unavailable']}")
            continue
        print(
            f"{row['name']:<{width}} windows={','.join(caps['windows']):<24} deletions={str(caps['deletions']).lower():<5} "
            f"entailment={','.join(caps['entailment']):<9} static={str(caps['static']).lower():<5} "
            f"filters={str(caps['filters']).lower():<5} output={caps['output']}"
            + ("" if caps["matches"] else "  (cost floor: computes no answers)")
            + (f"  (many queries share: {caps['shares']})" if caps.get("shares") else "")
            + (_external_note(row["external"]) if "external" in row else "")
        )
    return 0


def _external_note(external: dict) -> str:
    if external["unavailable"]:
        return f"  (external, unavailable: {external['unavailable']})"
    return f"  (external: {external['descriptor']})"
