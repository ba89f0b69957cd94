"""Window specifications read from the command line and from RSP-QL durations, always to whole milliseconds.

``sliding:RANGE:SLIDE``, ``tumbling:RANGE``, ``event`` and ``unbounded``; a duration is a whole
number of milliseconds, or a number with ``ms``, ``s``, ``min``, ``h`` or ``d`` (a day of stream time,
24 h: streams of social networks span weeks). RSP-QL's ISO 8601
durations (``PT10S``, ``PT1M30S``, ``PT0.5S``) are read by ``parse_iso_duration``.
"""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation

from common.errors import WindowError
from engines.model.stream import Window

_UNITS_MS = {"ms": 1, "s": 1000, "min": 60_000, "h": 3_600_000, "d": 86_400_000}
_DURATION = re.compile(r"\s*(\d+(?:\.\d+)?)\s*(ms|s|min|h|d)?\s*")
DURATION_UNITS = "ms, s, min, h or d"
_ISO = re.compile(r"P(?:(\d+(?:\.\d+)?)D)?(?:T(?:(\d+(?:\.\d+)?)H)?(?:(\d+(?:\.\d+)?)M)?(?:(\d+(?:\.\d+)?)S)?)?", re.I)

WINDOW_FORMS = "sliding:RANGE:SLIDE, tumbling:RANGE, event or unbounded"


def _whole_ms(amount: Decimal, text: str) -> int:
    if amount != amount.to_integral_value():
        raise WindowError(f"duration {text!r} is not a whole number of milliseconds")
    return int(amount)


def parse_duration(text: str) -> int:
    """Milliseconds in ``text`` (``250``, ``250ms``, ``5s``, ``2min``, ``1h``, ``7d``, or ISO ``PT5S``)."""
    if text.upper().startswith("P"):
        return parse_iso_duration(text)
    match = _DURATION.fullmatch(text)
    if match is None:
        raise WindowError(f"bad duration {text!r}: expected milliseconds or a number with {DURATION_UNITS}")
    amount = Decimal(match.group(1)) * _UNITS_MS[match.group(2) or "ms"]
    return _whole_ms(amount, text)


def parse_iso_duration(text: str) -> int:
    """Milliseconds in an ISO 8601 duration without years or months (``PT10S``, ``P1DT2H``)."""
    match = _ISO.fullmatch(text.strip())
    if match is None or not any(match.groups()) or text.strip().upper().endswith("T"):
        raise WindowError(f"bad ISO 8601 duration {text!r} (expected e.g. PT10S, PT1M30S)")
    days, hours, minutes, seconds = (Decimal(g) if g else Decimal(0) for g in match.groups())
    try:
        amount = ((days * 24 + hours) * 60 + minutes) * 60_000 + seconds * 1000
    except InvalidOperation:
        raise WindowError(f"bad ISO 8601 duration {text!r}") from None
    return _whole_ms(amount, text)


def parse_window(spec: str) -> Window:
    """A Window from its command-line form; a bad form is a WindowError that lists the good ones."""
    parts = spec.strip().split(":")
    kind = parts[0].lower()
    if kind in ("event", "unbounded") and len(parts) == 1:
        return Window(kind)
    if kind == "sliding" and len(parts) == 3:
        return Window.sliding(parse_duration(parts[1]), parse_duration(parts[2]))
    if kind == "tumbling" and len(parts) == 2:
        return Window.tumbling(parse_duration(parts[1]))
    raise WindowError(f"bad window {spec!r}: expected {WINDOW_FORMS}")
