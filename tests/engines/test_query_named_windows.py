"""RSP-QL named windows: several FROM NAMED WINDOW clauses, patterns grouped by WINDOW block or static, errors in one line."""

from __future__ import annotations

import pytest

from common.errors import QueryError, WindowError
from engines.model import stream as m
from engines.model.query import parse_query

TWO_WINDOWS = """PREFIX : <http://ex/>
SELECT ?u ?p ?l
FROM NAMED WINDOW :posts ON :postStream [RANGE PT10S STEP PT1S]
FROM NAMED WINDOW :likes ON <http://ex/likeStream> [RANGE PT5S TUMBLING]
WHERE {
  WINDOW :posts { ?p :creator ?u . }
  WINDOW :likes { ?l :likes ?p . FILTER(?l != :x) }
  ?u :knows :bob .
}"""


def test_two_named_windows_group_patterns_by_block_and_static():
    query = parse_query(TWO_WINDOWS)
    assert query.named_windows == (
        m.NamedWindow(":posts", "http://ex/postStream", m.Window.sliding(10_000, 1_000)),
        m.NamedWindow(":likes", "http://ex/likeStream", m.Window.tumbling(5_000)),
    )
    assert query.patterns == (("?p", "<http://ex/creator>", "?u"), ("?l", "<http://ex/likes>", "?p"),
                              ("?u", "<http://ex/knows>", "<http://ex/bob>"))
    assert query.pattern_windows == (0, 1, None)
    assert query.streams == ("http://ex/postStream", "http://ex/likeStream")
    assert query.window == m.Window.sliding(10_000, 1_000)
    assert "GRAPH <urn:cgpm:window:1>" in query.where_sparql and "WINDOW" not in query.where_sparql
    assert len(query.filters) == 1


def test_one_named_window_keeps_the_single_window_reading():
    query = parse_query("PREFIX : <http://ex/> SELECT * FROM NAMED WINDOW :w ON :s [RANGE PT4S TUMBLING] "
                        "WHERE { WINDOW :w { ?a :p ?b . } ?b :q ?c }")
    assert query.named_windows == () and query.pattern_windows == ()
    assert query.window == m.Window.tumbling(4_000)
    assert "GRAPH" not in query.where_sparql


def test_two_windows_may_read_one_stream():
    query = parse_query("PREFIX : <http://ex/> SELECT * FROM NAMED WINDOW :a ON :s [RANGE PT4S STEP PT1S] "
                        "FROM NAMED WINDOW :b ON :s [RANGE PT1S] WHERE { WINDOW :a { ?x :p ?y } WINDOW :b { ?y :p ?z } }")
    assert query.streams == ("http://ex/s",)
    assert query.named_windows[1].window == m.Window.sliding(1_000, 1)


@pytest.mark.parametrize("text, message", [
    ("PREFIX : <http://ex/> SELECT * FROM NAMED WINDOW :a ON :s [RANGE PT4S] FROM NAMED WINDOW :b ON :t [RANGE PT4S] "
     "WHERE { WINDOW :a { ?x :p ?y } WINDOW :c { ?y :p ?z } }", "names no declared window"),
    ("PREFIX : <http://ex/> SELECT * FROM NAMED WINDOW :a ON :s [RANGE PT4S] FROM NAMED WINDOW :b ON :t [RANGE PT4S] "
     "WHERE { WINDOW :a { ?x :p ?y } }", "no 'WINDOW :b"),
    ("PREFIX : <http://ex/> SELECT * FROM NAMED WINDOW :a ON :s [RANGE PT4S] FROM NAMED WINDOW :a ON :t [RANGE PT4S] "
     "WHERE { WINDOW :a { ?x :p ?y } }", "declared twice"),
    ("PREFIX : <http://ex/> SELECT * FROM NAMED WINDOW :a ON :s [RANGE PT4S] FROM NAMED WINDOW :b ON nope:t [RANGE PT4S] "
     "WHERE { WINDOW :a { ?x :p ?y } WINDOW :b { ?y :p ?z } }", "prefix nope: is not declared"),
    ("PREFIX : <http://ex/> SELECT * FROM NAMED WINDOW :a ON :s [RANGE PT4S] FROM NAMED WINDOW :b ON :t [RANGE PT4S] "
     "WHERE { WINDOW :a { ?x :p ?y } WINDOW :b { ?y :p ?z } GRAPH :g { ?z :p ?w } }", "GRAPH is not supported"),
    ("PREFIX : <http://ex/> SELECT * FROM NAMED WINDOW :a ON :s [RANGE PT4S] FROM NAMED WINDOW :b ON :t [RANGE PT4S] "
     "WHERE { WINDOW :a { ?x :p ?y WINDOW :b { ?y :p ?z } } }", "inside another WINDOW block"),
])
def test_named_window_errors_are_one_line(text, message):
    with pytest.raises(QueryError) as caught:
        parse_query(text)
    assert message in str(caught.value) and "\n" not in str(caught.value)


def test_a_window_from_outside_cannot_replace_named_windows():
    with pytest.raises(QueryError, match="cannot replace them"):
        parse_query(TWO_WINDOWS, window="sliding:5s:1s")
    with pytest.raises(WindowError, match="cannot replace them"):
        parse_query(TWO_WINDOWS).with_window(m.Window("unbounded"))
