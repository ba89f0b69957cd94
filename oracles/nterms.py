"""The oracles' own reading and writing of N-Triples terms, kept apart from ``engines.model.terms`` so a bug there cannot hide itself.

A term string is split into its parts (IRI, blank node label, or literal lexical form with datatype
or language) and turned into rdflib or pyoxigraph terms. ``canonical`` writes the parts back in the
canonical form the model uses (RDF 1.1 identity: ``"x"^^xsd:string`` is ``"x"``, language tags in
lower case, only ``\\\\``, ``\\"``, ``\\n`` and ``\\r`` escaped), so the oracles can check that terms
coming back from a SPARQL engine are the ones that went in.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from common.errors import TermError

XSD = "http://www.w3.org/2001/XMLSchema#"
XSD_STRING = XSD + "string"
RDF = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
RDFS = "http://www.w3.org/2000/01/rdf-schema#"
OWL = "http://www.w3.org/2002/07/owl#"
RDF_TYPE = f"<{RDF}type>"

_ESCAPE = re.compile(r'\\(?:u([0-9A-Fa-f]{4})|U([0-9A-Fa-f]{8})|([tbnrf"\'\\]))')
_SIMPLE_ESCAPES = {"t": "\t", "b": "\b", "n": "\n", "r": "\r", "f": "\f", '"': '"', "'": "'", "\\": "\\"}
_LITERAL = re.compile(r'"((?:[^"\\]|\\.)*)"(?:\^\^<([^>]*)>|@([A-Za-z]+(?:-[A-Za-z0-9]+)*))?', re.S)


class Parts(NamedTuple):
    """One term split up: ``kind`` is ``iri``, ``bnode`` or ``literal``; ``value`` the IRI, label or lexical form."""

    kind: str
    value: str
    datatype: str | None = None  # IRI without brackets; None for simple and language-tagged literals
    lang: str | None = None


def _unescape(text: str) -> str:
    def replace(match: re.Match) -> str:
        short, long, simple = match.groups()
        if simple is not None:
            return _SIMPLE_ESCAPES[simple]
        return chr(int(short or long, 16))

    return _ESCAPE.sub(replace, text) if "\\" in text else text


def split(term: str) -> Parts:
    """The parts of one N-Triples term; TermError when it is none of the three kinds."""
    if term.startswith("<") and term.endswith(">"):
        return Parts("iri", _unescape(term[1:-1]))
    if term.startswith("_:") and len(term) > 2:
        return Parts("bnode", term[2:])
    match = _LITERAL.fullmatch(term)
    if match is None:
        raise TermError(f"oracle cannot read term {term!r}")
    lexical, datatype, lang = match.groups()
    lexical = _unescape(lexical)
    if lang:
        return Parts("literal", lexical, None, lang.lower())
    if datatype is not None:
        datatype = _unescape(datatype)
        if datatype == XSD_STRING:
            datatype = None
    return Parts("literal", lexical, datatype, None)


def _escape(lexical: str) -> str:
    return lexical.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\r", "\\r")


def canonical(parts: Parts) -> str:
    """The canonical N-Triples string of a term given by its parts."""
    if parts.kind == "iri":
        return f"<{parts.value}>"
    if parts.kind == "bnode":
        return f"_:{parts.value}"
    body = f'"{_escape(parts.value)}"'
    if parts.lang:
        return f"{body}@{parts.lang.lower()}"
    if parts.datatype and parts.datatype != XSD_STRING:
        return f"{body}^^<{parts.datatype}>"
    return body


# ---------------------------------------------------------------- rdflib


def to_rdflib(term: str):
    """The rdflib term for a canonical term (lexical forms kept: rdflib.NORMALIZE_LITERALS must be False)."""
    from rdflib import BNode, Literal, URIRef

    parts = split(term)
    if parts.kind == "iri":
        return URIRef(parts.value)
    if parts.kind == "bnode":
        return BNode(parts.value)
    if parts.lang:
        return Literal(parts.value, lang=parts.lang)
    if parts.datatype:
        return Literal(parts.value, datatype=URIRef(parts.datatype))
    return Literal(parts.value)


def from_rdflib(node) -> str:
    """The canonical string of an rdflib term (variables as ``?name``)."""
    from rdflib import BNode, Literal, URIRef, Variable

    if isinstance(node, Variable):
        return "?" + str(node)
    if isinstance(node, URIRef):
        return canonical(Parts("iri", str(node)))
    if isinstance(node, BNode):
        return canonical(Parts("bnode", str(node)))
    if isinstance(node, Literal):
        datatype = str(node.datatype) if node.datatype is not None else None
        return canonical(Parts("literal", str(node), datatype, node.language))
    raise TermError(f"oracle cannot convert rdflib node {node!r}")


# ---------------------------------------------------------------- pyoxigraph


def to_oxigraph(term: str):
    """The pyoxigraph term for a canonical term (pyoxigraph may normalise typed literals when storing them)."""
    import pyoxigraph as ox

    parts = split(term)
    if parts.kind == "iri":
        return ox.NamedNode(parts.value)
    if parts.kind == "bnode":
        return ox.BlankNode(parts.value)
    if parts.lang:
        return ox.Literal(parts.value, language=parts.lang)
    if parts.datatype:
        return ox.Literal(parts.value, datatype=ox.NamedNode(parts.datatype))
    return ox.Literal(parts.value)


def from_oxigraph(node) -> str:
    """The canonical string of a pyoxigraph term."""
    import pyoxigraph as ox

    if isinstance(node, ox.NamedNode):
        return canonical(Parts("iri", node.value))
    if isinstance(node, ox.BlankNode):
        return canonical(Parts("bnode", node.value))
    if isinstance(node, ox.Literal):
        datatype = node.datatype.value if node.language is None else None
        return canonical(Parts("literal", node.value, datatype, node.language))
    raise TermError(f"oracle cannot convert pyoxigraph node {node!r}")
