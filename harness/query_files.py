"""A file given as a query is read as one only if it begins like one: a README or a Makefile is refused as "not a SPARQL query".

The SPARQL parser's own message for such a file quotes whatever token it tripped on (a Markdown
heading is a SPARQL comment, so a README fails deep inside its prose, sometimes on a word that
looks like RSP-QL). A query file's first word after comments and blank lines is one of
``QUERY_OPENINGS``; anything else is refused here, before parsing, naming the file and the word.
"""

from __future__ import annotations

import re
from pathlib import Path

from common.errors import QueryError

QUERY_OPENINGS = ("PREFIX", "BASE", "SELECT", "REGISTER", "ASK", "CONSTRUCT", "DESCRIBE")
_FIRST_WORD = re.compile(r"[^\s{(<]+")


def first_word(text: str) -> str | None:
    """The first word of ``text`` outside ``#`` comments, or None for a file of comments and blanks."""
    for line in text.splitlines():
        code = line.split("#", 1)[0].strip()
        if code:
            match = _FIRST_WORD.match(code)
            return match.group(0) if match else code[:1]
    return None


def check_query_file(path: str | Path) -> None:
    """Raise QueryError when ``path`` cannot be read or does not begin like a SPARQL query."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        reason = error.strerror if isinstance(error, OSError) else "it is not UTF-8 text"
        raise QueryError(f"cannot read query file {path}: {reason}") from None
    word = first_word(text)
    if word is None:
        raise QueryError(f"{path} is not a SPARQL query: it holds only comments or nothing")
    if word.upper() not in QUERY_OPENINGS:
        raise QueryError(f"{path} is not a SPARQL query: it begins with {word[:40]!r}, where a query begins with "
                         f"PREFIX, BASE, SELECT or REGISTER")
