"""A term column read in many chunks (one very large event) is encoded as if read in one: same strings, same rows."""

from __future__ import annotations

import pyarrow as pa
from hypothesis import given, settings
from hypothesis import strategies as st

from harness.streams import table


def _decoded(dictionary: pa.Array, indices) -> list[str]:
    strings = dictionary.to_pylist()
    return [strings[index] for index in indices]


@settings(max_examples=60, deadline=None)
@given(rows=st.lists(st.sampled_from(["<a>", "<b>", '"x"', '"y"@en', "_:b1"]), min_size=1, max_size=60),
       chunk=st.integers(1, 7), limit=st.sampled_from([1, 40, 1 << 30]))
def test_many_chunks_encode_as_one(rows, chunk, limit):
    column = pa.chunked_array([pa.array(rows[start:start + chunk], pa.string()) for start in range(0, len(rows), chunk)])
    saved = table.COMBINED_TEXT_BYTES
    table.COMBINED_TEXT_BYTES = limit  # a small limit keeps several groups, as 2 GiB of text would
    try:
        dictionary, indices = table._dictionary(column)
    finally:
        table.COMBINED_TEXT_BYTES = saved
    assert _decoded(dictionary, indices) == rows
    assert sorted(dictionary.to_pylist()) == sorted(set(rows))


def test_groups_stay_under_the_limit_and_keep_order():
    chunks = [pa.array([f"<t{number}>"] * 10, pa.string()) for number in range(9)]
    limit = chunks[0].nbytes * 3
    saved = table.COMBINED_TEXT_BYTES
    table.COMBINED_TEXT_BYTES = limit
    try:
        combined = table._combined(pa.chunked_array(chunks))
    finally:
        table.COMBINED_TEXT_BYTES = saved
    assert combined.num_chunks == 3
    assert all(chunk.nbytes <= limit for chunk in combined.chunks)
    assert combined.to_pylist() == pa.chunked_array(chunks).to_pylist()
