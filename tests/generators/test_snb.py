"""LDBC-SNB-like streams against the targets docs/generators.md states, checked on the pure-Python twin."""

from __future__ import annotations

from collections import Counter
from importlib import resources
from pathlib import Path

import numpy as np
import pyoxigraph
import pytest

from common.errors import GeneratorError
from engines.model.query import load_query
from engines.model.terms import parse_term
from generators.framing import GeneratorSpec
from generators.pipeline import twin_table
from generators.snb import dataset, model
from generators.social import activity, graph

QUERIES = Path(resources.files("generators.snb")) / "queries"


@pytest.fixture(scope="module")
def crowd() -> model.Persons:
    return model.persons(seed=3, scale=1700, index=0, years=1)


def test_degrees_are_facebook_like_rescaled_to_the_scale(crowd):
    assert graph.facebook_mean(1700) == 23 and graph.facebook_mean(10620) == 41
    degree = crowd.friends.degree(np.arange(len(crowd)))
    assert 20.0 <= degree.mean() <= 26.0
    assert np.median(degree) < 0.7 * degree.mean()  # skewed like Facebook's (median ~ half the mean)
    assert np.percentile(degree, 99) > 5 * degree.mean() and degree.max() <= model.MAX_FRIENDS
    assert len(set(zip(crowd.knows_a.tolist(), crowd.knows_b.tolist()))) == len(crowd.knows_a)  # each pair once
    assert np.all(crowd.knows_a < crowd.knows_b)


def test_friendships_start_after_both_persons_and_persons_join_uniformly(crowd):
    later = np.maximum(crowd.created[crowd.knows_a], crowd.created[crowd.knows_b])
    assert np.all(crowd.knows_created >= later + 10_000) and np.all(crowd.knows_created < model.end_ms(1))
    months = np.bincount((crowd.created - model.START_MS) * 12 // model.YEAR_MS, minlength=12)
    assert months.min() > 0.7 * months.mean()


def test_friends_are_similar_more_often_than_chance(crowd):
    same_university = (crowd.university[crowd.knows_a] == crowd.university[crowd.knows_b]).mean()
    same_interest = (crowd.interests[crowd.knows_a, 0] == crowd.interests[crowd.knows_b, 0]).mean()
    chance = np.mean(crowd.university[:, None][:200] == crowd.university[None, :])
    assert same_university > 5 * chance and same_interest > 0.02


def test_posts_comments_and_likes_follow_the_datagen_timing(crowd):
    end = model.end_ms(1)
    posts = model.posts(3, crowd, np.arange(46, 50), end)  # late in the year: nearly everyone has joined
    weeks = (posts.times - model.START_MS) // activity.WEEK_MS
    active = crowd.created <= model.START_MS + 46 * activity.WEEK_MS
    per_week = np.bincount(posts.creators, minlength=len(crowd))[active] / 4
    assert 1.2 <= per_week.mean() <= 1.9 and np.all(np.isin(weeks, np.arange(46, 50)))
    assert np.all(posts.times >= crowd.created[posts.creators])
    parent, ids, creator, times, _ = model.comments(3, crowd, posts, end)
    per_post = np.bincount(parent, minlength=len(posts))
    assert 1.4 <= per_post.mean() <= 2.2 and per_post.max() <= model.MAX_COMMENTS
    delay = times - posts.times[parent]
    assert delay.min() >= 1000 and delay.max() < activity.DAY_MS  # within a day of the parent
    assert 4 * activity.HOUR_MS <= delay.mean() <= 7.5 * activity.HOUR_MS  # heavy tail, mean 6.85 h before the cut
    assert np.all(ids >= model.COMMENT_ID_BASE)
    liked, liker, when = model.likes(3, "like.post", crowd, posts.ids, posts.creators, posts.times, model.MAX_POST_LIKES, end)
    assert np.all(when > posts.times[liked]) and np.all(when < posts.times[liked] + 7 * activity.DAY_MS)
    assert 1.4 <= np.bincount(liked, minlength=len(posts)).mean() <= 2.0
    assert len(set(zip(liked.tolist(), liker.tolist()))) == len(liker)


def test_message_events_hold_10_to_50_triples_and_week_events_grow():
    spec = GeneratorSpec("snb", 150, seed=1, options=(("years", 1),))
    table = twin_table(spec)
    sizes = np.array(list(Counter(table.column("event").to_pylist()).values()))
    assert np.percentile(sizes, 5) >= 10 and np.percentile(sizes, 95) <= 50
    ts = table.column("ts").to_pylist()
    assert ts == sorted(ts)
    assert len(set(zip(*(table.column(c).to_pylist() for c in "spo")))) == table.num_rows  # no triple twice
    for column in "spo":
        assert all(parse_term(term) == term for term in set(table.column(column).to_pylist()[:20000])), column
    weekly = twin_table(GeneratorSpec("snb", 150, seed=1, options=(("years", 1), ("events", "week"))))
    assert weekly.column("o").to_pylist() == table.column("o").to_pylist()
    week_sizes = np.array(list(Counter(weekly.column("event").to_pylist()).values()))
    assert len(week_sizes) == model.weeks_in(1)
    assert week_sizes[-8:].mean() > 5 * week_sizes[:8].mean()  # activity grows as persons join
    assert np.corrcoef(np.arange(len(week_sizes)), week_sizes)[0, 1] > 0.9


def test_bad_options_are_one_clear_error():
    with pytest.raises(GeneratorError, match="events"):
        dataset.units(GeneratorSpec("snb", 10, options=(("events", "month"),)))
    with pytest.raises(GeneratorError, match="years"):
        dataset.units(GeneratorSpec("snb", 10, options=(("years", 0),)))


def test_snb_queries_parse_and_match_with_their_filters_selecting():
    spec = GeneratorSpec("snb", 60, seed=2)
    table = twin_table(spec)
    store = pyoxigraph.Store()
    text = "".join(f"{s} {p} {o} .\n" for s, p, o in zip(*(table.column(c).to_pylist() for c in "spo")))
    store.load((text + dataset.static_ntriples(spec)).encode(), format=pyoxigraph.RdfFormat.N_TRIPLES)
    counts = {}
    for path in sorted(QUERIES.glob("*.rq")):
        query = load_query(path, window="unbounded")
        if path.stem.startswith("Q"):
            assert len(query.patterns) == 8, path.name
        counts[path.stem] = len(list(store.query(path.read_text())))
    assert len(counts) == 14 and all(count > 0 for count in counts.values()), counts
    for shape in ("Q1_star", "Q2_chain", "Q3_complex"):
        assert counts[shape] > counts[f"{shape}_atomic"] and counts[shape] > counts[f"{shape}_complex"], shape
