"""LDBC SNB as a stream: one unit per week of simulated time, events by message (default) or by week.

``--scale`` persons (numbered from ``--index``), ``years`` option (default 1, as TP-Join's runs;
the datagen simulates 3). The ``events`` option: ``message`` (default; TP-Join's incremental runs)
makes an event of each post or comment together with the smaller records (a person joining,
a friendship, a membership, a like) that come after it and before the next message, so events
hold 10-50 triples; ``week`` makes one event of each week (TP-Join's scalability runs: event sizes
grow as persons join). ``--events-of K`` cuts the same rows into K triples. The static graph
(places, organisations, tags, tag classes) is ``static.nt``. The ``stream`` option keeps some kinds of
records (``all``, default; or a comma list of ``persons``, ``knows``, ``groups``, ``members``, ``postlikes``,
``posts``, ``comments``, ``commentlikes``, with ``messages`` for posts and comments and ``likes`` for both
likes), in the same order as in ``all``: so messages and likes are made as two streams apart, for a query
over named windows (``queries/streams/``); a stream without messages has an event per record. Timestamps are data time in ms: an
event takes the time of its first triple (a week event: of the week's first record) unless a ``--rate`` is given.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pyarrow as pa

from common.errors import GeneratorError
from generators.framing import GeneratorSpec, event_batch
from generators.snb import model, rdf, static
from generators.social import activity
from generators.social.activity import WEEK_MS
from generators.social.assemble import Kind, assemble, frame

NAME = "snb"
VERSION = "ldbc-snb-datagen-like/1"
EVENT_KINDS = ("message", "week")
MESSAGE_KINDS = (5, 6)  # positions of posts and comments in the unit's kind list
KINDS = ("persons", "knows", "groups", "members", "postlikes", "posts", "comments", "commentlikes")
_GROUPS = {"messages": ("posts", "comments"), "likes": ("postlikes", "commentlikes")}


def kept_kinds(spec: GeneratorSpec) -> tuple[str, ...]:
    text = str(spec.option("stream", "all"))
    chosen = KINDS if text == "all" else tuple(part.strip() for part in text.split(","))
    unknown = [name for name in chosen if name not in KINDS and name not in _GROUPS]
    if unknown or not chosen:
        raise GeneratorError(f"snb option stream={text!r}: expected 'all' or a comma list of "
                             f"{', '.join((*KINDS, *_GROUPS))}")
    expanded = {part for name in chosen for part in _GROUPS.get(name, (name,))}
    return tuple(name for name in KINDS if name in expanded)


def years(spec: GeneratorSpec) -> int:
    value = spec.option("years", model.DEFAULT_YEARS)
    if not isinstance(value, int) or not 1 <= value <= 10:
        raise GeneratorError(f"snb option years must be an integer in [1, 10], got {value!r}")
    return value


def event_kind(spec: GeneratorSpec) -> str:
    value = spec.option("events", "message")
    if value not in EVENT_KINDS:
        raise GeneratorError(f"snb option events must be one of {', '.join(EVENT_KINDS)}, got {value!r}")
    return value


def units(spec: GeneratorSpec) -> list[int]:
    if spec.index + spec.scale > 1 << activity.CREATOR_BITS:
        raise GeneratorError(f"snb: person numbers must stay below {1 << activity.CREATOR_BITS:,} (index + scale)")
    event_kind(spec)
    kept_kinds(spec)
    return list(range(model.weeks_in(years(spec))))


def people(spec: GeneratorSpec) -> model.Persons:
    return model.persons(spec.seed, spec.scale, spec.index, years(spec))


def _bounds(spec: GeneratorSpec, week: int) -> tuple[int, int, int]:
    end = model.end_ms(years(spec))
    return model.START_MS + week * WEEK_MS, min(model.START_MS + (week + 1) * WEEK_MS, end), end


def _kinds(spec: GeneratorSpec, week: int):
    """The week's items: persons, friendships, groups, memberships, post likes, posts, comments, comment likes."""
    seed, crowd = spec.seed, people(spec)
    low, high, end = _bounds(spec, week)
    inside = lambda times: (times >= low) & (times < high)  # noqa: E731
    moderator, member, joined = model.members(spec.seed, spec.scale, spec.index, years(spec))
    joined_now = inside(joined)
    posts = model.posts(seed, crowd, activity.weeks_overlapping(model.START_MS, low - model.LIKE_WITHIN_MS - model.COMMENT_WITHIN_MS, high), end)
    recent = posts.select(posts.times >= low - model.COMMENT_WITHIN_MS)
    found = model.comments(seed, crowd, recent, end)
    comments_now = tuple(column[inside(found[3])] for column in found)
    liked_posts = posts.select(posts.times >= low - model.LIKE_WITHIN_MS)
    post_likes = model.likes(seed, "like.post", crowd, liked_posts.ids, liked_posts.creators, liked_posts.times,
                             model.MAX_POST_LIKES, end)
    older = model.comments(seed, crowd, posts, end)
    keep = older[3] >= low - model.LIKE_WITHIN_MS
    comment_ids, comment_creators, comment_times = older[1][keep], older[2][keep], older[3][keep]
    comment_likes = model.likes(seed, "like.comment", crowd, comment_ids, comment_creators, comment_times,
                                model.MAX_COMMENT_LIKES, end)
    kinds = [
        rdf.person_kind(seed, crowd, np.flatnonzero(inside(crowd.created))),
        rdf.knows_kind(crowd, np.flatnonzero(inside(crowd.knows_created))),
        rdf.group_kind(crowd, np.flatnonzero(inside(crowd.group_created))),
        rdf.member_kind(crowd, moderator[joined_now], member[joined_now], joined[joined_now]),
        rdf.like_kind(crowd, liked_posts.ids, tuple(c[inside(post_likes[2])] for c in post_likes), True),
        rdf.post_kind(seed, crowd, posts.select(inside(posts.times))),
        rdf.comment_kind(seed, crowd, recent, comments_now),
        rdf.like_kind(crowd, comment_ids, tuple(c[inside(comment_likes[2])] for c in comment_likes), False),
    ]
    kept = kept_kinds(spec)
    # a kind left out keeps its place (MESSAGE_KINDS count positions), with no item
    return [kind if name in kept else _NO_ITEMS for name, kind in zip(KINDS, kinds)]


