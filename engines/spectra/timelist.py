"""The timelist (Section 7) keeps, for every triple in the window, the latest stamp it was seen at, in stamp order.

Stamps only grow, so entries are appended in order and the expired prefix is found by binary
search, as in the paper. A triple seen again is stamped anew; its older entry is left behind and
skipped at eviction (it is no longer the triple's latest), so a triple present twice in the window
leaves it only when its last occurrence does.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Hashable

_NEVER = float("inf")


class Timelist:
    __slots__ = ("_stamps", "_batches", "_head", "latest", "oldest")

    def __init__(self) -> None:
        self._stamps: list[int] = []  # distinct, increasing
        self._batches: list[list[Hashable]] = []  # the keys stamped at each stamp
        self._head = 0  # entries before it are evicted; compacted lazily
        self.latest: dict[Hashable, int] = {}
        # the first live entry's stamp (infinite when none): nothing can expire before it passes
        self.oldest: float = _NEVER

    def stamp(self, key: Hashable, stamp: int) -> bool:
        """Record ``key`` at ``stamp``; True when it was not in the window before."""
        fresh = key not in self.latest
        self.latest[key] = stamp
        if self._stamps and self._stamps[-1] == stamp and len(self._stamps) > self._head:
            self._batches[-1].append(key)
        else:
            if self._head == len(self._stamps):
                self.oldest = stamp
            self._stamps.append(stamp)
            self._batches.append([key])
        return fresh

    def __contains__(self, key: Hashable) -> bool:
        return key in self.latest

    def evict_before(self, cutoff: int) -> list[Hashable]:
        """Remove and return every key whose latest stamp is below ``cutoff``."""
        stamps = self._stamps
        head = self._head
        if head == len(stamps) or stamps[head] >= cutoff:
            return []
        end = bisect_left(stamps, cutoff, head)
        latest = self.latest
        expired = []
        for position in range(head, end):
            stamp = stamps[position]
            for key in self._batches[position]:
                if latest.get(key) == stamp:
                    del latest[key]
                    expired.append(key)
            self._batches[position] = None  # type: ignore[call-overload]
        self._head = end
        self.oldest = stamps[end] if end < len(stamps) else _NEVER
        if end > 1024 and end * 2 > len(stamps):
            del stamps[:end]
            del self._batches[:end]
            self._head = 0
        return expired

    def __len__(self) -> int:
        return len(self.latest)

    @property
    def entries(self) -> int:
        """Live entries, stale ones included (memory analysis)."""
        return sum(len(batch) for batch in self._batches[self._head:])
