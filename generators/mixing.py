"""One hash for every generator's random values: SplitMix64's finaliser, a bijection of uint64.

A generator derives each random value from (seed, field, entity, row id) by mixing, never from a
stream of draws, so a row's values do not depend on which partition makes it or in what order.
"""

from __future__ import annotations

import numpy as np

# 2^64 / φ: the SplitMix64 increment, used to spread consecutive ids before mixing.
GOLDEN = np.uint64(0x9E3779B97F4A7C15)


def mix(values: np.ndarray) -> np.ndarray:
    """SplitMix64's finaliser over a uint64 array: every input bit reaches every output bit."""
    with np.errstate(over="ignore"):
        values = values ^ (values >> np.uint64(30))
        values = values * np.uint64(0xBF58476D1CE4E5B9)
        values = values ^ (values >> np.uint64(27))
        values = values * np.uint64(0x94D049BB133111EB)
        return values ^ (values >> np.uint64(31))
