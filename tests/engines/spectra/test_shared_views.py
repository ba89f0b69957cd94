"""SPECTRA's shared conductor: one view per distinct pattern and window, indexed wherever any of its readers probes it."""

from __future__ import annotations

from engines.model.query import parse_query
from engines.spectra.shared_views import SharedConductor

PREFIX = "PREFIX : <http://ex/>\n"


def _conductor(*texts: str) -> SharedConductor:
    """``text`` or ``text @ window``, each registered in turn (window sliding:4:1 unless said)."""
    conductor = SharedConductor((), "spectra")
    for text in texts:
        where, _, window = text.partition(" @ ")
        conductor.register(parse_query(PREFIX + f"SELECT * WHERE {{ {where} }}", window=window or "sliding:4:1"))
    conductor.finish()
    return conductor


def test_renamed_patterns_share_a_view_and_other_windows_do_not():
    conductor = _conductor("?x :takes :c1 . ?x a :Student", "?s :takes :c2 . ?s a :Student", "?t a :Student",
                           "?t a :Student @ event")
    student = conductor.query_views[2][0]
    assert student in conductor.query_views[0] and student in conductor.query_views[1]
    assert conductor.query_views[3][0] != student and len(conductor.views) == 4  # another window, another view


def test_a_later_reader_indexes_the_shared_view_where_it_probes():
    conductor = _conductor("?x :p ?y", "?a :p ?b . ?b :q ?c")
    view = conductor.views[conductor.query_views[0][0]]
    assert conductor.query_views[1][0] == conductor.query_views[0][0]
    assert view.index[0] is not None and view.index[1] is not None  # ?b is probed by the second query
    assert _conductor("?x :p ?y").views[0].index[1] is None  # alone, no join probes the object
