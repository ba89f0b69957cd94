"""N-Triples terms built column-wise with Arrow string kernels: IRIs from numbers, typed literals, dateTimes, picks from word lists.

Every function returns canonical N-Triples strings (``<iri>``, ``"lex"^^<datatype>``, ``"plain"``),
the form the stream layout requires. Word lists hold only characters that need no escaping.
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

XSD = "http://www.w3.org/2001/XMLSchema#"
RDF_TYPE = "<http://www.w3.org/1999/02/22-rdf-syntax-ns#type>"


def join(*parts) -> pa.Array:
    """Element-wise concatenation of arrays and string scalars."""
    return pc.binary_join_element_wise(*parts, "")


def numbers(values) -> pa.Array:
    return pc.cast(pa.array(np.asarray(values, dtype=np.int64), pa.int64()), pa.string())


def padded(values, width: int) -> pa.Array:
    return pc.utf8_lpad(numbers(values), width, "0")


def iris(prefix: str, values, suffix: str = "", width: int = 0) -> pa.Array:
    """``<prefix{n}suffix>`` per number (zero-padded to ``width`` digits when given)."""
    text = padded(values, width) if width else numbers(values)
    return join(f"<{prefix}", text, f"{suffix}>")


def typed(lexical: pa.Array, datatype: str) -> pa.Array:
    return join('"', lexical, f'"^^<{XSD}{datatype}>')


def integer_literals(values, datatype: str = "integer") -> pa.Array:
    return typed(numbers(values), datatype)


def decimal_literals(values, digits: int, datatype: str = "double") -> pa.Array:
    """Fixed-point lexical forms with ``digits`` decimals (values are rounded first)."""
    scaled = np.round(np.asarray(values, dtype=np.float64) * 10**digits).astype(np.int64)
    magnitude = np.abs(scaled)
    whole = numbers(magnitude // 10**digits)
    fraction = pc.utf8_lpad(numbers(magnitude % 10**digits), digits, "0")
    sign = pa.array(np.where(scaled < 0, "-", ""), pa.string())
    return typed(join(sign, whole, ".", fraction), datatype)


def datetimes(ms, *, millis: bool = False) -> pa.Array:
    """``"yyyy-MM-ddTHH:mm:ss[.SSS]Z"^^xsd:dateTime`` (UTC) per epoch-millisecond value."""
    ms = np.asarray(ms, dtype=np.int64)
    if millis:
        text = pc.strftime(pa.array(ms, pa.timestamp("ms")), format="%Y-%m-%dT%H:%M:%S")
    else:
        text = pc.strftime(pa.array(ms // 1000, pa.timestamp("s")), format="%Y-%m-%dT%H:%M:%S")
    return typed(join(text, "Z"), "dateTime")


def dates(ms) -> pa.Array:
    text = pc.strftime(pa.array(np.asarray(ms, dtype=np.int64) // 1000, pa.timestamp("s")), format="%Y-%m-%d")
    return typed(text, "date")


def picks(words: pa.Array, indices) -> pa.Array:
    """``words[i]`` per index (``words`` already holds finished terms)."""
    return pc.take(words, pa.array(np.asarray(indices, dtype=np.int64)))


def constant(term: str, count: int) -> pa.Array:
    return pc.take(pa.array([term], pa.string()), pa.array(np.zeros(count, dtype=np.int32)))


def plain_words(words) -> pa.Array:
    return pa.array([f'"{word}"' for word in words], pa.string())


def ip_addresses(bits: np.ndarray) -> pa.Array:
    """Plain literals ``"a.b.c.d"`` from 32 random bits each."""
    bits = np.asarray(bits, dtype=np.uint64)
    octets = [numbers((bits >> np.uint64(shift)) & np.uint64(255)) for shift in (24, 16, 8, 0)]
    return join('"', octets[0], ".", octets[1], ".", octets[2], ".", octets[3], '"')
