"""A stored term that a column-wise pattern calls plain is exactly its own canonical form, valid in its position.

``engines.model.terms.parse_term`` validates and canonicalises one string at a time in Python, which
costs microseconds per distinct term: on a stream whose literals are mostly distinct (taxi's times,
places and fares; SNB's contents) it was most of the reading time. Most stored terms need no change:
an IRI without a backslash, a literal whose lexical form has no quote, backslash or line break, with a
datatype IRI of the same kind (not ``xsd:string``, which canonical form drops, nor ``rdf:langString``,
which needs a tag) or a lower-case language tag. For those ``parse_term`` returns its input unchanged,
so an RE2 match over the whole Arrow dictionary at once decides them; every other term still goes
through ``parse_term`` and its errors. The patterns only ever admit a subset of what ``parse_term``
accepts unchanged: tests/harness/test_plain_terms.py holds them to it on random strings.
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from engines.model.terms import RDF_LANGSTRING, XSD_STRING

# An IRIREF without UCHAR escapes: parse_term keeps it as it is.
_IRI = r'<[^\x00-\x20<>"{}|^`\\]*>'
# A blank node label of ASCII name characters (a subset of BLANK_NODE_LABEL: no '.' last).
_BNODE = r"_:[A-Za-z0-9_](?:[A-Za-z0-9_.\-]*[A-Za-z0-9_\-])?"
# A literal without escapes or characters that canonical escaping would change, typed or with a lower-case tag.
_LITERAL = rf'"[^"\\\n\r]*"(?:\^\^{_IRI}|@[a-z]+(?:-[a-z0-9]+)*)?'

_PATTERNS = {
    "s": rf"^(?:{_IRI}|{_BNODE})$",  # no literal as subject
    "p": rf"^{_IRI}$",
    "o": rf"^(?:{_IRI}|{_BNODE}|{_LITERAL})$",
}
# Datatypes a plain-looking literal may not keep: canonical form drops xsd:string; rdf:langString needs a tag.
_CHANGED_SUFFIXES = (f'"^^{XSD_STRING}', f'"^^{RDF_LANGSTRING}')


def plain_terms(dictionary: pa.Array, column: str) -> np.ndarray:
    """For each string of ``dictionary`` (terms as stored in column ``column``), whether it is plainly canonical there."""
    plain = pc.fill_null(pc.match_substring_regex(dictionary, _PATTERNS[column]), False)
    if column == "o":
        for suffix in _CHANGED_SUFFIXES:
            plain = pc.and_(plain, pc.invert(pc.ends_with(dictionary, suffix)))
    return plain.to_numpy(zero_copy_only=False).astype(bool, copy=False)
