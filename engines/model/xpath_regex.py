"""SPARQL REGEX patterns (XPath regular expressions) become Python ``re`` patterns that match the same strings, or an error.

elementpath's translator (the one behind its XPath 2.0/3.0 ``fn:matches``) covers the whole XPath
syntax: ``\\p{..}``/``\\P{..}`` categories and blocks, ``\\i``/``\\c`` name characters, character
class subtraction (``[a-z-[aeiou]]``), ``.`` matching neither ``\\n`` nor ``\\r``, ``$`` matching only at
the very end without flag ``m``, and it refuses what XPath lacks (``(?=``, ``\\b``, ``\\A``...).

Two places where elementpath's output departs from XPath are fixed before it translates:

- Outside a character class it passes ``\\s``, ``\\S``, ``\\w``, ``\\W``, ``\\d``, ``\\D`` through as Python's
  own escapes, whose Unicode sets differ from XPath's (Python's ``\\s`` matches U+00A0 and ``\\w`` no
  symbol, XPath's ``\\s`` is exactly space, tab, CR and LF and its ``\\w`` excludes only punctuation,
  separators and others). Inside a class it expands them to XPath's sets, so each is wrapped in one.
- Flag ``x`` becomes Python's ``re.VERBOSE`` there, which makes ``#`` start a comment; XPath only removes
  whitespace outside character classes, so the whitespace is removed here and ``re.VERBOSE`` never used.

Flag ``q`` makes the whole pattern literal (XPath 3.0).
"""

from __future__ import annotations

import re
from functools import lru_cache

from elementpath.regex import RegexError, translate_pattern

from engines.model.values import ExprError

FLAGS = frozenset("smixq")
_WHITESPACE = frozenset(" \t\n\r")
_CLASS_ESCAPES = frozenset("sSwWdD")


def _prepare(pattern: str, extended: bool) -> str:
    """Wrap class escapes outside classes in a class, and drop whitespace outside classes under flag ``x``."""
    out: list[str] = []
    class_depth = 0  # subtraction nests classes: [a-z-[aeiou]]
    index, length = 0, len(pattern)
    while index < length:
        char = pattern[index]
        if char == "\\" and index + 1 < length:
            escaped = pattern[index + 1]
            if class_depth == 0 and escaped in _CLASS_ESCAPES:
                out.append(f"[^\\{escaped.lower()}]" if escaped.isupper() else f"[\\{escaped}]")
            else:
                out.append(char + escaped)
            index += 2
            continue
        if char == "[":
            class_depth += 1
        elif char == "]" and class_depth:
            class_depth -= 1
        elif extended and class_depth == 0 and char in _WHITESPACE:
            index += 1
            continue
        out.append(char)
        index += 1
    return "".join(out)


@lru_cache(maxsize=1024)
def compile_regex(pattern: str, flags: str = "") -> re.Pattern:
    """The Python pattern for an XPath pattern and flags; ExprError if either is invalid or unsupported."""
    if not set(flags) <= FLAGS:
        raise ExprError(f"unknown regex flags {flags!r}")
    python_flags = 0
    if "i" in flags:
        python_flags |= re.IGNORECASE
    if "m" in flags:
        python_flags |= re.MULTILINE
    if "s" in flags:
        python_flags |= re.DOTALL
    try:
        if "q" in flags:
            source = re.escape(pattern)
        else:
            source = translate_pattern(_prepare(pattern, "x" in flags), python_flags)
        return re.compile(source, python_flags)
    except (RegexError, re.error, OverflowError, RecursionError) as error:  # all mean: not a pattern we can match
        raise ExprError(f"invalid regex {pattern!r}: {error}") from None
