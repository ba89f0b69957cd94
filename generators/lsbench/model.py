"""LSBench (S2Gen) users and their streams as numpy columns, every value a function of (seed, user, week or day, item).

Follows S2Gen's ``params.ini`` (``shared/reference/datasets.md`` section 3): friends per user in
[5, 40] (a bounded power law, exponent 1.5: mean ~13.5), friendships mostly between users of the same city
(70% of the stubs paired in city order, 30% at random); per user and week at most 10 location
and 15 interest posts (U[0,10] + U[0,15]) plus up to 5 group posts for group members; up to 20
comments a post (floor(21 U^2): mean ~6.5), by friends of the poster, within a day (heavy tail,
mean 2 h); up to 10 likes a post (floor(11 U^2)) and 4 a photo, by distinct friends, within a week
(mean 1 day); up to 3 albums a user, photos in them with up to 10 user tags of friends; GPS: a user
shares with probability 0.1, then each day a burst of k in [1, 100] fixes 5 s apart, drifting by
up to 0.01 degree a fix from the home city. The stream starts 2010-01-01 (S2Gen's default window).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from generators.social import activity, draws, graph
from generators.social.activity import DAY_MS, HOUR_MS, SECOND_MS, Items

START_MS = 1_262_304_000_000  # 2010-01-01T00:00:00Z
DEFAULT_DAYS = 10
FRIENDS = (5, 40)
FRIEND_EXPONENT = 1.5
CITY_SHARE = 0.7
CITY_SPREAD = 4.0  # ranks of jitter when pairing in city order
GROUP_SIZE = 20  # users per group forum, on average
PER_POST, PER_COMMENT, PER_LIKE, PER_PHOTO, PER_TAG, PER_PHOTO_LIKE, PER_FIX = 32, 32, 16, 16, 16, 8, 128
MAX_HASHTAGS, MAX_COMMENTS, MAX_LIKES, MAX_TAGS, MAX_PHOTO_LIKES = 4, 20, 10, 10, 4
COMMENT_WITHIN_MS, COMMENT_MEAN_MS = DAY_MS, 2 * HOUR_MS
LIKE_WITHIN_MS, LIKE_MEAN_MS = 7 * DAY_MS, DAY_MS
GPS_SHARE, GPS_MAX_FIXES, GPS_STEP_MS, GPS_DRIFT = 0.1, 100, 5 * SECOND_MS, 0.01
CITIES = (
    ("Berlin", 52.52, 13.405), ("Paris", 48.857, 2.352), ("London", 51.507, -0.128), ("Dublin", 53.35, -6.26),
    ("Amsterdam", 52.37, 4.895), ("Madrid", 40.417, -3.704), ("Rome", 41.903, 12.496), ("Vienna", 48.208, 16.373),
    ("Galway", 53.27, -9.057), ("Hanoi", 21.028, 105.854), ("Beijing", 39.904, 116.407), ("Tokyo", 35.69, 139.692),
    ("New_York_City", 40.713, -74.006), ("Chicago", 41.878, -87.63), ("Sao_Paulo", -23.55, -46.633),
    ("Lagos", 6.524, 3.379), ("Mumbai", 19.076, 72.878), ("Sydney", -33.869, 151.209),
)
CITY_WEIGHTS = (8, 8, 9, 4, 4, 6, 5, 4, 2, 5, 9, 8, 9, 5, 5, 3, 6, 4)
TAGS = 200  # hashtags #0..#199 name DBpedia-like topics; picked by a Zipf law or from the user's interests


@dataclass(frozen=True)
class Users:
    """The static population: ``keys`` are the external user numbers (``--index`` + i)."""

    keys: np.ndarray
    city: np.ndarray
    interests: np.ndarray  # (users, 3) tag numbers
    groups: np.ndarray  # group number of each user, -1 for none
    albums: np.ndarray
    gps: np.ndarray  # bool: shares GPS fixes
    targets: np.ndarray
    friends: graph.Adjacency

    def __len__(self) -> int:
        return len(self.keys)


def tag_draw(seed: int, name: str, *ids) -> np.ndarray:
    """A Zipf-like (weights 1/(r+1)) tag number."""
    return draws.weighted(seed, name, 1.0 / np.arange(1, TAGS + 1), *ids)


@lru_cache(maxsize=4)
def users(seed: int, scale: int, index: int) -> Users:
    keys = np.arange(index, index + scale, dtype=np.int64)
    city = draws.weighted(seed, "user.city", CITY_WEIGHTS, keys)
    interests = np.stack([tag_draw(seed, f"user.interest{i}", keys) for i in range(3)], axis=1)
    groups = np.where(draws.uniform(seed, "user.in_group", keys) < 0.6,
                      draws.integers(seed, "user.group", 0, max(1, scale // GROUP_SIZE) - 1, keys), -1)
    albums = draws.integers(seed, "user.albums", 0, 3, keys)
    gps = draws.uniform(seed, "user.gps", keys) < GPS_SHARE
    targets = graph.bounded_power_law(seed, "user.friends", keys, *FRIENDS, FRIEND_EXPONENT)
    city_rank = np.argsort(np.lexsort((draws.uniform(seed, "user.city_rank", keys), city))).astype(np.float64)
    random_rank = np.argsort(np.argsort(draws.uniform(seed, "user.random_rank", keys))).astype(np.float64)
    near = graph.share(seed, "user.city_share", keys, targets, CITY_SHARE)
    known = graph.pair_stubs(seed, "knows.city", keys, city_rank, near, CITY_SPREAD)
    known = np.concatenate((known, graph.pair_stubs(seed, "knows.random", keys, random_rank, targets - near, 1.0, known)))
    a, b = graph.edges(known, scale)
    return Users(keys, city, interests, groups, albums, gps, targets, graph.Adjacency.from_edges(scale, a, b))


def _distinct_friends(seed: int, name: str, friends: graph.Adjacency, creators: np.ndarray, parent_ids: np.ndarray,
                      counts: np.ndarray):
    """Up to ``counts[i]`` distinct friends of ``creators[i]``: consecutive neighbours from a random start."""
    counts = np.minimum(counts, friends.degree(creators))
    start = draws.integers(seed, name, 0, 1 << 30, parent_ids)
    parent = np.repeat(np.arange(len(counts)), counts)
    ordinal = np.arange(len(parent)) - np.repeat(np.cumsum(counts) - counts, counts)
    return parent, ordinal, friends.nth(creators[parent], start[parent] + ordinal)


def posts(seed: int, people: Users, weeks: np.ndarray) -> Items:
    w, k = weeks[:, None], people.keys[None, :]
    wall = draws.integers(seed, "post.location", 0, 10, k, w) + draws.integers(seed, "post.interest", 0, 15, k, w)
    group = np.where(people.groups[None, :] >= 0, draws.integers(seed, "post.group", 0, 5, k, w), 0)
    return activity.weekly(seed, "post", people.keys, weeks, wall + group, START_MS, PER_POST)


def post_walls(seed: int, people: Users, items: Items) -> np.ndarray:
    """Whether each post goes to its creator's wall (else to the creator's group forum)."""
    w = (items.ids // PER_POST) >> activity.CREATOR_BITS
    k = people.keys[items.creators]
    wall = draws.integers(seed, "post.location", 0, 10, k, w) + draws.integers(seed, "post.interest", 0, 15, k, w)
    return items.ordinal < wall


def hashtags(seed: int, people: Users, items: Items):
    """(post index, ordinal, tag): 0-4 tags a post, from the poster's interests (70%) or the Zipf law."""
    count = draws.integers(seed, "post.hashtags", 0, MAX_HASHTAGS, items.ids)
    parent = np.repeat(np.arange(len(items)), count)
    ordinal = np.arange(len(parent)) - np.repeat(np.cumsum(count) - count, count)
    ids = items.ids[parent]
    own = people.interests[items.creators[parent], draws.integers(seed, "hashtag.which", 0, 2, ids, ordinal)]
    tag = np.where(draws.uniform(seed, "hashtag.own", ids, ordinal) < 0.7, own, tag_draw(seed, "hashtag.any", ids, ordinal))
    first = np.unique(parent * TAGS + tag, return_index=True)[1]  # a post names a tag once
    keep = np.zeros(len(tag), dtype=bool)
    keep[first] = True
    parent, tag = parent[keep], tag[keep]
    kept = np.bincount(parent, minlength=len(items))
    return parent, np.arange(len(parent)) - np.repeat(np.cumsum(kept) - kept, kept), tag


