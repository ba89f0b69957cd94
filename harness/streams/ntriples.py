"""N-Triples lines become canonical triples, and a bad line is reported by file and line number.

The N-Triples grammar is three terms and a dot per line, and each term's grammar is exactly the one
``engines.model.terms`` implements, so lines are tokenised with its regular expressions and every term
goes through ``engines.model.terms.check_triple``. That keeps lexical forms exactly as written (modulo
the canonical escaping), which a general RDF parser would not promise, and tells the user the line.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from pathlib import Path

from common.errors import StreamError, TermError
from engines.model.stream import Triple
from engines.model.terms import TERM_RE, check_triple

_SPACE = re.compile(r"[ \t]*")
_END = re.compile(r"[ \t]*\.[ \t]*(?:#.*)?")
_TERM_START = re.compile(r'[<_"]')


def parse_triple_line(line: str) -> Triple:
    """The canonical triple on one N-Triples line (without its line break); TermError says what is wrong."""
    position = _SPACE.match(line).end()
    terms = []
    for role in ("subject", "predicate", "object"):
        match = TERM_RE.match(line, position)
        if match is None:
            rest = line[position:].strip()
            if not rest or rest.startswith((".", "#")):
                raise TermError(f"the {role} is missing (a triple is: subject predicate object .)")
            token = rest.split()[0] if _TERM_START.match(rest) is None else rest[:60]
            raise TermError(f"malformed {role} {token!r}")
        terms.append(match.group(0))
        # N-Triples terms delimit themselves, so white space between them is optional.
        position = _SPACE.match(line, match.end()).end()
    if _END.fullmatch(line, position) is None:
        rest = line[position:].strip()
        if not rest:
            raise TermError("missing the final ' .'")
        if rest.startswith("."):
            raise TermError(f"unexpected text after the final '.': {rest[1:].strip()[:40]!r}")
        raise TermError(f"expected ' .' after the object, found {rest[:40]!r}")
    return check_triple(*terms)


def is_blank_or_comment(line: str) -> bool:
    stripped = line.strip()
    return not stripped or stripped.startswith("#")


def parse_ntriples(lines: Iterable[str], source: str) -> Iterator[Triple]:
    """Triples of an N-Triples document; a bad line raises TermError naming ``source`` and the line number."""
    for number, line in enumerate(lines, start=1):
        line = line.rstrip("\r\n")
        if is_blank_or_comment(line):
            continue
        try:
            yield parse_triple_line(line)
        except TermError as error:
            raise TermError(f"{source} line {number}: {error}") from None


def read_ntriples(path: Path) -> tuple[Triple, ...]:
    """Every triple of an N-Triples file, in file order (duplicates kept)."""
    try:
        with path.open(encoding="utf-8", newline="") as handle:
            return tuple(parse_ntriples(handle, str(path)))
    except UnicodeDecodeError as error:
        raise StreamError(f"{path} is not UTF-8 text: {error.reason} at byte {error.start}") from None
    except OSError as error:
        raise StreamError(f"cannot read {path}: {error.strerror or error}") from None


def triple_line(triple: Triple) -> str:
    """One N-Triples line (with its line break) for a canonical triple."""
    return f"{triple[0]} {triple[1]} {triple[2]} .\n"


def write_ntriples(path: Path, triples: Iterable[Triple]) -> None:
    with path.open("w", encoding="utf-8", newline="\n") as handle:
        handle.writelines(triple_line(triple) for triple in triples)
