"""LSBench items as S2Gen's N-Triples: the ``sib:``/``sioc:``/``foaf:``/``dc:``/``dcterms:``/``dbpprop:`` vocabulary and IRIs.

Instances live under ``http://www.ins.cwi.nl/sib/``: ``user/u{n}``, ``person/p{n}``,
``forum/fo{n}`` (user n's wall is ``fo{2n}``, group g's forum ``fo{2g+1}``), ``post/po{n}``,
``post/comment/co{n}``, ``photoalbum/pa{n}``, ``photoalbum/photo/pho{n}``, ``gps/gps{n}``.
A post is 10 triples plus 0-4 ``sib:hashtag`` triples (10-14, the event TP-Join streams); a comment
9; a like 1 (``user sib:like post|photo``); a photo 10 plus 0-10 ``sib:usertag``; a GPS fix 5.
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa

from generators.lsbench import model
from generators.social import draws
from generators.social.activity import Items
from generators.social.assemble import Kind, lazy
from generators.social.terms import (
    RDF_TYPE,
    dates,
    datetimes,
    decimal_literals,
    integer_literals,
    ip_addresses,
    iris,
    join,
    numbers,
    picks,
    plain_words,
)

SIB = "http://www.ins.cwi.nl/sib/"
V = SIB + "vocabulary/"
SIOC = "http://rdfs.org/sioc/ns#"
SIOCT = "http://rdfs.org/sioc/types#"
FOAF = "http://xmlns.com/foaf/0.1/"
DC = "http://purl.org/dc/elements/1.1/"
DCTERMS = "http://purl.org/dc/terms/"
DBPO = "http://dbpedia.org/ontology/"
DBPPROP = "http://dbpedia.org/property/"
DBPEDIA = "http://dbpedia.org/resource/"

BROWSERS = plain_words(["Firefox", "Chrome", "Internet Explorer", "Safari", "Opera"])
AGENTS = plain_words(["Web", "Android", "iPhone", "BlackBerry"])
CITY_NAMES = plain_words([city[0] for city in model.CITIES])
CITY_PLACES = np.array([(city[1], city[2]) for city in model.CITIES])
CITY_IRIS = pa.array([f"<{DBPEDIA}{city[0]}>" for city in model.CITIES])
TAG_NAMES = plain_words([f"Topic{n}" for n in range(model.TAGS)])
TAG_WORDS = pa.array([f"Topic{n}" for n in range(model.TAGS)])
FIRST_NAMES = plain_words(["Anna", "Ben", "Chen", "Dara", "Emil", "Fatima", "Gustav", "Hana", "Ivan", "Jana", "Karim",
                           "Lena", "Minh", "Nora", "Omar", "Pia", "Quang", "Rosa", "Sven", "Tuan", "Uma", "Vera"])
LAST_NAMES = plain_words(["Ahmed", "Becker", "Costa", "Dao", "Evans", "Fischer", "Garcia", "Huber", "Ito", "Jensen",
                          "Kowalski", "Le", "Murphy", "Nguyen", "Okafor", "Petrov", "Rossi", "Smith", "Tanaka", "Wang"])
GENDERS = plain_words(["male", "female"])
ORGANISATIONS = pa.array([f"<{DBPEDIA}Organisation_{n}>" for n in range(50)])


def _p(prefix: str, name: str) -> str:
    return f"<{prefix}{name}>"


def users_of(people: model.Users, index: np.ndarray) -> pa.Array:
    return iris(SIB + "user/u", people.keys[index])


def _ip(seed: int, people: model.Users, users: np.ndarray) -> pa.Array:
    return ip_addresses(draws.bits(seed, "user.ip", people.keys[users]))


def _browser(seed: int, people: model.Users, users: np.ndarray) -> pa.Array:
    return picks(BROWSERS, draws.weighted(seed, "user.browser", (5, 6, 4, 2, 1), people.keys[users]))


def _forum_numbers(seed: int, people: model.Users, posts: Items) -> np.ndarray:
    """The creator's wall (``fo{2n}``) or, for group posts, the creator's group forum (``fo{2g+1}``)."""
    return np.where(model.post_walls(seed, people, posts), 2 * people.keys[posts.creators],
                    2 * (people.keys[0] + people.groups[posts.creators]) + 1)


def post_kind(seed: int, people: model.Users, posts: Items) -> Kind:
    post = lazy(lambda: iris(SIB + "post/po", posts.ids))
    tag_parent, tag_ordinal, tag = model.hashtags(seed, people, posts)
    kind = Kind(posts.times, posts.ids)
    kind.fixed(post, RDF_TYPE, _p(V, "Post")).fixed(post, RDF_TYPE, _p(SIOC, "Post"))
    kind.fixed(post, _p(DCTERMS, "title"), lambda: join('"About ', picks(TAG_WORDS, people.interests[posts.creators, 0]), '"'))
    kind.fixed(post, _p(DC, "created"), lambda: datetimes(posts.times))
    kind.fixed(post, _p(V, "agent"), lambda: picks(AGENTS, draws.weighted(seed, "post.agent", (6, 3, 2, 1), posts.ids)))
    kind.fixed(post, _p(V, "browser"), lambda: _browser(seed, people, posts.creators))
    kind.fixed(post, _p(SIOC, "ip_address"), lambda: _ip(seed, people, posts.creators))
    kind.fixed(post, _p(SIOC, "content"),
               lambda: join('"Post ', numbers(posts.ids), " of u", numbers(people.keys[posts.creators]), '"'))
    kind.fixed(lambda: iris(SIB + "forum/fo", _forum_numbers(seed, people, posts)), _p(SIOC, "container_of"), post)
    kind.fixed(lambda: users_of(people, posts.creators), _p(SIOC, "creator_of"), post)
    kind.multi(tag_parent, tag_ordinal, lambda: post().take(pa.array(tag_parent)), _p(V, "hashtag"),
               lambda: picks(TAG_NAMES, tag))
    return kind


def comment_kind(seed: int, people: model.Users, posts: Items, low: int, high: int) -> Kind:
    parent, _, ids, creator, times, to_comment = model.comments(seed, people, posts)
    keep = (times >= low) & (times < high)
    parent, ids, creator, times, to_comment = parent[keep], ids[keep], creator[keep], times[keep], to_comment[keep]
    comment = lazy(lambda: iris(SIB + "post/comment/co", ids))

    def reply_of() -> pa.Array:
        target = np.where(to_comment, ids - 1, posts.ids[parent])
        path = pa.array(np.where(to_comment, "comment/co", "po"), pa.string())
        return join(f"<{SIB}post/", path, numbers(target), ">")

    kind = Kind(times, ids)
    kind.fixed(comment, RDF_TYPE, _p(V, "Comment")).fixed(comment, RDF_TYPE, _p(SIOC, "Item"))
    kind.fixed(comment, _p(DC, "created"), lambda: datetimes(times))
    kind.fixed(comment, _p(SIOC, "reply_of"), reply_of)
    kind.fixed(comment, _p(SIOC, "content"), lambda: join('"Comment ', numbers(ids), " of u", numbers(people.keys[creator]), '"'))
    kind.fixed(comment, _p(V, "browser"), lambda: _browser(seed, people, creator))
    kind.fixed(comment, _p(SIOC, "ip_address"), lambda: _ip(seed, people, creator))
    kind.fixed(lambda: iris(SIB + "forum/fo", _forum_numbers(seed, people, posts)[parent]), _p(SIOC, "container_of"), comment)
    kind.fixed(lambda: users_of(people, creator), _p(SIOC, "creator_of"), comment)
    return kind


def like_kind(people: model.Users, parents: Items, liked: tuple, prefix: str, low: int, high: int) -> Kind:
    parent, liker, times = liked
    keep = (times >= low) & (times < high)
    parent, liker, times = parent[keep], liker[keep], times[keep]
    kind = Kind(times, parents.ids[parent] * model.PER_LIKE + people.keys[liker] % model.PER_LIKE)
    return kind.fixed(lambda: users_of(people, liker), _p(V, "like"), lambda: iris(prefix, parents.ids[parent]))


def photo_kind(seed: int, people: model.Users, photos: Items) -> Kind:
    photo = lazy(lambda: iris(SIB + "photoalbum/photo/pho", photos.ids))
    city = people.city[photos.creators]
    home = CITY_PLACES[city]
    tag_parent, tag_ordinal, tagged = model.usertags(seed, people, photos)
    kind = Kind(photos.times, photos.ids)
    kind.fixed(photo, RDF_TYPE, _p(V, "Photo")).fixed(photo, RDF_TYPE, _p(SIOC, "Item"))
    kind.fixed(photo, _p(DC, "created"), lambda: datetimes(photos.times))
    kind.fixed(photo, _p(DBPO, "location"), lambda: picks(CITY_NAMES, city))
    kind.fixed(photo, _p(DBPPROP, "latd"),
               lambda: decimal_literals(home[:, 0] + 0.05 * draws.normal(seed, "photo.lat", photos.ids), 6))
    kind.fixed(photo, _p(DBPPROP, "longd"),
               lambda: decimal_literals(home[:, 1] + 0.05 * draws.normal(seed, "photo.lon", photos.ids), 6))
    kind.fixed(photo, _p(V, "browser"), lambda: _browser(seed, people, photos.creators))
    kind.fixed(photo, _p(SIOC, "ip_address"), lambda: _ip(seed, people, photos.creators))
    kind.fixed(lambda: iris(SIB + "photoalbum/pa", model.photo_albums(seed, people, photos)), _p(SIOC, "container_of"), photo)
    kind.fixed(lambda: users_of(people, photos.creators), _p(SIOC, "creator_of"), photo)
    kind.multi(tag_parent, tag_ordinal, lambda: photo().take(pa.array(tag_parent)), _p(V, "usertag"),
               lambda: users_of(people, tagged))
    return kind


def gps_kind(seed: int, people: model.Users, day: int) -> Kind:
    user, ids, times, lat, lon = model.gps_fixes(seed, people, day)
    fix = lazy(lambda: iris(SIB + "gps/gps", ids))
    kind = Kind(times, ids)
    kind.fixed(lambda: users_of(people, user), _p(V, "trackedAt"), fix)
    kind.fixed(fix, _p(DBPPROP, "latd"), lambda: decimal_literals(lat, 6))
    kind.fixed(fix, _p(DBPPROP, "longd"), lambda: decimal_literals(lon, 6))
    kind.fixed(fix, _p(V, "trackedTime"), lambda: datetimes(times))
    kind.fixed(fix, _p(V, "trackedLocation"), lambda: picks(CITY_NAMES, people.city[user]))
    return kind


def static_lines(seed: int, people: model.Users) -> list[str]:
    """The static graph (users, persons, friendships, forums, subscriptions, albums) as N-Triples lines."""
    n = len(people)
    everyone = np.arange(n)
    user, person = users_of(people, everyone), iris(SIB + "person/p", people.keys)
    wall = iris(SIB + "forum/fo", 2 * people.keys)
    keys = people.keys
    birthday = model.START_MS - draws.integers(seed, "person.age", 18 * 365, 60 * 365, keys) * 86_400_000
    home = CITY_PLACES[people.city]
    rows: list[tuple[pa.Array, str, pa.Array | str]] = [
        (user, RDF_TYPE, _p(V, "User")), (user, RDF_TYPE, _p(SIOC, "User")), (user, _p(SIOC, "account_of"), person),
        (user, _p(SIOC, "moderator_of"), wall),
        *((user, _p(V, "interest"), picks(TAG_NAMES, people.interests[:, i])) for i in range(3)),
        (person, RDF_TYPE, _p(FOAF, "Person")),
        (person, _p(FOAF, "firstName"), picks(FIRST_NAMES, draws.integers(seed, "person.first", 0, len(FIRST_NAMES) - 1, keys))),
        (person, _p(FOAF, "lastName"), picks(LAST_NAMES, draws.integers(seed, "person.last", 0, len(LAST_NAMES) - 1, keys))),
        (person, _p(FOAF, "gender"), picks(GENDERS, draws.integers(seed, "person.gender", 0, 1, keys))),
        (person, _p(FOAF, "birthday"), dates(birthday)),
        (person, _p(FOAF, "based_near"), picks(CITY_IRIS, people.city)),
        (person, _p(DBPPROP, "latd"), decimal_literals(home[:, 0], 6)),
        (person, _p(DBPPROP, "longd"), decimal_literals(home[:, 1], 6)),
        (person, _p(V, "class_year"), integer_literals(draws.integers(seed, "person.class_year", 1990, 2009, keys))),
        (person, _p(V, "workAt"), picks(ORGANISATIONS, draws.integers(seed, "person.work", 0, 49, keys))),
        (wall, RDF_TYPE, _p(SIOC, "Forum")), (wall, _p(SIOC, "has_moderator"), user),
        (wall, _p(DC, "title"), join('"Wall of u', numbers(keys), '"')),
    ]
    source = np.repeat(everyone, np.diff(people.friends.offsets))
    friend = people.friends.neighbours
    rows.append((users_of(people, source), _p(FOAF, "knows"), users_of(people, friend)))
    rows.append((users_of(people, source), _p(SIOC, "subscriber_of"), iris(SIB + "forum/fo", 2 * keys[friend])))
    member = np.flatnonzero(people.groups >= 0)
    group_forum = iris(SIB + "forum/fo", 2 * (keys[0] + people.groups[member]) + 1)
    rows.append((users_of(people, member), _p(SIOC, "subscriber_of"), group_forum))
    groups = np.unique(people.groups[member])
    group_iri = iris(SIB + "forum/fo", 2 * (keys[0] + groups) + 1)
    rows += [(group_iri, RDF_TYPE, _p(SIOC, "Forum")), (group_iri, _p(DC, "title"), join('"Group ', numbers(groups), '"'))]
    owner = np.repeat(everyone, people.albums)
    album = 3 * keys[owner] + (np.arange(len(owner)) - np.repeat(np.cumsum(people.albums) - people.albums, people.albums))
    album_iri = iris(SIB + "photoalbum/pa", album)
    rows += [(album_iri, RDF_TYPE, _p(SIOCT, "ImageGallery")), (users_of(people, owner), _p(SIOC, "creator_of"), album_iri)]
    lines: list[str] = []
    for s, p, o in rows:
        objects = o if not isinstance(o, str) else pa.array([o] * len(s), pa.string())
        lines.extend(join(s.cast(pa.string()), " ", p, " ", objects.cast(pa.string()), " .").to_pylist())
    return list(dict.fromkeys(lines))
