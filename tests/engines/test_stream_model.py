"""The stream vocabulary's small promises: a delta is true when it changes something, ``Delta.between`` is the exact change."""

from __future__ import annotations

from engines.model.stream import Delta

A, B, C = ("<a>",), ("<b>",), ("<c>",)


def test_a_delta_is_true_exactly_when_it_adds_or_removes():
    assert not Delta() and not Delta(added=[], removed=[])
    assert Delta(added=[A]) and Delta(removed=[A]) and Delta(added=[A], removed=[B])


def test_between_is_the_change_from_before_to_after():
    delta = Delta.between({A, B}, {B, C})
    assert delta.added == [C] and delta.removed == [A]
    assert not Delta.between({A}, {A})


def test_an_unknown_entailment_regime_is_named():
    import pytest

    from engines.model.query import parse_query

    query = parse_query("SELECT * WHERE { ?x <http://ex/p> ?y }", window="unbounded")
    with pytest.raises(ValueError, match="unknown entailment 'owl2'"):
        query.with_entailment("owl2")
