"""A cell's answer history is summarised by its counts and an order-independent digest, so two engines' answers compare in one run.

Two engines that compute the same answer history (DESIGN.md section 2: the same deltas at the same instants) give
the same digest, whatever order each lists a delta's rows in and whatever process or machine ran them: the digest
is the sum, modulo 2^64, of a keyed-free BLAKE2b hash (8 bytes) of each row ``(instant, sign, full mapping)``,
where ``instant`` is the event's position in the pass (0-based), ``sign`` is ``+`` for an added row and ``-`` for
a removed one, and the full mapping is the query's variables' terms in ``ContinuousQuery.variables`` order (never
the projection: two engines may differ on nothing a SELECT shows and still differ here, as verification does).
A sum is kept rather than a XOR so that a bag's repeated rows count (the same row added twice is not a row
added zero times).

Hashing is the harness's work, not the engine's: the timed loop times it apart and takes it out of its wall and
CPU time, as it does folding latencies; it runs over the first pass only (a short cell repeats its pass), and
touches only non-empty deltas (most events of a selective query change nothing).
"""

from __future__ import annotations

from hashlib import blake2b

MODULUS = 1 << 64
SEPARATOR = "\x1f"  # the ASCII unit separator: in no N-Triples term, so rows with different terms hash different texts


class AnswerDigest:
    """The digest and counts of one pass's answer history, fed delta by delta."""

    __slots__ = ("value", "added", "removed")

    def __init__(self) -> None:
        self.value = 0
        self.added = 0
        self.removed = 0

    def record(self, instant: int, delta) -> None:
        """Fold the rows of ``delta``, the change at ``instant``; an empty delta changes nothing."""
        total = self.value
        for sign, rows in (("+", delta.added), ("-", delta.removed)):
            prefix = f"{instant}{SEPARATOR}{sign}{SEPARATOR}"
            for mapping in rows:
                text = prefix + SEPARATOR.join(mapping)
                total += int.from_bytes(blake2b(text.encode("utf-8"), digest_size=8).digest(), "little")
        self.value = total % MODULUS
        self.added += len(delta.added)
        self.removed += len(delta.removed)

    @property
    def hex(self) -> str:
        """The digest as 16 hexadecimal digits: a text column, since CSV and pandas have no unsigned 64-bit integer."""
        return f"{self.value:016x}"

    def columns(self) -> dict:
        """The row's answer columns: rows added and removed over the pass, and the digest."""
        return {"answers_added": self.added, "answers_removed": self.removed, "answer_digest": self.hex}


def digest_of(steps) -> AnswerDigest:
    """The digest of an answer history given as ``(instant, delta)`` pairs (tests and tools; the timed loop feeds it itself)."""
    digest = AnswerDigest()
    for instant, delta in steps:
        if delta.added or delta.removed:
            digest.record(instant, delta)
    return digest