def comments(seed: int, people: Users, parents: Items):
    """Comments of ``parents``: (parent index, ordinal, id, creator, time, replies to the previous comment)."""
    count = np.floor((MAX_COMMENTS + 1) * draws.uniform(seed, "comment.count", parents.ids) ** 2).astype(np.int64)
    count = np.where(people.friends.degree(parents.creators) > 0, count, 0)
    parent, ordinal, ids = activity.children(parents, count, PER_COMMENT)
    delay = activity.power_delay(seed, "comment.delay", ids, COMMENT_MEAN_MS, COMMENT_WITHIN_MS)
    creator = people.friends.nth(parents.creators[parent], draws.integers(seed, "comment.creator", 0, 1 << 30, ids))
    earlier = np.concatenate(([False], (parent[1:] == parent[:-1]) & (delay[:-1] < delay[1:])))
    to_comment = earlier & (draws.uniform(seed, "comment.thread", ids) < 0.5)
    return parent, ordinal, ids, creator, parents.times[parent] + delay, to_comment


def likes(seed: int, name: str, people: Users, parents: Items, most: int):
    """Likes of ``parents`` by distinct friends of their creators: (parent index, liker, time)."""
    count = np.floor((most + 1) * draws.uniform(seed, f"{name}.count", parents.ids) ** 2).astype(np.int64)
    parent, ordinal, liker = _distinct_friends(seed, f"{name}.start", people.friends, parents.creators, parents.ids, count)
    delay = activity.power_delay(seed, f"{name}.delay", parents.ids[parent] * PER_LIKE + ordinal, LIKE_MEAN_MS, LIKE_WITHIN_MS)
    return parent, liker, parents.times[parent] + delay


