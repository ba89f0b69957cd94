"""LSBench (S2Gen) as a stream: one unit per day of data time, items in time order, one event per item by default.

``--scale`` users (numbered from ``--index``), ``days`` option (default 10, S2Gen's default
window 2010-01-01..01-10). The ``stream`` option picks what the stream holds: ``all`` (default)
or a comma list of ``posts`` (each event one post, 10-14 triples: TP-Join's LSBench events),
``comments``, ``likes`` (of posts and photos: ``postlikes`` and ``photolikes`` apart), ``photos``,
``gps``. Whatever the choice, the items kept are the same and in the same order as in ``all``: so
S2Gen's streams (posts, post likes, photos, photo likes, GPS) are made apart, one directory each
with the same static profile data, and merged again by a query over named windows
(``queries/streams/``). The static graph (users, persons, ``foaf:knows``, forums, subscriptions,
albums) is ``static.nt``. Timestamps are data time (ms)
unless a ``--rate`` is given.
"""

from __future__ import annotations

from collections.abc import Iterator

import pyarrow as pa

from common.errors import GeneratorError
from generators.framing import GeneratorSpec, event_batch
from generators.lsbench import model, rdf
from generators.social import activity
from generators.social.activity import DAY_MS
from generators.social.assemble import Kind, assemble, frame

NAME = "lsbench"
VERSION = "s2gen-like/1"
STREAMS = ("posts", "comments", "likes", "postlikes", "photolikes", "photos", "gps")
_BOTH_LIKES = {"likes": ("postlikes", "photolikes")}
MAX_USERS = 1 << activity.CREATOR_BITS


def days(spec: GeneratorSpec) -> int:
    value = spec.option("days", model.DEFAULT_DAYS)
    if not isinstance(value, int) or not 1 <= value <= 3660:
        raise GeneratorError(f"lsbench option days must be an integer in [1, 3660], got {value!r}")
    return value


def streams(spec: GeneratorSpec) -> tuple[str, ...]:
    text = str(spec.option("stream", "all"))
    chosen = STREAMS if text == "all" else tuple(part.strip() for part in text.split(","))
    unknown = [name for name in chosen if name not in STREAMS]
    if unknown or not chosen:
        raise GeneratorError(f"lsbench option stream={text!r}: expected 'all' or a comma list of {', '.join(STREAMS)}")
    expanded = [part for name in chosen for part in _BOTH_LIKES.get(name, (name,))]
    return tuple(name for name in STREAMS if name in expanded and name not in _BOTH_LIKES)


def units(spec: GeneratorSpec) -> list[int]:
    if spec.index + spec.scale > MAX_USERS:
        raise GeneratorError(f"lsbench: user numbers must stay below {MAX_USERS:,} (index + scale)")
    streams(spec)
    return list(range(days(spec)))


def _kinds(spec: GeneratorSpec, day: int) -> list[Kind]:
    """The unit's items per kind, always in the order posts, comments, post likes, photos, photo likes, gps."""
    people = model.users(spec.seed, spec.scale, spec.index)
    chosen = streams(spec)
    low, high = model.START_MS + day * DAY_MS, model.START_MS + (day + 1) * DAY_MS
    weeks = activity.weeks_overlapping(model.START_MS, low - model.LIKE_WITHIN_MS, high)
    kinds: list[Kind] = []
    if {"posts", "comments", "postlikes"} & set(chosen):
        posts = model.posts(spec.seed, people, weeks)
        if "posts" in chosen:
            kinds.append(rdf.post_kind(spec.seed, people, posts.select(activity.in_slice(posts.times, low, high))))
        if "comments" in chosen:
            recent = posts.select(activity.in_slice(posts.times, low - model.COMMENT_WITHIN_MS, high))
            kinds.append(rdf.comment_kind(spec.seed, people, recent, low, high))
        if "postlikes" in chosen:
            recent = posts.select(activity.in_slice(posts.times, low - model.LIKE_WITHIN_MS, high))
            liked = model.likes(spec.seed, "like", people, recent, model.MAX_LIKES)
            kinds.append(rdf.like_kind(people, recent, liked, rdf.SIB + "post/po", low, high))
    if {"photos", "photolikes"} & set(chosen):
        photos = model.photos(spec.seed, people, weeks)
        if "photos" in chosen:
            kinds.append(rdf.photo_kind(spec.seed, people, photos.select(activity.in_slice(photos.times, low, high))))
        if "photolikes" in chosen:
            recent = photos.select(activity.in_slice(photos.times, low - model.LIKE_WITHIN_MS, high))
            liked = model.likes(spec.seed, "photo_like", people, recent, model.MAX_PHOTO_LIKES)
            kinds.append(rdf.like_kind(people, recent, liked, rdf.SIB + "photoalbum/photo/pho", low, high))
    if "gps" in chosen:
        kinds.append(rdf.gps_kind(spec.seed, people, day))
    return kinds


def unit_rows(spec: GeneratorSpec, day: int, render: bool = True):
    return assemble(_kinds(spec, day), render)


def unit_counts(spec: GeneratorSpec, unit: int) -> tuple[int, int]:
    rows = unit_rows(spec, unit, render=False)
    return len(rows.sizes), int(rows.sizes.sum())


def known_counts(spec: GeneratorSpec) -> None:
    return None


def unit_batches(spec: GeneratorSpec, unit: int, first_entity: int, first_triple: int) -> Iterator[pa.RecordBatch]:
    rows = unit_rows(spec, unit)
    if not len(rows.s):
        return
    event, ts = frame(rows.sizes, rows.times, first_entity, first_triple, spec.shape, spec.rate,
                      model.START_MS + unit * DAY_MS,
                      None if unit == days(spec) - 1 else model.START_MS + (unit + 1) * DAY_MS)
    yield event_batch(event, ts, rows.s, rows.p, rows.o)


def schema_ntriples(spec: GeneratorSpec) -> None:
    return None


def static_ntriples(spec: GeneratorSpec) -> str:
    return "\n".join(rdf.static_lines(spec.seed, model.users(spec.seed, spec.scale, spec.index))) + "\n"


def provenance(spec: GeneratorSpec) -> dict:
    return {
        "generator": {"name": NAME, "version": VERSION, "follows": "LSBench S2Gen params.ini and NTriples serializer"},
        "unit": "day of data time",
        "users": spec.scale,
        "first_user": spec.index,
        "days": days(spec),
        "streams": list(streams(spec)),
        "start": "2010-01-01T00:00:00Z",
        "rate": spec.rate,
        "ts_source": "rate" if spec.rate else "data time of each event's first triple (ms since the epoch, UTC)",
    }
