"""The timelist (Section 7) keeps every occurrence of a kept triple in the window, in stamp order, and lets a triple leave with its last occurrence.

Stamps only grow, so entries are appended in order and the expired prefix is found by binary
search over the distinct stamps, as in the paper. An entry is three term ids in flat arrays (12
bytes, no object per triple): the window's triples are held once, here, and as rows in the views.

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
_COMPACT_AFTER = 1024  # evicted batches kept before the arrays are shifted down


class Timelist:
    __slots__ = ("_subjects", "_predicates", "_objects", "_stamps", "_ends", "_head", "_later", "size", "oldest")

    def __init__(self) -> None:
        self._subjects = array("I")
        self._predicates = array("I")
        self._objects = array("I")
        self._stamps = array("q")  # distinct, increasing: one batch of entries per stamp
        self._ends = array("q")  # the entry index where each batch ends
        self._head = 0  # batches before it are evicted; compacted lazily
        self._later: dict[tuple[int, int, int], int] = {}  # triple -> occurrences after its oldest live one
        self.size = 0  # distinct triples in the window
        # the first live entry's stamp (infinite when none): nothing can expire before it passes
        self.oldest: float = _NEVER

    def add(self, triple: tuple[int, int, int], stamp: int) -> None:
        """Record a triple that was not in the window."""
        self.size += 1
        s, p, o = triple
        self._subjects.append(s)
        self._predicates.append(p)
        self._objects.append(o)
        stamps = self._stamps
        if len(stamps) > self._head and stamps[-1] == stamp:
            self._ends[-1] += 1
        else:
            self._open_batch(stamp)

    def restamp(self, triple: tuple[int, int, int], stamp: int) -> None:
        """Record one more occurrence of a triple already in the window: it now leaves with this one."""
        later = self._later
        later[triple] = later.get(triple, 0) + 1
        self.size -= 1  # add counts it again
        self.add(triple, stamp)

    def _open_batch(self, stamp: int) -> None:
        if self._head == len(self._stamps):
            self.oldest = stamp
        self._stamps.append(stamp)
        self._ends.append(len(self._subjects))

    def evict_before(self, cutoff: int) -> list[tuple[int, int, int]]:
        """Remove every entry stamped below ``cutoff``; return the triples whose last occurrence that was."""
        stamps = self._stamps
        head = self._head
        if head == len(stamps) or stamps[head] >= cutoff:
            return []
        end = bisect_left(stamps, cutoff, head)
        first = self._ends[head - 1] if head else 0
        last = self._ends[end - 1]
        triples = zip(self._subjects[first:last], self._predicates[first:last], self._objects[first:last])
        later = self._later
        if later:
            expired = []
            for triple in triples:
                count = later.get(triple)
                if count is None:
                    expired.append(triple)
                elif count == 1:
                    del later[triple]
                else:
                    later[triple] = count - 1
        else:
            expired = list(triples)
        self.size -= len(expired)
        self._head = end
        self.oldest = stamps[end] if end < len(stamps) else _NEVER
        if end > _COMPACT_AFTER and end * 2 > len(stamps):
            self._compact(end, last)
        return expired

    def _compact(self, batches: int, entries: int) -> None:
        del self._stamps[:batches]
        self._ends = array("q", [position - entries for position in self._ends[batches:]])
        del self._subjects[:entries]
        del self._predicates[:entries]
        del self._objects[:entries]
        self._head = 0

    def __len__(self) -> int:
        return self.size

    @property
    def entries(self) -> int:
        """Live entries, repeats included (memory analysis)."""
        return len(self._subjects) - (self._ends[self._head - 1] if self._head else 0)
