"""LDBC SNB persons and activity as numpy columns, every value a function of (seed, person, week, message).

Follows the Spark datagen (``shared/reference/datasets.md`` section 2): persons join uniformly over
the simulated time (2010-01-01 on, ``years`` long); target degrees come from a Facebook-like
distribution rescaled to mean round(n^(0.512 - 0.028 log10 n)) (23 at 1,700 persons, 41 at
10,620), capped at 1,000; three friendship passes over persons ranked by university and class year
(45% of each person's stubs), by main interest (45%) and at random (10%); a friendship starts
uniformly between 10 s after the later of the two persons joined and the end. Forums: a wall and
0-3 albums per person (made when the person joins), and groups (10% of persons moderate one,
created after they join; friends of the moderator join it, each with probability 1/2, after both
exist). Posts per active week grow with the person's degree (mean 1.5 for a person of mean
degree), in the wall (70%), an album (photos, 20%) or the person's group (10%); comments by
friends within a day of their parent (heavy tail, mean 6.85 h), mean ~1.8 a post; likes by
distinct friends within a week of the message (mean ~1.8 a post, ~0.6 a comment). A message is sent
from its author's country, or (10%) from another one. Anything timed after the end
of the simulation, or before its author joined, is not made.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from generators.snb import places
from generators.social import activity, draws, graph
from generators.social.activity import DAY_MS, HOUR_MS, SECOND_MS, WEEK_MS, Items

START_MS = 1_262_304_000_000  # 2010-01-01T00:00:00Z
DEFAULT_YEARS = 1
YEAR_MS = 365 * DAY_MS
MAX_FRIENDS = 1000
PASS_SHARES = (0.45, 0.45, 0.10)
PASS_SPREAD = 10.0
PER_POST, PER_COMMENT = 16, 16
COMMENT_ID_BASE = 1 << 50  # comment ids never equal post ids
POSTS_PER_WEEK = 1.5
MAX_COMMENTS, MAX_POST_LIKES, MAX_COMMENT_LIKES = 7, 6, 3
COMMENT_WITHIN_MS, COMMENT_MEAN_MS = DAY_MS, int(6.85 * HOUR_MS)
LIKE_WITHIN_MS, LIKE_MEAN_MS = 7 * DAY_MS, DAY_MS
GROUP_SHARE, JOIN_SHARE = 0.1, 0.5
TRAVEL_SHARE = 0.1


def end_ms(years: int) -> int:
    return START_MS + years * YEAR_MS


@dataclass(frozen=True)
class Persons:
    keys: np.ndarray
    created: np.ndarray
    city: np.ndarray
    university: np.ndarray  # -1: none
    class_year: np.ndarray
    interests: np.ndarray  # (persons, 4) tags, the first the main one
    interest_count: np.ndarray
    albums: np.ndarray
    group_created: np.ndarray  # -1: moderates no group
    friends: graph.Adjacency
    knows_a: np.ndarray
    knows_b: np.ndarray
    knows_created: np.ndarray
    mean_degree: float

    def __len__(self) -> int:
        return len(self.keys)


def tag_draw(seed: int, name: str, *ids) -> np.ndarray:
    return draws.weighted(seed, name, 1.0 / np.arange(1, places.TAGS + 1), *ids)


def _rank(*keys) -> np.ndarray:
    """Each person's place in the order of ``keys`` (last key most significant)."""
    return np.argsort(np.lexsort(keys)).astype(np.float64)


