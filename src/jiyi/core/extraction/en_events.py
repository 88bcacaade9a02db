"""English rules for past events: what already happened and matters ("I got promoted last
month", "had my wisdom teeth out yesterday"), and what is only a moment of the past ("I
watched Dune last night") and so no event to remember.
"""

from __future__ import annotations

import re

from jiyi.core.extraction.en_common import PAST_VERBS
from jiyi.core.extraction.hit import EVENT_TTL, Context, Hit
from jiyi.core.extraction.topics import slug
from jiyi.core.models import MemoryKind
from jiyi.core.timewords import find_time_window

__all__ = ["is_past", "past_event"]

E = MemoryKind.EVENT
I_ = re.IGNORECASE


# What a past clause must name to be remembered when its time is said first.
_NOTABLE = (
    r"\b(?:promoted|married|engaged|divorced|graduated|surgery|hired|laid off|fired|retired|"
    r"diagnosed|adopted|split up|broke up|bought (?:a|our|my) (?:house|home|car|flat|condo))\b"
)


# What fills an evening or a meal: past, but nothing to remember a week later.
_MOMENT = re.compile(
    r"\b(?:watched|binged|played|napped|ate|went (?:to (?:the )?)?(?:store|mall|gym|movies|cinema|"
    r"bar|pub|shopping)|had (?:a |an |the |some )?(?:\w+ )?(?:dinner|lunch|breakfast|brunch|"
    r"drinks?|coffee|beer|pizza|burger|burrito|snack|meal|takeout))\b",
    I_,
)


def is_past(c: str) -> bool:
    """Whether the clause's subject did something in the past (its verb is in the past tense)."""
    # "Last month I got promoted": the time said first, then the past verb
    if re.search(_NOTABLE, c, I_):
        c = re.sub(r"^(?:last \w+|\w+ (?:weeks|months|years) ago),?\s+", "", c, flags=I_)
    m = re.match(r"^(?:i|we|(?:my|our) \w+)\s+(?:just\s+|finally\s+|recently\s+)?(?P<v>\w+)", c, I_)
    verb = m.group("v").lower() if m else ""
    return verb in PAST_VERBS or verb.endswith("ed")


_JUST_DONE = re.compile(
    r"^(?:i|we) (?:just|finally) (?:passed|graduated|got (?:married|engaged|promoted|my)|bought|"
    r"closed on|finished (?:my|our)|moved|had (?:a|our|my) (?:baby|son|daughter)|signed|"
    r"got back from|"
    r"came back from|ran|completed|started|adopted)\b",
    I_,
)


def past_event(c: str, ctx: Context) -> list[Hit]:
    if _JUST_DONE.match(c) and find_time_window(c, ctx.ref) is None:
        today = ctx.ref.replace(
            hour=0, minute=0, second=0, microsecond=0
        )  # "I just passed the bar"
        return [
            Hit(
                E,
                f"event.{slug(c)}",
                "event.just",
                when=today,
                ttl=EVENT_TTL,
                value=today.date().isoformat(),
            )
        ]
    window = find_time_window(c, ctx.ref)
    if window and _MOMENT.search(c) and not re.search(_NOTABLE, c, I_):
        return []  # "I watched Dune last night": a moment, not an event to remember
    if (
        window is None
        or window.recent
        or window.start is None
        or window.start >= ctx.ref
        or not is_past(c)
    ):
        return []
    return [
        Hit(E, f"event.{slug(c.replace(window.expression, ''))}", "event.past", when=window.start,
            ttl=EVENT_TTL, value=window.start.date().isoformat())
    ]  # fmt: skip
