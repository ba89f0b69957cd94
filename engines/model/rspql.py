"""RSP-QL's window clauses are read off a query's text, which is left as plain SPARQL for rdflib to parse.

``FROM NAMED WINDOW <w> ON <s> [RANGE r STEP x]`` (``[RANGE r TUMBLING]`` is ``STEP r``, and
``[RANGE r]`` alone slides by 1 ms) declares a window; ``WINDOW <w> { ... }`` in the WHERE clause
holds the patterns that match it. With one window declared, the block's braces are dropped and its
patterns join the rest (every pattern matches the window with the static graph, as before named
windows existed). With several, each block becomes ``GRAPH <urn:cgpm:window:k> { ... }`` and the
query reader assigns its patterns to window k (DESIGN.md section 2, Several streams).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from common.errors import QueryError, WindowError
from engines.model import stream as m
from engines.model import terms
from engines.model.windows import parse_iso_duration

_PROTECTED = re.compile(
    r'"""(?:[^"\\]|\\.|"(?!""))*"""'
    r"|'''(?:[^'\\]|\\.|'(?!''))*'''"
    r'|"(?:[^"\\\n\r]|\\.)*"'
    r"|'(?:[^'\\\n\r]|\\.)*'"
    r"|" + terms._IRIREF + r"|#[^\n]*"
)
_RSPQL_WINDOW = re.compile(
    r"FROM\s+NAMED\s+WINDOW\s+(\S+)\s+ON\s+(?:STREAM\s+)?(\S+)\s*\[\s*RANGE\s+(\S+?)(?:\s+STEP\s+(\S+?)|\s+(TUMBLING))?\s*\]",
    re.IGNORECASE,
)
_REGISTER = re.compile(r"\bREGISTER\s+(?:RSTREAM|ISTREAM|DSTREAM)\s+\S+\s+AS\b", re.IGNORECASE)
_WINDOW_BLOCK = re.compile(r"\bWINDOW\s+(\S+?)\s*\{", re.IGNORECASE)


def mask(text: str, *, keep_iris: bool = False) -> str:
    """The text with strings, comments (and IRIs unless kept) blanked out, same length, so keywords and braces can be found."""

    def blank(match: re.Match) -> str:
        found = match.group(0)
        return found if keep_iris and found[0] == "<" else " " * len(found)

    return _PROTECTED.sub(blank, text)


def matching_brace(masked: str, open_index: int) -> int:
    depth = 0
    for index in range(open_index, len(masked)):
        char = masked[index]
        if char == "{":
            depth += 1
        elif char == "}":
            depth -= 1
            if depth == 0:
                return index
    raise QueryError("unbalanced braces in query")


@dataclass(frozen=True)
class DeclaredWindow:
    """A window clause as written: its name and stream tokens (prefixed names not yet resolved) and its window."""

    name: str
    stream_token: str
    window: m.Window


def _blank(text: str, start: int, end: int) -> str:
    return text[:start] + " " * (end - start) + text[end:]


def _declared(clause: re.Match) -> DeclaredWindow:
    range_ms = parse_iso_duration(clause.group(3))
    if clause.group(5):
        slide_ms = range_ms
    else:
        slide_ms = parse_iso_duration(clause.group(4)) if clause.group(4) else 1
    try:
        window = m.Window.sliding(range_ms, slide_ms)
    except WindowError as error:
        raise QueryError(f"window clause {clause.group(0)!r}: {error}") from None
    return DeclaredWindow(clause.group(1), clause.group(2), window)


def strip_rspql(text: str) -> tuple[str, list[DeclaredWindow]]:
    """Plain SPARQL for ``text`` and the windows it declares, in order (see the module docstring for the blocks)."""
    masked = mask(text)
    register = _REGISTER.search(masked)
    if register:
        text = _blank(text, register.start(), register.end())
    masked = mask(text, keep_iris=True)  # window and stream names may be full IRIs
    clauses = list(_RSPQL_WINDOW.finditer(masked))
    if not clauses:
        if re.search(r"FROM\s+NAMED\s+WINDOW", masked, re.IGNORECASE):
            raise QueryError("malformed RSP-QL window clause: expected FROM NAMED WINDOW <w> ON <stream> "
                             "[RANGE PT.. STEP PT..] or [RANGE PT.. TUMBLING]")
        return text, []
    declared = [_declared(clause) for clause in clauses]
    names = [window.name for window in declared]
    repeated = {name for name in names if names.count(name) > 1}
    if repeated:
        raise QueryError(f"the window {sorted(repeated)[0]} is declared twice")
    for clause in reversed(clauses):
        text = _blank(text, clause.start(), clause.end())
    masked = mask(text, keep_iris=True)
    blocks = list(_WINDOW_BLOCK.finditer(masked))
    for block in blocks:
        if block.group(1) not in names:
            raise QueryError(f"the block 'WINDOW {block.group(1)} {{ ... }}' names no declared window "
                             f"(declared: {', '.join(names)})")
    unused = [name for name in names if name not in {block.group(1) for block in blocks}]
    if unused:
        raise QueryError(f"the window {unused[0]} is declared but no 'WINDOW {unused[0]} {{ ... }}' uses it")
    for block in reversed(blocks):  # from the end, so earlier offsets stay valid
        open_index = block.end() - 1
        if len(declared) == 1:
            close_index = matching_brace(masked, open_index)
            text = (_blank(text[: open_index + 1], block.start(), open_index + 1) + text[open_index + 1 : close_index]
                    + " " + text[close_index + 1 :])
        else:
            graph = f"GRAPH <{m.WINDOW_GRAPH}{names.index(block.group(1))}> "
            text = text[: block.start()] + graph + text[open_index:]
    return text, declared
