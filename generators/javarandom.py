"""JavaRandom draws exactly the numbers ``java.util.Random`` draws for the same seed, so UBA can be replayed bit for bit.

The generator is Java's 48-bit linear congruential one (multiplier 0x5DEECE66D, addend 0xB);
``next_int(bound)`` keeps Java's two rules: a power-of-two bound takes the high bits, any other
bound rejects the draws that would bias the modulo. Java 17 still uses this legacy algorithm in
``java.util.Random`` (only the new RandomGenerator classes differ).
"""

from __future__ import annotations

_MULTIPLIER = 0x5DEECE66D
_ADDEND = 0xB
_MASK = (1 << 48) - 1
_INT_LIMIT = 1 << 31


class JavaRandom:
    """A port of ``java.util.Random``: ``setSeed``, ``next(bits)`` and ``nextInt(bound)``."""

    __slots__ = ("_seed",)

    def __init__(self, seed: int = 0) -> None:
        self._seed = 0
        self.set_seed(seed)

    def set_seed(self, seed: int) -> None:
        """Java's ``setSeed(long)``: the seed is scrambled and truncated to 48 bits."""
        self._seed = (seed ^ _MULTIPLIER) & _MASK

    def next_bits(self, bits: int) -> int:
        """Java's ``next(bits)``, as a signed 32-bit int like Java's ``(int)`` cast."""
        self._seed = (self._seed * _MULTIPLIER + _ADDEND) & _MASK
        value = self._seed >> (48 - bits)
        if value >= _INT_LIMIT:  # (int) cast of a 32-bit draw
            value -= 1 << 32
        return value

    def next_int(self, bound: int) -> int:
        """Java's ``nextInt(int bound)``: uniform in ``[0, bound)``."""
        if bound <= 0:
            raise ValueError(f"bound must be positive, got {bound}")
        seed = (self._seed * _MULTIPLIER + _ADDEND) & _MASK
        draw = seed >> 17
        if bound & (bound - 1) == 0:
            self._seed = seed
            return (bound * draw) >> 31
        value = draw % bound
        # Java rejects a draw when ``draw - value + (bound - 1)`` overflows a signed int.
        while draw - value + bound - 1 >= _INT_LIMIT:
            seed = (seed * _MULTIPLIER + _ADDEND) & _MASK
            draw = seed >> 17
            value = draw % bound
        self._seed = seed
        return value

    def range(self, low: int, high: int) -> int:
        """UBA's ``_getRandomFromRange(low, high)``: ``low + nextInt(high - low + 1)``, inclusive."""
        return low + self.next_int(high - low + 1)

    def sample(self, count: int, size: int) -> list[int]:
        """UBA's ``_getRandomList(count, 0, size - 1)``: ``count`` distinct picks from a shrinking list."""
        if count > 8:
            pool = list(range(size))
            return [pool.pop(self.next_int(size - taken)) for taken in range(count)]
        # Few picks from a long list: map the position in the shrinking list to the value it holds
        # (the position-th number not yet taken) instead of building the list.
        picks: list[int] = []
        taken: list[int] = []  # sorted
        for step in range(count):
            value = self.next_int(size - step)
            for earlier in taken:
                if earlier <= value:
                    value += 1
                else:
                    break
            picks.append(value)
            taken.insert(_insertion_point(taken, value), value)
        return picks


def _insertion_point(ordered: list[int], value: int) -> int:
    for index, item in enumerate(ordered):
        if item > value:
            return index
    return len(ordered)
