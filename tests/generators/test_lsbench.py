"""LSBench (S2Gen-like) streams against the targets docs/generators.md states, checked on the pure-Python twin."""

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
from generators.framing import EventShape, GeneratorSpec
from generators.lsbench import dataset, model
from generators.pipeline import twin_table
from generators.social import activity

QUERIES = Path(resources.files("generators.lsbench")) / "queries"
SIB_POST = "<http://www.ins.cwi.nl/sib/vocabulary/Post>"


@pytest.fixture(scope="module")
def people() -> model.Users:
    return model.users(seed=7, scale=2000, index=0)


def test_friend_counts_lie_in_5_to_40_with_a_power_law_tail(people):
    degree = people.friends.degree(np.arange(len(people)))
    assert degree.min() >= 5 and degree.max() <= 40
    assert np.all(degree <= people.targets) and (degree == people.targets).mean() > 0.99
    assert 12.0 <= degree.mean() <= 15.0 and np.median(degree) <= 11
    assert (degree >= 30).mean() > 0.04  # a heavy tail: the power law keeps ~6% at 30 or more
    a = np.repeat(np.arange(len(people)), degree)
    assert (people.city[a] == people.city[people.friends.neighbours]).mean() > 0.6  # mostly friends in the same city


def test_posts_per_user_and_week_follow_the_params(people):
    posts = model.posts(7, people, np.arange(4))
    per = np.bincount(posts.creators * 4 + ((posts.times - model.START_MS) // activity.WEEK_MS), minlength=4 * len(people))
    in_group = np.repeat(people.groups >= 0, 4)
    assert per.max() <= 30 and per[~in_group].max() <= 25
    assert 12.0 <= per[~in_group].mean() <= 13.0  # U[0,10] + U[0,15]: 12.5
    assert 14.0 <= per[in_group].mean() <= 15.5  # plus U[0,5] group posts: 15
    walls = model.post_walls(7, people, posts)
    assert np.all(walls[people.groups[posts.creators] < 0])


def test_comments_and_likes_follow_their_parents(people):
    posts = model.posts(7, people, np.arange(2))
    parent, _, _, creator, times, to_comment = model.comments(7, people, posts)
    per_post = np.bincount(parent, minlength=len(posts))
    assert per_post.max() <= 20 and 6.0 <= per_post.mean() <= 7.0
    delay = times - posts.times[parent]
    assert delay.min() >= 1000 and delay.max() < activity.DAY_MS
    assert 1.5 * activity.HOUR_MS <= delay.mean() <= 2.5 * activity.HOUR_MS
    friends = set(zip(np.repeat(np.arange(len(people)), people.friends.degree(np.arange(len(people)))).tolist(),
                      people.friends.neighbours.tolist()))
    assert all((int(a), int(b)) in friends for a, b in zip(posts.creators[parent][:2000], creator[:2000]))
    like_parent, liker, like_times = model.likes(7, "like", people, posts, model.MAX_LIKES)
    likes_per_post = np.bincount(like_parent, minlength=len(posts))
    assert likes_per_post.max() <= 10 and 2.8 <= likes_per_post.mean() <= 3.6
    assert len(set(zip(like_parent.tolist(), liker.tolist()))) == len(liker)  # distinct likers per post
    assert np.all((like_times > posts.times[like_parent]) & (like_times < posts.times[like_parent] + 7 * activity.DAY_MS))


def test_each_post_is_one_event_of_10_to_14_triples_in_time_order():
    spec = GeneratorSpec("lsbench", 300, seed=3, options=(("days", 2), ("stream", "posts")))
    table = twin_table(spec)
    sizes = Counter(table.column("event").to_pylist())
    assert min(sizes.values()) >= 10 and max(sizes.values()) <= 14 and len(set(sizes.values())) == 5
    objects = table.column("o").to_pylist()
    assert sum(o == SIB_POST for o in objects) == len(sizes)
    ts = table.column("ts").to_pylist()
    assert ts == sorted(ts) and model.START_MS <= ts[0] and ts[-1] < model.START_MS + 2 * activity.DAY_MS
    for column in "spo":
        assert all(parse_term(term) == term for term in set(table.column(column).to_pylist())), column


def test_every_stream_choice_keeps_the_same_items_in_the_same_order():
    whole = twin_table(GeneratorSpec("lsbench", 80, seed=1, options=(("days", 2),)))
    lines = [f"{s} {p} {o}" for s, p, o in zip(*(whole.column(c).to_pylist() for c in "spo"))]
    assert len(set(lines)) == len(lines)  # no triple twice
    sizes = Counter(whole.column("event").to_pylist())
    assert {size for size in sizes.values() if size >= 15} and 1 in sizes.values() and 5 in sizes.values()
    posts_and_likes = twin_table(GeneratorSpec("lsbench", 80, seed=1, options=(("days", 2), ("stream", "posts,likes"))))
    subset = [f"{s} {p} {o}" for s, p, o in zip(*(posts_and_likes.column(c).to_pylist() for c in "spo"))]
    position = {line: number for number, line in enumerate(lines)}
    assert all(line in position for line in subset)
    assert [position[line] for line in subset] == sorted(position[line] for line in subset)


def test_triple_events_take_the_time_of_their_first_triple_and_stay_ordered():
    items = twin_table(GeneratorSpec("lsbench", 50, seed=2, options=(("days", 2),)))
    triples = twin_table(GeneratorSpec("lsbench", 50, seed=2, shape=EventShape.parse("triples:7"), options=(("days", 2),)))
    assert triples.column("o").to_pylist() == items.column("o").to_pylist()
    ts, item_ts = triples.column("ts").to_pylist(), items.column("ts").to_pylist()
    assert ts == sorted(ts)
    boundary = dataset.unit_counts(GeneratorSpec("lsbench", 50, seed=2, options=(("days", 2),)), 0)[1]
    assert boundary % 7  # this spec has an event across the day boundary
    for row in range(0, len(ts), 7):
        straddles = row < boundary < row + 7
        expected = model.START_MS + activity.DAY_MS if straddles else item_ts[row]
        assert ts[row] == expected


def test_bad_options_are_one_clear_error():
    with pytest.raises(GeneratorError, match="stream='posts,tweets'"):
        dataset.units(GeneratorSpec("lsbench", 10, options=(("stream", "posts,tweets"),)))
    with pytest.raises(GeneratorError, match="days"):
        dataset.units(GeneratorSpec("lsbench", 10, options=(("days", 0),)))


def test_static_graph_holds_users_friendships_forums_and_subscriptions():
    spec = GeneratorSpec("lsbench", 100, seed=5, index=950)
    lines = dataset.static_ntriples(spec).splitlines()
    predicates = Counter(line.split(" ")[1] for line in lines)
    people = model.users(5, 100, 950)
    assert predicates["<http://xmlns.com/foaf/0.1/knows>"] == len(people.friends.neighbours)
    assert predicates["<http://rdfs.org/sioc/ns#account_of>"] == 100
    assert predicates["<http://rdfs.org/sioc/ns#subscriber_of>"] >= len(people.friends.neighbours)
    assert "<http://www.ins.cwi.nl/sib/user/u984> <http://rdfs.org/sioc/ns#account_of> <http://www.ins.cwi.nl/sib/person/p984> ." in lines


def test_lsbench_queries_parse_and_match_on_a_small_stream():
    # users from 0: Q1-Q3 name u0/p0, which every scale has
    spec = GeneratorSpec("lsbench", 60, seed=0, index=0, options=(("days", 2),))
    table = twin_table(spec)
    store = pyoxigraph.Store()
    text = "".join(f"{s} {p} {o} .\n" for s, p, o in zip(*(table.column(c).to_pylist() for c in "spo")))
    store.load((text + dataset.static_ntriples(spec)).encode(), format=pyoxigraph.RdfFormat.N_TRIPLES)
    counts = {}
    for path in sorted(QUERIES.glob("*.rq")):
        load_query(path, window="unbounded")
        counts[path.stem] = len(list(store.query(path.read_text())))
    assert sorted(counts) == ["Q1", "Q2", "Q3", "Q4", "Q5", "Q6", "Q7"]
    assert all(count > 0 for count in counts.values()), counts