_NO_ITEMS = Kind(np.zeros(0, np.int64), np.zeros(0, np.int64))


def _entities(spec: GeneratorSpec, rows) -> tuple[np.ndarray, np.ndarray]:
    """Sizes and times of the unit's events: one per message with the records after it, or the whole week."""
    if not len(rows.sizes):
        return rows.sizes, rows.times
    if event_kind(spec) == "week":
        return np.array([rows.sizes.sum()]), rows.times[:1]
    if not {"posts", "comments"} & set(kept_kinds(spec)):
        return rows.sizes, rows.times  # no message to group the records after: each record is an event
    starts = np.flatnonzero(np.isin(rows.kinds, MESSAGE_KINDS))
    starts = np.unique(np.concatenate(([0], starts)))  # records before the first message ride with it
    if len(starts) > 1 and not np.isin(rows.kinds[0], MESSAGE_KINDS):
        starts = starts[starts != starts[1]]
    ends = np.append(starts[1:], len(rows.sizes))
    cumulative = np.concatenate(([0], np.cumsum(rows.sizes)))
    return cumulative[ends] - cumulative[starts], rows.times[starts]


def unit_counts(spec: GeneratorSpec, unit: int) -> tuple[int, int]:
    rows = assemble(_kinds(spec, unit), render=False)
    sizes, _ = _entities(spec, rows)
    return len(sizes), int(rows.sizes.sum())


def known_counts(spec: GeneratorSpec) -> None:
    return None


def unit_batches(spec: GeneratorSpec, unit: int, first_entity: int, first_triple: int) -> Iterator[pa.RecordBatch]:
    rows = assemble(_kinds(spec, unit))
    if not len(rows.s):
        return
    sizes, times = _entities(spec, rows)
    low, high, end = _bounds(spec, unit)
    event, ts = frame(sizes, times, first_entity, first_triple, spec.shape, spec.rate, low, None if high >= end else high)
    yield event_batch(event, ts, rows.s, rows.p, rows.o)


def schema_ntriples(spec: GeneratorSpec) -> None:
    return None


def static_ntriples(spec: GeneratorSpec) -> str:
    return "\n".join(static.static_lines()) + "\n"


def provenance(spec: GeneratorSpec) -> dict:
    crowd = people(spec)
    return {
        "generator": {"name": NAME, "version": VERSION, "follows": "LDBC SNB Spark datagen (generation model), Hadoop Turtle serializer (vocabulary)"},
        "unit": "week of simulated time",
        "persons": spec.scale,
        "first_person": spec.index,
        "years": years(spec),
        "events": event_kind(spec),
        "stream": list(kept_kinds(spec)),
        "target_mean_degree": crowd.mean_degree,
        "start": "2010-01-01T00:00:00Z",
        "rate": spec.rate,
        "ts_source": "rate" if spec.rate else "data time of each event's first triple (ms since the epoch, UTC)",
    }
