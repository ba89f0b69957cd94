"""The timelist (Section 7) keeps every occurrence of a kept triple in the window, in stamp order, and lets a triple leave with its last occurrence.

Stamps only grow, so entries are appended in order and the expired prefix is found by binary
search, as in the paper. An entry is its stamp and three term ids in two flat arrays (20 bytes, no
object per triple): the window's triples are held once, here, and as rows in the views.

Whether a triple is already in the window is the caller's to say (the conductor asks the views,
which hold exactly the window's rows): ``add`` records a triple new to the window, ``restamp`` one
seen again. A triple seen again gets a new entry and one more pending occurrence; at eviction an
entry whose triple still has a later occurrence only uses one up, so the triple leaves when its
last occurrence does. Repeats are rare, so the count of later occurrences is kept only for them.
"""

from __future__ import annotations

from array import array
from bisect import bisect_left

_NEVER = float("inf")
_COMPACT_AFTER = 1024  # evicted entries kept before the arrays are shifted down


class Timelist:
    __slots__ = ("_stamps", "_ids", "_head", "_later", "_repeats", "oldest")

    def __init__(self) -> None:
        self._stamps = array("q")  # non-decreasing
        self._ids = array("I")  # s, p, o of each entry, three per entry
        self._head = 0  # entries before it are evicted; compacted lazily
        self._later: dict[tuple[int, int, int], int] = {}  # triple -> occurrences after its oldest live one
        self._repeats = 0  # the sum of ``_later``: live entries that are not a distinct triple
        # the first live entry's stamp (infinite when none): nothing can expire before it passes
        self.oldest: float = _NEVER

    def add(self, triple: tuple[int, int, int], stamp: int) -> None:
        """Record a triple that was not in the window."""
        if self.oldest is _NEVER:
            self.oldest = stamp
        self._stamps.append(stamp)
        self._ids.extend(triple)

    def restamp(self, triple: tuple[int, int, int], stamp: int) -> None:
        """Record one more occurrence of a triple already in the window: it now leaves with this one."""
        later = self._later
        later[triple] = later.get(triple, 0) + 1
        self._repeats += 1
        self.add(triple, stamp)

    def evict_before(self, cutoff: int) -> list[tuple[int, int, int]]:
        """Remove every entry stamped below ``cutoff``; return the triples whose last occurrence that was."""
        stamps = self._stamps
        first = self._head
        if first == len(stamps) or stamps[first] >= cutoff:
            return []
        last = bisect_left(stamps, cutoff, first)
        if last == first + 1:  # one entry, the common case of one-triple events: no slice to build
            ids, at = self._ids, 3 * first
            triples = [(ids[at], ids[at + 1], ids[at + 2])]
        else:
            ids = iter(self._ids[3 * first:3 * last])
            triples = zip(ids, ids, ids)
        later = self._later
        if later:
            expired = []
            for triple in triples:
                count = later.get(triple)
                if count is None:
                    expired.append(triple)
                else:
                    self._repeats -= 1
                    if count == 1:
                        del later[triple]
                    else:
                        later[triple] = count - 1
        else:
            expired = list(triples)
        self._head = last
        self.oldest = stamps[last] if last < len(stamps) else _NEVER
        if last > _COMPACT_AFTER and last * 2 > len(stamps):
            del stamps[:last]
            del self._ids[:3 * last]
            self._head = 0
        return expired

    def __len__(self) -> int:
        """Distinct triples in the window."""
        return self.entries - self._repeats

    @property
    def entries(self) -> int:
        """Live entries, repeats included (memory analysis)."""
        return len(self._stamps) - self._head