def photos(seed: int, people: Users, weeks: np.ndarray) -> Items:
    w, k = weeks[:, None], people.keys[None, :]
    count = draws.integers(seed, "photo.count", 0, 4 * people.albums[None, :], k, w)
    return activity.weekly(seed, "photo", people.keys, weeks, count, START_MS, PER_PHOTO)


def photo_albums(seed: int, people: Users, items: Items) -> np.ndarray:
    """Album number (user key * 3 + a) of each photo."""
    album = draws.integers(seed, "photo.album", 0, np.maximum(people.albums[items.creators] - 1, 0), items.ids)
    return people.keys[items.creators] * 3 + album


def usertags(seed: int, people: Users, items: Items):
    count = np.floor((MAX_TAGS + 1) * draws.uniform(seed, "usertag.count", items.ids) ** 2).astype(np.int64)
    return _distinct_friends(seed, "usertag.start", people.friends, items.creators, items.ids, count)


def gps_fixes(seed: int, people: Users, day: int):
    """GPS fixes of day ``day``: (user index, fix id, time, latitude, longitude)."""
    sharers = np.flatnonzero(people.gps)
    keys = people.keys[sharers]
    count = draws.integers(seed, "gps.count", 1, GPS_MAX_FIXES, keys, day)
    user = np.repeat(sharers, count)
    ordinal = np.arange(len(user)) - np.repeat(np.cumsum(count) - count, count)
    first = draws.integers(seed, "gps.start", 0, DAY_MS - GPS_MAX_FIXES * GPS_STEP_MS, keys, day)
    times = START_MS + day * DAY_MS + np.repeat(first, count) + ordinal * GPS_STEP_MS
    ids = ((np.int64(day) << activity.CREATOR_BITS) + people.keys[user]) * PER_FIX + ordinal
    drift_lat = draws.uniform(seed, "gps.lat", ids) * GPS_DRIFT
    drift_lon = draws.uniform(seed, "gps.lon", ids) * GPS_DRIFT
    starts = np.repeat(np.cumsum(count) - count, count)
    lat, lon = np.cumsum(drift_lat), np.cumsum(drift_lon)
    lat = lat - (lat[starts] - drift_lat[starts])  # drift summed within each burst
    lon = lon - (lon[starts] - drift_lon[starts])
    home = np.array([(c[1], c[2]) for c in CITIES])[people.city[user]]
    return user, ids, times, home[:, 0] + lat, home[:, 1] + lon
