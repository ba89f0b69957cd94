"""What a user trips over: files that are not queries, IRIs written in full, counts that do not say what they count, JVM noise."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from harness.cli import main
from harness.commands.explain_cmd import compact_iris, query_prefixes
from harness.query_files import check_query_file, first_word
from harness.spark import _forward

REPOSITORY = Path(__file__).resolve().parents[2]
EXAMPLE = REPOSITORY / "harness" / "examples" / "university"


def _one_line_error(capsys, argv) -> str:
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "Traceback" not in err
    return err


@pytest.mark.parametrize("name", ["README.md", "Makefile"])
def test_a_readme_or_makefile_is_not_a_sparql_query(capsys, name):
    path = str(REPOSITORY / name)
    for argv in (["run", "--engine", "reeval", "--stream", str(EXAMPLE), "--query", path, "--window", "event"],
                 ["explain", path],
                 ["bench", "--engine", "scan", "--stream", str(EXAMPLE), "--query", path, "--runner", "process"]):
        assert f"{name} is not a SPARQL query" in _one_line_error(capsys, argv)


def test_query_openings(tmp_path):
    assert first_word("# a comment\n\n  prefix ub: <x>") == "prefix"
    assert first_word("REGISTER RSTREAM <s> AS SELECT") == "REGISTER"
    assert first_word("# only\n#comments\n") is None
    (tmp_path / "empty.rq").write_text("# nothing\n")
    with pytest.raises(Exception, match="only comments"):
        check_query_file(tmp_path / "empty.rq")
    check_query_file(EXAMPLE / "queries" / "chain.rq")


def test_explain_writes_iris_with_the_querys_prefixes(capsys):
    assert main(["explain", str(REPOSITORY / "generators" / "lubm" / "queries" / "L7.rq")]) == 0
    out = capsys.readouterr().out
    assert "?x ub:advisor ?y" in out and "?x a ub:UndergraduateStudent" in out and "<http://" not in out
    prefixes = {"ub": "http://u/#", "": "http://d/"}
    assert compact_iris("<http://u/#a> <http://d/b> <http://d/c/d> <http://other/x>", prefixes) == \
        "ub:a :b <http://d/c/d> <http://other/x>"
    assert query_prefixes("PREFIX ub: <http://u/#>\nprefix : <http://d/>") == prefixes


def test_stream_info_and_stats_say_what_they_count(capsys):
    assert main(["stream", "info", str(EXAMPLE)]) == 0
    info = capsys.readouterr().out
    assert "update rows" in info and "distinct triples" in info and "updates    triples  predicate" in info
    assert main(["stats", str(EXAMPLE)]) == 0
    stats = capsys.readouterr().out
    assert "predicates (distinct inserted triples each" in stats


def test_the_jvm_incubator_warning_is_dropped_and_the_rest_passed_on():
    source_read, source_write = os.pipe()
    target_read, target_write = os.pipe()
    forwarder = threading.Thread(target=_forward, args=(source_read, target_write))
    forwarder.start()
    os.write(source_write, b"WARNING: Using incubator modules: jdk.incubator.vector\nreal error\npartial")
    os.close(source_write)
    forwarder.join(5)
    os.close(target_write)
    with os.fdopen(target_read, "rb") as received:
        assert received.read() == b"real error\npartial"
