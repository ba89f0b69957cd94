"""Window specifications and durations parse to whole milliseconds, and bad ones say what the good ones are."""

from __future__ import annotations

import pytest

from common.errors import StreamError, WindowError
from engines.model.stream import INSERT, Event, Update, Window
from engines.model.windows import parse_duration, parse_iso_duration, parse_window
from engines.window_state import WindowState


@pytest.mark.parametrize(("text", "ms"), [
    ("250", 250), ("250ms", 250), ("5s", 5000), ("1.5s", 1500), ("2min", 120_000), ("1h", 3_600_000), ("PT2S", 2000),
    ("7d", 604_800_000), ("0.5d", 43_200_000),
])
def test_durations(text, ms):
    assert parse_duration(text) == ms


@pytest.mark.parametrize(("text", "ms"), [("PT10S", 10_000), ("PT1M30S", 90_000), ("PT0.5S", 500), ("P1DT1H", 90_000_000)])
def test_iso_durations(text, ms):
    assert parse_iso_duration(text) == ms


@pytest.mark.parametrize("text", ["", "5 days", "-3", "1.0005s", "PT", "P", "PT1.0001S"])
def test_bad_durations(text):
    with pytest.raises(WindowError):
        parse_duration(text)


@pytest.mark.parametrize(("spec", "window"), [
    ("sliding:10s:1s", Window.sliding(10_000, 1_000)),
    ("sliding:100:100", Window.tumbling(100)),
    ("tumbling:5min", Window.tumbling(300_000)),
    ("sliding:7d:1d", Window.sliding(604_800_000, 86_400_000)),
    ("event", Window("event")),
    ("unbounded", Window("unbounded")),
])
def test_window_specs(spec, window):
    assert parse_window(spec) == window
    assert parse_window(window.spec()) == window


@pytest.mark.parametrize(("spec", "message"), [
    ("sliding:10", "expected sliding:RANGE:SLIDE"),
    ("sliding:1:2", "slide <= range"),
    ("sliding:0:0", "slide <= range"),
    ("hopping:3", "expected"),
    ("event:3", "expected"),
])
def test_bad_window_specs(spec, message):
    with pytest.raises(WindowError, match=message):
        parse_window(spec)


def test_window_start_follows_the_formula():
    window = Window.sliding(4, 2)
    assert [window.start(t) for t in (0, 1, 2, 3, 5, 6, 9)] == [-2, -2, 0, 0, 2, 4, 6]
    assert Window.tumbling(4).start(7) == 4
    assert Window("unbounded").start(7) is None


@pytest.mark.parametrize("spec", ["unbounded", "sliding:10:1", "event"])
def test_the_window_state_refuses_a_timestamp_before_the_previous_one(spec):
    state = WindowState(parse_window(spec))
    triple = ("<http://ex/a>", "<http://ex/p>", "<http://ex/b>")
    state.advance(Event(0, 5, (Update(INSERT, *triple),)))
    state.advance(Event(1, 5, ()))  # the same timestamp again is fine
    with pytest.raises(StreamError, match=r"^event 2: timestamp 3 is before the previous 5$"):
        state.advance(Event(2, 3, ()))


@pytest.mark.parametrize(("args", "message"), [
    (("weird",), "unknown window kind 'weird'; expected one of sliding, event, unbounded"),
    (("sliding",), "a sliding window needs a range and a slide"),
    (("sliding", 10), "a sliding window needs a range and a slide"),
    (("sliding", 10, 0), "sliding window needs 1 <= slide <= range, got range=10ms slide=0ms"),
    (("sliding", 10, 11), "sliding window needs 1 <= slide <= range, got range=10ms slide=11ms"),
    (("event", 10), "an event window takes no range or slide"),
    (("unbounded", None, 5), "an unbounded window takes no range or slide"),
])
def test_a_window_that_cannot_be_says_why_exactly(args, message):
    with pytest.raises(WindowError) as caught:
        Window(*args)
    assert str(caught.value) == message
    assert Window("sliding", 10, 10).slide_ms == 10 and Window("sliding", 10, 1).range_ms == 10  # the bounds hold
