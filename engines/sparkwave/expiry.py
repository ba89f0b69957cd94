"""The collection queue (Algorithm 1) holds every stamped α item once, in stamp order, with a code naming the α-memory that owns it.

A WME is queued each time it is stamped, as the item its first α-memory (its owner) holds then; a
re-stamped WME's earlier entries are stale, told apart by the owner's item no longer being that entry.
The entries are flat: a list of items and an array of owner codes (2 bytes an entry) read from a head
that moves on as entries leave (each read item let go at once), and per instant its stamp and how many
entries it stamped; the leading part already read is cut off once it is most of the list (amortised O(1)
an entry). No per-event container and no per-memory queue: an offer of ten patterns is one instant, not ten.
"""

from __future__ import annotations

from array import array
from collections import deque

_COMPACT_AT = 1 << 12  # entries read before the lists are cut (and then only past half of them)


class ExpiryQueue:
    """``push`` appends an instant's entries; ``due(start)`` gives the (item, owner code) entries stamped before ``start``."""

    __slots__ = ("items", "owners", "head", "stamps", "counts")

    def __init__(self) -> None:
        self.items: list[tuple] = []
        self.owners = array("H")
        self.head = 0
        self.stamps: deque[int] = deque()
        self.counts: deque[int] = deque()

    def __len__(self) -> int:
        return len(self.items) - self.head

    def push(self, stamp: int, items: list[tuple], owners: list[int]) -> None:
        self.items.extend(items)
        self.owners.extend(owners)
        self.stamps.append(stamp)
        self.counts.append(len(items))

    def due(self, start) -> range:
        """The positions of the entries stamped before ``start``, read by the caller from ``items`` and ``owners``
        before the next ``push``; they count as gone."""
        stamps, counts, first = self.stamps, self.counts, self.head
        end = first
        while stamps and stamps[0] < start:
            stamps.popleft()
            end += counts.popleft()
        self.head = end
        return range(first, end)

    def compact(self, read: range) -> None:
        """Let go of the items at ``read`` (read and done with), and cut the entries already read once they are
        most of the list."""
        self.items[read.start:read.stop] = [None] * len(read)  # a collected WME's item is freed now, not at the cut
        head = self.head
        if head >= _COMPACT_AT and 2 * head >= len(self.items):
            del self.items[:head]
            del self.owners[:head]
            self.head = 0
