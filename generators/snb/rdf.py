"""SNB items as the datagen's Turtle serializer names them (``snvoc:`` properties, ``sn:`` instances), one kind of item at a time.

IRIs: ``sn:pers%020d``, ``sn:forum%020d`` (person p's wall is forum 8p, albums 8p+1..8p+3, group
8p+4), ``sn:post%020d``, ``sn:comm%020d``, ``sn:uni%06d``, ``sn:com%06d``, places under
``dbpedia:``, tags under ``sntag:``, tag classes under ``dbpedia-owl:``. Ids are ``xsd:long``,
dates ``xsd:dateTime`` with milliseconds (GMT), birthdays ``xsd:date``. Edges with attributes are
records with three triples, as in the serializer, but the records are named resources
(``sn:knows{a}_{b}``, ``sn:like{person}_{message}``, ``sn:mbs{forum}_{person}``, ``sn:study{p}``,
``sn:work{p}_{k}``) rather than blank nodes, so an event may refer to a record made in an earlier one.
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa

from generators.snb import model, places
from generators.social import draws
from generators.social.activity import Items
from generators.social.assemble import Kind, lazy
from generators.social.terms import (
    RDF_TYPE,
    dates,
    datetimes,
    integer_literals,
    ip_addresses,
    iris,
    join,
    numbers,
    padded,
    picks,
    plain_words,
)

SN = "http://www.ldbc.eu/ldbc_socialnet/1.0/data/"
SNVOC = "http://www.ldbc.eu/ldbc_socialnet/1.0/vocabulary/"
SNTAG = "http://www.ldbc.eu/ldbc_socialnet/1.0/tag/"
DBPEDIA = "http://dbpedia.org/resource/"
DBO = "http://dbpedia.org/ontology/"
FOAF = "http://xmlns.com/foaf/0.1/"
RDFS = "http://www.w3.org/2000/01/rdf-schema#"

BROWSERS = plain_words(["Firefox", "Chrome", "Internet Explorer", "Safari", "Opera"])
GENDERS = plain_words(["male", "female"])
FIRST_NAMES = plain_words(["Ali", "Bao", "Carmen", "Deepak", "Eva", "Farid", "Gloria", "Hans", "Ines", "Jun", "Kofi", "Li",
                           "Maria", "Nikhil", "Olga", "Pedro", "Qi", "Rahul", "Sara", "Tom", "Uwe", "Yang"])
LAST_NAMES = plain_words(["Alvarez", "Brown", "Chen", "Das", "Eze", "Fernandez", "Gupta", "Hoang", "Ivanov", "Jones",
                          "Khan", "Lopez", "Mueller", "Nakamura", "Okonkwo", "Perez", "Rossi", "Singh", "Wang", "Zhang"])
LANGUAGES = plain_words(places.LANGUAGES)
CITY_IRIS = pa.array([f"<{DBPEDIA}City_{n}>" for n in range(places.CITIES)])
COUNTRY_IRIS = pa.array([f"<{DBPEDIA}{country[0]}>" for country in places.COUNTRIES])
TAG_IRIS = pa.array([f"<{SNTAG}Tag_{n}>" for n in range(places.TAGS)])
TAG_WORDS = pa.array([f"Tag_{n}" for n in range(places.TAGS)])


def v(name: str) -> str:
    return f"<{SNVOC}{name}>"


def person_iris(people: model.Persons, index: np.ndarray) -> pa.Array:
    return iris(SN + "pers", people.keys[index], width=20)


def forum_iris(numbers_: np.ndarray) -> pa.Array:
    return iris(SN + "forum", numbers_, width=20)


def _long(values) -> pa.Array:
    return integer_literals(values, "long")


def _ip(seed: int, people: model.Persons, index: np.ndarray) -> pa.Array:
    return ip_addresses(draws.bits(seed, "person.ip", people.keys[index]))


def _browser(seed: int, people: model.Persons, index: np.ndarray) -> pa.Array:
    return picks(BROWSERS, draws.weighted(seed, "person.browser", (5, 6, 4, 2, 1), people.keys[index]))


def _country(seed: int, people: model.Persons, index: np.ndarray, ids: np.ndarray) -> pa.Array:
    return picks(COUNTRY_IRIS, model.message_country(seed, people, index, ids))


def _repeat(count: np.ndarray):
    parent = np.repeat(np.arange(len(count)), count)
    return parent, np.arange(len(parent)) - np.repeat(np.cumsum(count) - count, count)


def person_kind(seed: int, people: model.Persons, chosen: np.ndarray) -> Kind:
    keys = people.keys[chosen]
    person = lazy(lambda: person_iris(people, chosen))
    created = people.created[chosen]
    kind = Kind(created, keys)
    kind.fixed(person, RDF_TYPE, v("Person")).fixed(person, v("id"), lambda: _long(keys))
    kind.fixed(person, v("firstName"), lambda: picks(FIRST_NAMES, draws.integers(seed, "person.first", 0, 21, keys)))
    kind.fixed(person, v("lastName"), lambda: picks(LAST_NAMES, draws.integers(seed, "person.last", 0, 19, keys)))
    kind.fixed(person, v("gender"), lambda: picks(GENDERS, draws.integers(seed, "person.gender", 0, 1, keys)))
    kind.fixed(person, v("birthday"),
               lambda: dates(model.START_MS - draws.integers(seed, "person.age", 18 * 365, 70 * 365, keys) * 86_400_000))
    kind.fixed(person, v("creationDate"), lambda: datetimes(created, millis=True))
    kind.fixed(person, v("locationIP"), lambda: _ip(seed, people, chosen))
    kind.fixed(person, v("browserUsed"), lambda: _browser(seed, people, chosen))
    kind.fixed(person, v("isLocatedIn"), lambda: picks(CITY_IRIS, people.city[chosen]))
    kind.fixed(person, v("email"), lambda: join('"Person', numbers(keys), '@example.org"'))
    kind.fixed(person, v("speaks"), lambda: picks(LANGUAGES, places.city_country(people.city[chosen])))
    interest, ordinal = _repeat(people.interest_count[chosen])
    tags = people.interests[chosen[interest], ordinal]
    first = np.zeros(len(tags), dtype=bool)
    first[np.unique(interest * places.TAGS + tags, return_index=True)[1]] = True  # a person names an interest once
    interest, tags = interest[first], tags[first]
    _, ordinal = _repeat(np.bincount(interest, minlength=len(chosen)))
    kind.multi(interest, ordinal, lambda: person().take(pa.array(interest)), v("hasInterest"), lambda: picks(TAG_IRIS, tags))
    studied = np.flatnonzero(people.university[chosen] >= 0)
    zero = np.zeros(len(studied), dtype=np.int64)
    study = lazy(lambda: iris(SN + "study", keys[studied], width=20))
    kind.multi(studied, zero, lambda: person().take(pa.array(studied)), v("studyAt"), study)
    kind.multi(studied, zero, study, v("hasOrganisation"), lambda: iris(SN + "uni", people.university[chosen[studied]], width=6))
    kind.multi(studied, zero, study, v("classYear"), lambda: integer_literals(people.class_year[chosen[studied]], "int"))
    worker, job = _repeat(draws.integers(seed, "person.jobs", 0, 2, keys))
    work_iri = lazy(lambda: join(f"<{SN}work", padded(keys[worker], 20), "_", numbers(job), ">"))
    company = (places.city_country(people.city[chosen[worker]]) * places.COMPANIES_PER_COUNTRY
               + draws.integers(seed, "work.company", 0, places.COMPANIES_PER_COUNTRY - 1, keys[worker], job))
    kind.multi(worker, job, lambda: person().take(pa.array(worker)), v("workAt"), work_iri)
    kind.multi(worker, job, work_iri, v("hasOrganisation"), lambda: iris(SN + "com", company, width=6))
    kind.multi(worker, job, work_iri, v("workFrom"),
               lambda: integer_literals(people.class_year[chosen[worker]] + draws.integers(seed, "work.from", 0, 5, keys[worker], job), "int"))
    # the wall and the albums: forums made when their moderator joins
    owner, album = _repeat(people.albums[chosen] + 1)
    number = 8 * keys[owner] + album
    forum = lazy(lambda: forum_iris(number))
    kind.multi(owner, album, forum, RDF_TYPE, v("Forum"))
    kind.multi(owner, album, forum, v("id"), lambda: _long(number))
    kind.multi(owner, album, forum, v("title"), lambda: join(pa.array(np.where(album == 0, '"Wall of Person', '"Album of Person')),
                                                            numbers(keys[owner]), '"'))
    kind.multi(owner, album, forum, v("creationDate"), lambda: datetimes(created[owner], millis=True))
    kind.multi(owner, album, forum, v("hasModerator"), lambda: person().take(pa.array(owner)))
    return kind


def knows_kind(people: model.Persons, chosen: np.ndarray) -> Kind:
    a, b, when = people.knows_a[chosen], people.knows_b[chosen], people.knows_created[chosen]
    record = lazy(lambda: join(f"<{SN}knows", padded(people.keys[a], 20), "_", padded(people.keys[b], 20), ">"))
    kind = Kind(when, people.keys[a] * (1 << 24) + people.keys[b])
    kind.fixed(lambda: person_iris(people, a), v("knows"), record)
    kind.fixed(record, v("hasPerson"), lambda: person_iris(people, b))
    kind.fixed(record, v("creationDate"), lambda: datetimes(when, millis=True))
    return kind


def group_kind(people: model.Persons, chosen: np.ndarray) -> Kind:
    keys, when = people.keys[chosen], people.group_created[chosen]
    forum = lazy(lambda: forum_iris(8 * keys + 4))
    kind = Kind(when, keys)
    kind.fixed(forum, RDF_TYPE, v("Forum")).fixed(forum, v("id"), lambda: _long(8 * keys + 4))
    kind.fixed(forum, v("title"), lambda: join('"Group for ', picks(TAG_WORDS, people.interests[chosen, 0]), '"'))
    kind.fixed(forum, v("creationDate"), lambda: datetimes(when, millis=True))
    kind.fixed(forum, v("hasModerator"), lambda: person_iris(people, chosen))
    kind.fixed(forum, v("hasTag"), lambda: picks(TAG_IRIS, people.interests[chosen, 0]))
    return kind


def member_kind(people: model.Persons, moderator: np.ndarray, member: np.ndarray, when: np.ndarray) -> Kind:
    forum = 8 * people.keys[moderator] + 4
    record = lazy(lambda: join(f"<{SN}mbs", padded(forum, 20), "_", padded(people.keys[member], 20), ">"))
    kind = Kind(when, forum * (1 << 24) + people.keys[member])
    kind.fixed(lambda: forum_iris(forum), v("hasMember"), record)
    kind.fixed(record, v("hasPerson"), lambda: person_iris(people, member))
    kind.fixed(record, v("joinDate"), lambda: datetimes(when, millis=True))
    return kind


def post_forum_numbers(seed: int, people: model.Persons, posts: Items) -> np.ndarray:
    where = model.post_forums(seed, people, posts)
    base = 8 * people.keys[posts.creators]
    return np.where(where == 0, base, np.where(where == 1, base + 1 + model.post_album(seed, people, posts), base + 4))


def post_kind(seed: int, people: model.Persons, posts: Items) -> Kind:
    post = lazy(lambda: iris(SN + "post", posts.ids, width=20))
    photo = model.post_forums(seed, people, posts) == 1
    text, image = np.flatnonzero(~photo), np.flatnonzero(photo)
    length = draws.integers(seed, "post.length", 20, 200, posts.ids)
    tag_parent, tag_ordinal, tag = model.post_tags(seed, people, posts)
    kind = Kind(posts.times, posts.ids)
    kind.fixed(post, RDF_TYPE, v("Post")).fixed(post, v("id"), lambda: _long(posts.ids))
    kind.fixed(post, v("creationDate"), lambda: datetimes(posts.times, millis=True))
    kind.fixed(post, v("locationIP"), lambda: _ip(seed, people, posts.creators))
    kind.fixed(post, v("browserUsed"), lambda: _browser(seed, people, posts.creators))
    zeros_text, zeros_image = np.zeros(len(text), np.int64), np.zeros(len(image), np.int64)
    kind.multi(text, zeros_text, lambda: post().take(pa.array(text)), v("language"),
               lambda: picks(LANGUAGES, places.city_country(people.city[posts.creators[text]])))
    kind.multi(image, zeros_image, lambda: post().take(pa.array(image)), v("imageFile"),
               lambda: join('"photo', numbers(posts.ids[image]), '.jpg"'))
    kind.multi(text, zeros_text, lambda: post().take(pa.array(text)), v("content"),
               lambda: join('"About ', picks(TAG_WORDS, people.interests[posts.creators[text], 0]), ", post ",
                            numbers(posts.ids[text]), '"'))
    kind.fixed(post, v("length"), lambda: integer_literals(np.where(photo, 0, length), "int"))
    kind.fixed(post, v("hasCreator"), lambda: person_iris(people, posts.creators))
    kind.fixed(post, v("isLocatedIn"), lambda: _country(seed, people, posts.creators, posts.ids))
    kind.fixed(lambda: forum_iris(post_forum_numbers(seed, people, posts)), v("containerOf"), post)
    kind.multi(tag_parent, tag_ordinal, lambda: post().take(pa.array(tag_parent)), v("hasTag"), lambda: picks(TAG_IRIS, tag))
    return kind


def comment_kind(seed: int, people: model.Persons, posts: Items, found: tuple) -> Kind:
    parent, ids, creator, times, to_comment = found
    comment = lazy(lambda: iris(SN + "comm", ids, width=20))
    tagged = np.flatnonzero(draws.uniform(seed, "comment.tagged", ids) < 0.5)
    kind = Kind(times, ids)
    kind.fixed(comment, RDF_TYPE, v("Comment")).fixed(comment, v("id"), lambda: _long(ids))
    kind.fixed(comment, v("creationDate"), lambda: datetimes(times, millis=True))
    kind.fixed(comment, v("locationIP"), lambda: _ip(seed, people, creator))
    kind.fixed(comment, v("browserUsed"), lambda: _browser(seed, people, creator))
    kind.fixed(comment, v("content"), lambda: join('"Reply ', numbers(ids), '"'))
    kind.fixed(comment, v("length"), lambda: integer_literals(draws.integers(seed, "comment.length", 2, 120, ids), "int"))
    kind.fixed(comment, v("hasCreator"), lambda: person_iris(people, creator))
    kind.fixed(comment, v("isLocatedIn"), lambda: _country(seed, people, creator, ids))

    def reply_of() -> pa.Array:
        target = np.where(to_comment, ids - 1, posts.ids[parent])
        return join(f"<{SN}", pa.array(np.where(to_comment, "comm", "post")), padded(target, 20), ">")

    kind.fixed(comment, v("replyOf"), reply_of)
    kind.multi(tagged, np.zeros(len(tagged), np.int64), lambda: comment().take(pa.array(tagged)), v("hasTag"),
               lambda: picks(TAG_IRIS, people.interests[creator[tagged], 0]))
    return kind


def like_kind(people: model.Persons, message_ids: np.ndarray, found: tuple, is_post: bool) -> Kind:
    parent, liker, when = found
    message = message_ids[parent]
    letter = "post" if is_post else "comm"
    record = lazy(lambda: join(f"<{SN}like", padded(people.keys[liker], 20), f"_{letter}", padded(message, 20), ">"))
    kind = Kind(when, message * 64 + people.keys[liker] % 64)
    kind.fixed(lambda: person_iris(people, liker), v("likes"), record)
    kind.fixed(record, v("hasPost" if is_post else "hasComment"), lambda: iris(SN + letter, message, width=20))
    kind.fixed(record, v("creationDate"), lambda: datetimes(when, millis=True))
    return kind
