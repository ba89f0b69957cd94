"""The collection queue (Algorithm 1) holds every stamped α item once, in stamp order, with a code naming the α-memory that owns it.

A WME is queued each time it is stamped, as the item its first α-memory (its owner) holds then; a
re-stamped WME's earlier entries are stale, told apart by the owner's item no longer being that entry.
The entries are flat: a deque of items (each let go as it is read) and an array of owner codes (2 bytes
an entry) read from a head that moves on as entries leave, its read part cut off once it is most of the
array (amortised O(1) an entry); and per instant its stamp and how many entries it stamped. No per-event
container and no per-memory queue: an offer of ten patterns is one instant, not ten.
"""

from __future__ import annotations

from array import array
from collections import deque
from collections.abc import Iterator

_COMPACT_AT = 1 << 12  # owner codes read before the array is cut (and then only past half of it)


class ExpiryQueue:
    """``push`` appends an instant's entries; ``due(start)`` takes the (item, owner code) entries stamped before ``start``."""

    __slots__ = ("items", "owners", "head", "stamps", "counts")

    def __init__(self) -> None:
        self.items: deque[tuple] = deque()
        self.owners = array("H")
        self.head = 0
        self.stamps: deque[int] = deque()
        self.counts: deque[int] = deque()

    def __len__(self) -> int:
        return len(self.items)

    def push(self, stamp: int, items: list[tuple], owners: list[int]) -> None:
        self.items.extend(items)
        self.owners.extend(owners)
        self.stamps.append(stamp)
        self.counts.append(len(items))

    def due(self, start) -> int:
        """How many entries, from the front, were stamped before ``start``: the caller takes them with ``take``."""
        stamps, counts = self.stamps, self.counts
        due = 0
        while stamps and stamps[0] < start:
            stamps.popleft()
            due += counts.popleft()
        return due

    def take(self, count: int) -> Iterator[tuple[tuple, int]]:
        """The first ``count`` entries, each (item, owner code), leaving the queue as they are read."""
        items, owners, head = self.items, self.owners, self.head
        popleft = items.popleft
        for position in range(head, head + count):
            yield popleft(), owners[position]
        head += count
        if head >= _COMPACT_AT and 2 * head >= len(owners):
            del owners[:head]
            head = 0
        self.head = head
