"""Every term that enters cgpm-bench is an N-Triples string in one canonical form, so equal RDF terms are equal strings.

RDF 1.1 term identity decides what is canonicalised and what is kept:

- ``"x"^^xsd:string`` and ``"x"`` are one term (RDF 1.1): the datatype is dropped.
- Escapes are one spelling of the same characters: ``\\u0041`` becomes ``A``, and the canonical
  N-Triples escapes (``\\\\``, ``\\"``, ``\\n``, ``\\r``) are used for the rest.
  In an IRI, an escaped character that may not stand there raw (a space, ``>``) stays escaped,
  spelled ``\\uXXXX`` with upper-case hex digits. An escape of a surrogate or of a number beyond
  U+10FFFF is malformed.
- Language tags are case-insensitive (BCP 47): they are lower-cased.
- Lexical forms are kept exactly: ``"01"^^xsd:integer`` and ``"1"^^xsd:integer`` are different
  terms whose values are equal (``engines.model.filters`` compares values).

Parsing validates too: a malformed term raises TermError naming the term.
"""

from __future__ import annotations

import re
from functools import lru_cache

from common.errors import TermError

XSD = "http://www.w3.org/2001/XMLSchema#"
RDF = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
XSD_STRING = f"<{XSD}string>"
RDF_LANGSTRING = f"<{RDF}langString>"

_UCHAR = r"\\u[0-9A-Fa-f]{4}|\\U[0-9A-Fa-f]{8}"
_IRIREF = rf'<(?:[^\x00-\x20<>"{{}}|^`\\]|{_UCHAR})*>'
_PN_CHARS_BASE = (
    "A-Za-z\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u02ff\u0370-\u037d\u037f-\u1fff\u200c-\u200d"
    "\u2070-\u218f\u2c00-\u2fef\u3001-\ud7ff\uf900-\ufdcf\ufdf0-\ufffd\U00010000-\U000effff"
)
_PN_CHARS_U = _PN_CHARS_BASE + "_:"
_PN_CHARS = _PN_CHARS_U + r"\-0-9\u00b7\u0300-\u036f\u203f-\u2040"
_BNODE = rf"_:[{_PN_CHARS_U}0-9](?:[{_PN_CHARS}.]*[{_PN_CHARS}])?"
_STRING = rf'"(?:[^"\\\n\r]|\\[tbnrf"\'\\]|{_UCHAR})*"'
_LANGTAG = r"@[a-zA-Z]+(?:-[a-zA-Z0-9]+)*"

IRI_RE = re.compile(_IRIREF)
BNODE_RE = re.compile(_BNODE)
LITERAL_RE = re.compile(rf"({_STRING})(?:\^\^({_IRIREF})|({_LANGTAG}))?")
TERM_RE = re.compile(rf"{_IRIREF}|{_BNODE}|{_STRING}(?:\^\^{_IRIREF}|{_LANGTAG})?")

_ESCAPE_RE = re.compile(rf'\\[tbnrf"\'\\]|{_UCHAR}')
_ECHAR = {"t": "\t", "b": "\b", "n": "\n", "r": "\r", "f": "\f", '"': '"', "'": "'", "\\": "\\"}


def _code_point(escape: str) -> str:
    """The character a UCHAR stands for; a surrogate or a number beyond U+10FFFF is no character."""
    code = int(escape[2:], 16)
    if code > 0x10FFFF or 0xD800 <= code <= 0xDFFF:
        raise TermError(f"escape {escape} is not a Unicode character")
    return chr(code)


def _unescape_match(match: re.Match) -> str:
    text = match.group(0)
    if text[1] in "uU":
        return _code_point(text)
    return _ECHAR[text[1]]


_IRI_CHAR_RE = re.compile(r'[^\x00-\x20<>"{}|^`\\]')
_UCHAR_RE = re.compile(_UCHAR)


def _iri_unescape_match(match: re.Match) -> str:
    """Decode a UCHAR in an IRI when the character may stand there; otherwise spell it one canonical way."""
    char = _code_point(match.group(0))
    if _IRI_CHAR_RE.fullmatch(char):
        return char
    code = ord(char)
    return f"\\u{code:04X}" if code <= 0xFFFF else f"\\U{code:08X}"


def unescape(text: str) -> str:
    """Decode N-Triples ECHAR and UCHAR escapes."""
    if "\\" not in text:
        return text
    return _ESCAPE_RE.sub(_unescape_match, text)


def escape_lexical(text: str) -> str:
    """The canonical N-Triples escaping of a literal's lexical form."""
    if not any(c in text for c in '\\"\n\r'):
        return text
    return text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\r", "\\r")


def iri(value: str) -> str:
    return f"<{value}>"


def literal(lexical: str, datatype: str | None = None, lang: str | None = None) -> str:
    """The canonical term for a literal; ``datatype`` is an IRI without angle brackets."""
    body = f'"{escape_lexical(lexical)}"'
    if lang:
        return f"{body}@{lang.lower()}"
    if datatype and datatype != XSD + "string":
        return f"{body}^^<{datatype}>"
    return body


def bnode(label: str) -> str:
    return f"_:{label}"


@lru_cache(maxsize=1 << 16)
def parse_term(text: str) -> str:
    """Validate one N-Triples term and return its canonical form; raise TermError if malformed."""
    if not text:
        raise TermError("empty term")
    first = text[0]
    if first == "<":
        if IRI_RE.fullmatch(text) is None:
            raise TermError(f"malformed IRI {text!r}")
        if "\\" in text:
            return _UCHAR_RE.sub(_iri_unescape_match, text)
        return text
    if first == "_":
        if BNODE_RE.fullmatch(text) is None:
            raise TermError(f"malformed blank node {text!r}")
        return text
    if first == '"':
        match = LITERAL_RE.fullmatch(text)
        if match is None:
            raise TermError(f"malformed literal {text!r}")
        quoted, datatype, lang = match.groups()
        lexical = unescape(quoted[1:-1])
        if datatype is not None:
            datatype = parse_term(datatype)
            if datatype == RDF_LANGSTRING:
                raise TermError(f"rdf:langString literal without a language tag {text!r}")
            return literal(lexical, datatype[1:-1])
        return literal(lexical, None, lang[1:] if lang else None)
    raise TermError(f"malformed term {text!r} (expected <iri>, _:bnode or \"literal\")")


def term_kind(term: str) -> str:
    """``iri``, ``bnode`` or ``literal`` for a canonical term."""
    first = term[0]
    if first == "<":
        return "iri"
    if first == "_":
        return "bnode"
    return "literal"


def literal_parts(term: str) -> tuple[str, str | None, str | None]:
    """``(lexical form, datatype IRI without brackets or None, language or None)`` of a canonical literal."""
    end = term.rfind('"')
    lexical = unescape(term[1:end])
    rest = term[end + 1 :]
    if rest.startswith("^^"):
        return lexical, rest[3:-1], None
    if rest.startswith("@"):
        return lexical, None, rest[1:]
    return lexical, None, None


def check_triple(s: str, p: str, o: str) -> tuple[str, str, str]:
    """Canonical (s, p, o); raise TermError for a malformed term or a literal/blank node out of place."""
    s, p, o = parse_term(s), parse_term(p), parse_term(o)
    if s[0] == '"':
        raise TermError(f"literal {s} in subject position")
    if p[0] != "<":
        kind = "literal" if p[0] == '"' else "blank node"
        raise TermError(f"{kind} {p} in predicate position")
    return s, p, o
