"""The worked examples in docs/semantics.md hold for the engines' window code and for the oracle's."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from engines.model.stream import DELETE, INSERT, Event, Update
from engines.model.windows import parse_window
from engines.window_state import WindowState
from tests.conformance.checks import triple

DOC = Path(__file__).resolve().parents[1] / "docs" / "semantics.md"
BLOCKS = re.findall(r"```window-example\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)
GRAPH_BLOCKS = re.findall(r"```dynamic-graph-example\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)


def _parse(block: str):
    lines = block.strip().splitlines()
    window = parse_window(lines[0].split(":", 1)[1].strip())
    timestamps = [int(t) for t in lines[1].split(":", 1)[1].split()]
    expected = {}
    for line in lines[3:]:
        instant, _, members = line.strip().partition(":")
        expected[int(instant[1:])] = {int(m[1:]) for m in members.split()}
    events = [Event(i, ts, (Update(INSERT, f"<http://ex/e{i}>", "<http://ex/p>", "<http://ex/o>"),))
              for i, ts in enumerate(timestamps)]
    return window, events, expected


def _members(content) -> set[int]:
    return {int(s[len("<http://ex/e"):-1]) for s, _, _ in content}


def test_the_page_has_examples():
    assert len(BLOCKS) >= 5 and GRAPH_BLOCKS


@pytest.mark.parametrize("block", BLOCKS, ids=[b.splitlines()[0].split(": ")[1] for b in BLOCKS])
def test_engine_window_state_follows_the_page(block):
    window, events, expected = _parse(block)
    state = WindowState(window)
    for event in events:
        state.advance(event)
        assert _members(state.content) == expected[event.index], f"after e{event.index}"


@pytest.mark.parametrize("block", BLOCKS, ids=[b.splitlines()[0].split(": ")[1] for b in BLOCKS])
def test_oracle_window_follows_the_page(block):
    from oracles.window import window_contents

    window, events, expected = _parse(block)
    for index, content in window_contents(events, window):
        assert _members(content) == expected[index], f"after e{index}"


def test_dynamic_graph_example():
    block = GRAPH_BLOCKS[0].strip().splitlines()
    updates = [Update(INSERT if line[0] == "+" else DELETE, *triple(line[2:])) for line in block if line[0] in "+-"]
    expected = {triple(line[3:]) for line in block if line.startswith("=>")}
    state = WindowState(parse_window("unbounded"))
    for index, update in enumerate(updates):
        state.advance(Event(index, index, (update,)))
    assert state.content == expected


STREAM_BLOCKS = re.findall(r"```streams-example\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)


def _parse_streams(block: str):
    """The named windows, each stream's events, and per merged instant: the event's name and each window's members."""
    from engines.model.stream import NamedWindow

    lines = block.strip().splitlines()
    windows = []
    for item in lines[0].split(":", 1)[1].split():
        name, _, rest = item.partition("=")
        spec, _, stream = rest.partition("@")
        windows.append(NamedWindow(name, stream, parse_window(spec)))
    streams = {}
    for line in lines[1:lines.index("instants:")]:
        stream, _, stamps = line.partition(":")
        streams[stream.strip()] = [Event(k, int(ts), (Update(INSERT, f"<http://ex/{stream.strip()}.{k}>", "<http://ex/p>",
                                                                     "<http://ex/o>"),)) for k, ts in enumerate(stamps.split())]
    expected = []
    for line in lines[lines.index("instants:") + 1:]:
        made_by, *contents = (part.strip() for part in line.split(":", 1)[1].split("|"))
        expected.append((made_by, [set(content.split(":", 1)[1].split()) for content in contents]))
    return windows, streams, expected


def _names(content) -> set[str]:
    return {s[len("<http://ex/"):-1] for s, _, _ in content}


def _merged(windows, streams):
    from harness.streams.merged import merge_events

    order = list(dict.fromkeys(named.stream for named in windows))
    return list(merge_events([(stream, streams[stream]) for stream in order]))


def test_the_page_has_stream_examples():
    assert len(STREAM_BLOCKS) >= 2


@pytest.mark.parametrize("block", STREAM_BLOCKS, ids=[b.splitlines()[0].split(": ")[1] for b in STREAM_BLOCKS])
def test_merge_and_engine_named_windows_follow_the_page(block):
    from engines.named_windows import NamedWindowsState

    windows, streams, expected = _parse_streams(block)
    merged = _merged(windows, streams)
    assert len(merged) == len(expected)
    state = NamedWindowsState(windows)
    for event, (made_by, contents) in zip(merged, expected):
        assert _names([event.updates[0].triple]) == {made_by}, f"instant {event.index}"
        state.advance(event)
        assert [_names(content) for content in state.contents] == contents, f"after instant {event.index}"


@pytest.mark.parametrize("block", STREAM_BLOCKS, ids=[b.splitlines()[0].split(": ")[1] for b in STREAM_BLOCKS])
def test_oracle_named_windows_follow_the_page(block):
    from oracles.named_windows import named_window_contents

    windows, streams, expected = _parse_streams(block)
    merged = _merged(windows, streams)
    for position, contents in named_window_contents(merged, windows):
        assert [_names(content) for content in contents] == expected[position][1], f"after instant {position}"
