"""A directory of Turtle files reads as one event per file at its name's timestamp; ``cgpm stream import --format turtle-files`` writes it."""

from __future__ import annotations

import pytest

from common.errors import StreamError
from harness.cli import main
from harness.streams import read_stream
from harness.streams.turtle_files import file_timestamp, import_turtle_files

PREFIX = "@prefix : <http://ex/> .\n"


def _files(tmp_path, files: dict[str, str]):
    directory = tmp_path / "ttl"
    directory.mkdir()
    for name, body in files.items():
        (directory / name).write_text(PREFIX + body, encoding="utf-8")
    return directory


def test_each_file_is_one_event_at_its_names_last_integer_times_the_unit(tmp_path):
    directory = _files(tmp_path, {"data_10.ttl": ":c :p 3 .", "data_02.ttl": ":a :p :b ; :q \"x\"@en .",
                                  "data_2.ttl": ":d :p :e .", "notes.txt": "not read"})
    stream = import_turtle_files(directory, time_unit=1000)
    assert [(event.index, event.ts) for event in stream.events] == [(0, 2000), (1, 2000), (2, 10000)]
    assert [update.triple for update in stream.events[0].updates] == [
        ("<http://ex/a>", "<http://ex/p>", "<http://ex/b>"), ("<http://ex/a>", "<http://ex/q>", '"x"@en')]
    assert stream.events[1].updates[0].s == "<http://ex/d>"  # data_02 before data_2: one timestamp, by name
    assert stream.events[2].updates[0].o == '"3"^^<http://www.w3.org/2001/XMLSchema#integer>'
    assert file_timestamp(directory / "run3_data_07.ttl", 5) == 35


def test_a_blank_node_label_is_its_files_own(tmp_path):
    directory = _files(tmp_path, {"t1.ttl": "_:x :p :a .", "t2.ttl": "_:x :p :b . _:x :q [ :r :s ] ."})
    first, second = import_turtle_files(directory).events
    by_predicate = {update.p: update for update in second.updates}
    assert first.updates[0].s != by_predicate["<http://ex/p>"].s
    assert by_predicate["<http://ex/p>"].s == by_predicate["<http://ex/q>"].s  # one label, one node, within a file
    assert by_predicate["<http://ex/q>"].o == by_predicate["<http://ex/r>"].s  # an anonymous node keeps its identity


@pytest.mark.parametrize(("files", "message"), [
    ({}, "holds no .ttl file"),
    ({"data.ttl": ":a :p :b ."}, "holds no integer"),
    ({"d1.ttl": ":a :p ."}, "d1.ttl line 2"),
    ({"d1.ttl": "# nothing"}, r"event 0 \(ts 1\) has no triples"),
])
def test_bad_directories_are_one_stream_error(tmp_path, files, message):
    with pytest.raises(StreamError, match=message):
        import_turtle_files(_files(tmp_path, files))


def test_the_command_imports_a_directory_and_refuses_a_unit_elsewhere(tmp_path, capsys):
    directory = _files(tmp_path, {"d0.ttl": ":a :p :b .", "d3.ttl": ":b :p :c ."})
    out = tmp_path / "stream"
    assert main(["stream", "import", str(directory), "--format", "turtle-files", "--time-unit", "250",
                 "--out", str(out)]) == 0
    assert "imported 2 events (2 updates)" in capsys.readouterr().out
    stream = read_stream(out)
    assert [event.ts for event in stream.events] == [0, 750]
    assert stream.provenance["import_format"] == "turtle-files"
    assert main(["stream", "import", str(directory / "d0.ttl"), "--format", "trig", "--time-unit", "250",
                 "--out", str(tmp_path / "other")]) == 2
    err = capsys.readouterr().err
    assert "--time-unit is for --format turtle-files" in err and err.count("\n") == 1
    assert main(["stream", "import", str(directory / "d0.ttl"), "--format", "turtle-files",
                 "--out", str(tmp_path / "other")]) == 2
    assert "not a directory of Turtle files" in capsys.readouterr().err