@lru_cache(maxsize=4)
def persons(seed: int, scale: int, index: int, years: int) -> Persons:
    keys = np.arange(index, index + scale, dtype=np.int64)
    created = START_MS + np.floor(draws.uniform(seed, "person.created", keys) * years * YEAR_MS).astype(np.int64)
    country = draws.weighted(seed, "person.country", places.COUNTRY_WEIGHTS, keys)
    city = country * places.CITIES_PER_COUNTRY + draws.integers(seed, "person.city", 0, places.CITIES_PER_COUNTRY - 1, keys)
    local = city * places.UNIVERSITIES_PER_CITY + draws.integers(seed, "person.uni", 0, places.UNIVERSITIES_PER_CITY - 1, keys)
    university = np.where(draws.uniform(seed, "person.studied", keys) < 0.9, local, -1)
    class_year = draws.integers(seed, "person.class_year", 1990, 2010, keys)
    interests = np.stack([(tag_draw(seed, f"person.interest{i}", keys) + 37 * country * (i == 0)) % places.TAGS
                          for i in range(4)], axis=1)
    interest_count = draws.integers(seed, "person.interest_count", 1, 4, keys)
    albums = draws.integers(seed, "person.albums", 0, 3, keys)
    end = end_ms(years)
    group_created = np.where(draws.uniform(seed, "group.exists", keys) < GROUP_SHARE,
                             created + np.floor(draws.uniform(seed, "group.created", keys) * (end - created)).astype(np.int64), -1)
    mean = graph.facebook_mean(scale)
    targets = np.minimum(graph.facebook_like(seed, "person.degree", keys, mean, MAX_FRIENDS), max(scale - 1, 0))
    rankings = (
        _rank(draws.uniform(seed, "rank.study", keys), class_year, university),
        _rank(draws.uniform(seed, "rank.interest", keys), interests[:, 0]),
        _rank(draws.uniform(seed, "rank.random", keys)),
    )
    known = np.zeros(0, dtype=np.int64)
    left = targets.copy()
    for number, (ranking, share) in enumerate(zip(rankings, PASS_SHARES)):
        stubs = left if number == len(PASS_SHARES) - 1 else np.minimum(graph.share(seed, f"knows.share{number}", keys, targets, share), left)
        found = graph.pair_stubs(seed, f"knows.pass{number}", keys, ranking, stubs, PASS_SPREAD if number < 2 else 1.0, known)
        known = np.concatenate((known, found))
        left = left - np.bincount(found // scale, minlength=scale) - np.bincount(found % scale, minlength=scale)
    a, b = graph.edges(known, scale)
    later = np.maximum(created[a], created[b]) + 10 * SECOND_MS
    knows_created = later + np.floor(draws.uniform(seed, "knows.created", keys[a], keys[b]) * np.maximum(end - later, 0)).astype(np.int64)
    return Persons(keys, created, city, university, class_year, interests, interest_count, albums, group_created,
                   graph.Adjacency.from_edges(scale, a, b), a, b, knows_created, float(mean))


@lru_cache(maxsize=4)
def members(seed: int, scale: int, index: int, years: int):
    """Group memberships: (moderator index, member index, join time) for friends of moderators, half of them."""
    people = persons(seed, scale, index, years)
    moderators = np.flatnonzero(people.group_created >= 0)
    degree = people.friends.degree(moderators)
    moderator = np.repeat(moderators, degree)
    within = np.arange(len(moderator)) - np.repeat(np.cumsum(degree) - degree, degree)
    friend = people.friends.neighbours[people.friends.offsets[moderator] + within]
    keys = people.keys
    joins = draws.uniform(seed, "member.joins", keys[moderator], keys[friend]) < JOIN_SHARE
    moderator, friend = moderator[joins], friend[joins]
    since = np.maximum(people.group_created[moderator], people.created[friend])
    when = since + activity.power_delay(seed, "member.delay", keys[moderator] * (1 << 24) + keys[friend], 3 * DAY_MS, 60 * DAY_MS)
    return moderator, friend, when


def posts(seed: int, people: Persons, weeks: np.ndarray, end: int) -> Items:
    """Posts of ``weeks``, made only while their author exists and the simulation runs."""
    degree = people.friends.degree(np.arange(len(people)))
    mean = POSTS_PER_WEEK * (0.4 + 0.6 * degree / max(people.mean_degree, 1.0))
    count = np.floor(draws.uniform(seed, "post.count", people.keys[None, :], weeks[:, None]) * (2 * mean[None, :] + 1))
    items = activity.weekly(seed, "post", people.keys, weeks, count.astype(np.int64), START_MS, PER_POST)
    return items.select((items.times >= people.created[items.creators]) & (items.times < end))


def post_forums(seed: int, people: Persons, items: Items) -> np.ndarray:
    """0 wall, 1 album, 2 group, per post (a forum kind its author has, and that exists at the post's time)."""
    u = draws.uniform(seed, "post.forum", items.ids)
    has_album = people.albums[items.creators] > 0
    group = people.group_created[items.creators]
    in_group = (group >= 0) & (group <= items.times)
    return np.where((u >= 0.9) & in_group, 2, np.where((u >= 0.7) & has_album, 1, 0))


def post_album(seed: int, people: Persons, items: Items) -> np.ndarray:
    return draws.integers(seed, "post.album", 0, np.maximum(people.albums[items.creators] - 1, 0), items.ids)


def post_tags(seed: int, people: Persons, items: Items):
    """(post index, ordinal, tag): 1-3 distinct tags from the author's interests or the Zipf law."""
    count = draws.integers(seed, "post.tag_count", 1, 3, items.ids)
    parent = np.repeat(np.arange(len(items)), count)
    ordinal = np.arange(len(parent)) - np.repeat(np.cumsum(count) - count, count)
    ids = items.ids[parent]
    own = people.interests[items.creators[parent], draws.integers(seed, "post.tag_which", 0, 3, ids, ordinal)]
    tag = np.where(draws.uniform(seed, "post.tag_own", ids, ordinal) < 0.8, own, tag_draw(seed, "post.tag_any", ids, ordinal))
    keep = np.zeros(len(tag), dtype=bool)
    keep[np.unique(parent * places.TAGS + tag, return_index=True)[1]] = True
    parent, tag = parent[keep], tag[keep]
    kept = np.bincount(parent, minlength=len(items))
    return parent, np.arange(len(parent)) - np.repeat(np.cumsum(kept) - kept, kept), tag


def comments(seed: int, people: Persons, parents: Items, end: int):
    """(parent post index, ids, creator, time, replies to the previous comment) of comments by friends of the poster."""
    degree = people.friends.degree(parents.creators)
    count = np.floor((MAX_COMMENTS + 1) * draws.uniform(seed, "comment.count", parents.ids) ** 2).astype(np.int64)
    count = np.where(degree > 0, count, 0)
    parent, _, local = activity.children(parents, count, PER_COMMENT)
    ids = COMMENT_ID_BASE + local
    delay = activity.power_delay(seed, "comment.delay", ids, COMMENT_MEAN_MS, COMMENT_WITHIN_MS)
    creator = people.friends.nth(parents.creators[parent], draws.integers(seed, "comment.creator", 0, 1 << 30, ids))
    times = parents.times[parent] + delay
    earlier = np.concatenate(([False], (parent[1:] == parent[:-1]) & (delay[:-1] < delay[1:])))
    to_comment = earlier & (draws.uniform(seed, "comment.thread", ids) < 0.5)
    alive = (times >= people.created[creator]) & (times < end)
    # a reply to a comment that was not made goes to the post instead
    previous_alive = np.concatenate(([False], alive[:-1]))
    to_comment &= previous_alive
    keep = alive
    return parent[keep], ids[keep], creator[keep], times[keep], to_comment[keep]


def likes(seed: int, name: str, people: Persons, ids: np.ndarray, creators: np.ndarray, times: np.ndarray, most: int,
          end: int):
    """Likes of messages by distinct friends of their authors within a week: (message index, liker, time)."""
    count = np.floor((most + 1) * draws.uniform(seed, f"{name}.count", ids) ** 2).astype(np.int64)
    count = np.minimum(count, people.friends.degree(creators))
    start = draws.integers(seed, f"{name}.start", 0, 1 << 30, ids)
    parent = np.repeat(np.arange(len(ids)), count)
    ordinal = np.arange(len(parent)) - np.repeat(np.cumsum(count) - count, count)
    liker = people.friends.nth(creators[parent], start[parent] + ordinal)
    when = times[parent] + activity.power_delay(seed, f"{name}.delay", ids[parent] * 8 + ordinal, LIKE_MEAN_MS, LIKE_WITHIN_MS)
    keep = (when >= people.created[liker]) & (when < end)
    return parent[keep], liker[keep], when[keep]


def message_country(seed: int, people: Persons, creators: np.ndarray, ids: np.ndarray) -> np.ndarray:
    """The country a message is sent from: its author's (90%), else a country drawn by population (travel)."""
    home = places.city_country(people.city[creators])
    away = draws.weighted(seed, "message.away_country", places.COUNTRY_WEIGHTS, ids)
    return np.where(draws.uniform(seed, "message.travels", ids) < TRAVEL_SHARE, away, home)


def weeks_in(years: int) -> int:
    return -(-(years * YEAR_MS) // WEEK_MS)
