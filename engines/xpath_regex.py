"""SPARQL REGEX patterns (XPath regular expressions) become Python ``re`` patterns that match the same strings, or an error.

XPath and Python agree on most syntax; the translation fixes where they differ:

- ``.`` matches anything but ``\\n`` and ``\\r`` (Python's ``.`` also matches ``\\r``); with flag
  ``s`` it matches everything.
- ``$`` without flag ``m`` matches only at the very end (Python's also matches before a final ``\\n``).
- ``\\s`` is exactly space, tab, newline and carriage return.
- flag ``x`` removes whitespace outside character classes, and ``#`` stays an ordinary character;
  flag ``q`` makes the whole pattern literal.

What Python cannot express is an error rather than a silently different match: character class
subtraction (``[a-z-[aeiou]]``), ``\\p{..}``/``\\P{..}`` categories and blocks, ``\\i``/``\\c``
name characters, ``\\S`` inside a class, and Python-only syntax (``(?=``, ``\\b``, ``\\A``...).
``\\w`` and ``\\d`` keep Python's Unicode meaning, which is close to XPath's but not identical.
"""

from __future__ import annotations

import re
from functools import lru_cache

from engines.values import ExprError

FLAGS = frozenset("smixq")
_SINGLE_ESCAPES = frozenset("nrt\\|.?*+(){}-[]^$")
_WHITESPACE = " \t\n\r"


def _translate(pattern: str, dot_all: bool, multiline: bool, extended: bool) -> str:
    out: list[str] = []
    in_class = False
    index, length = 0, len(pattern)
    while index < length:
        char = pattern[index]
        if char == "\\":
            if index + 1 >= length:
                raise ExprError("regex ends with a backslash")
            escaped = pattern[index + 1]
            if escaped in _SINGLE_ESCAPES or escaped in "dDwW":
                out.append("\\" + escaped)
            elif escaped == "s":
                out.append(r" \t\n\r" if in_class else r"[ \t\n\r]")
            elif escaped == "S" and not in_class:
                out.append(r"[^ \t\n\r]")
            elif escaped in "123456789" and not in_class:
                out.append("\\" + escaped)  # back-reference (XPath 3.0)
            else:
                raise ExprError(f"regex escape \\{escaped} is not supported")
            index += 2
            continue
        if in_class:
            if char == "[":
                if out and out[-1] == "-":
                    raise ExprError("regex character class subtraction is not supported")
                out.append("\\[")
            elif char == "]":
                in_class = False
                out.append("]")
            elif char in "&~|":
                out.append("\\" + char)  # Python reserves doubled &, ~, | in classes for set operations
            else:
                out.append(char)
        elif extended and char in _WHITESPACE:
            pass
        elif char == "[":
            in_class = True
            out.append("[")
        elif char == ".":
            out.append("." if dot_all else r"[^\n\r]")
        elif char == "$":
            out.append("$" if multiline else r"\Z")
        elif char == "(" and pattern.startswith("(?", index):
            if not pattern.startswith("(?:", index):
                raise ExprError("regex group syntax (?...) other than (?:...) is not supported")
            out.append("(?:")
            index += 3
            continue
        else:
            out.append(char)
        index += 1
    if in_class:
        raise ExprError("regex has an unterminated character class")
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
    if "q" in flags:
        source = re.escape(pattern)
    else:
        source = _translate(pattern, "s" in flags, "m" in flags, "x" in flags)
    try:
        return re.compile(source, python_flags)
    except (re.error, OverflowError, RecursionError) as error:  # all mean: Python cannot compile it
        raise ExprError(f"invalid regex {pattern!r}: {error}") from None
