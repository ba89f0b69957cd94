"""``cgpm engines``: every registered engine and its capabilities, as a table or as JSON; external engines say where they come from.

An engine that cannot be loaded (a plugin whose module fails to import) is listed as unavailable
with the reason, as an external engine whose program is missing is: one broken engine never hides
the others.
"""

from __future__ import annotations

import json
import textwrap

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
    print(table_text(rows), end="")
    return 0


WIDTH = 100  # a terminal's columns the table fits: notes that would not fit wrap under the engine, indented
COLUMNS = ("engine", "windows", "deletions", "entailment", "static", "filters", "output")


def _flag(value) -> str:
    return "yes" if value else "no"


def table_text(rows: list[dict], width: int = WIDTH) -> str:
    """A column per capability, then the engine's notes (what several queries share, where an external engine
    comes from, why it is unavailable) wrapped to ``width`` under its row."""
    cells = [[row["name"], *((",".join(caps["windows"]), _flag(caps["deletions"]), ",".join(caps["entailment"]),
                              _flag(caps["static"]), _flag(caps["filters"]), caps["output"])
                             if (caps := row["capabilities"]) is not None else ("",) * 6)] for row in rows]
    widths = [max(len(line[i]) for line in [list(COLUMNS), *cells]) for i in range(len(COLUMNS))]
    indent = " " * (widths[0] + 2)
    lines = ["  ".join(name.ljust(w) for name, w in zip(COLUMNS, widths)).rstrip()]
    for row, line in zip(rows, cells):
        if row["capabilities"] is None:
            lines += textwrap.wrap(f"{row['name'].ljust(widths[0])}  unavailable: {row['unavailable']}", width,
                                   subsequent_indent=indent, break_on_hyphens=False)
            continue
        lines.append("  ".join(cell.ljust(w) for cell, w in zip(line, widths)).rstrip())
        for note in _notes(row):
            lines += textwrap.wrap(note, width, initial_indent=indent, subsequent_indent=indent + "  ",
                                   break_on_hyphens=False)
    return "\n".join(lines) + "\n"


def _notes(row: dict) -> list[str]:
    caps = row["capabilities"]
    notes = [] if caps["matches"] else ["cost floor: computes no answers"]
    if caps.get("shares"):
        notes.append(f"many queries share: {caps['shares']}")
    if caps.get("reports") is not None:
        reports = caps["reports"] if isinstance(caps["reports"], str) else "its own profile " + json.dumps(caps["reports"])
        notes.append(f"sliding windows: reports natively under {reports} (verify --semantics that profile)")
    if "external" in row:
        notes.append(_external_note(row["external"]))
    return notes


def _external_note(external: dict) -> str:
    if external["unavailable"]:
        return f"external, unavailable: {external['unavailable']}"
    return f"external: {external['descriptor']}"
