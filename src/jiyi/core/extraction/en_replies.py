"""English rules for how the user wants to be answered ("I'd rather you didn't use emojis",
"I like it when you use bullet points"): a preference about the assistant's replies.

Said as a wish about what "you" do, these are not requests for this turn but lasting
preferences; a bare imperative ("don't use emojis") stays a request (segment.py).
"""

from __future__ import annotations

import re

from jiyi.core.extraction.en_common import object_key
from jiyi.core.extraction.hit import Context, Hit
from jiyi.core.models import MemoryKind

__all__ = ["reply_style"]

P = MemoryKind.PREFERENCE
_WISH = re.compile(
    r"^i(?:'d| would) (?:rather|prefer(?: it)?(?: if)?) (?:you|u) (?:didn't|did not|don't|"
    r"not|never|wouldn't) (?:use|add|put|include|send|write (?:in|with))? ?(?:me |us )?"
    r"(?P<x>.+)$|"
    r"^i (?P<v>like|love|prefer|hate|don't like|do not like|can't stand|dislike) (?:it )?when "
    r"(?:you|u) (?:use|add|put|include|write (?:in|with)|answer (?:in|with)|give (?:me )?) "
    r"?(?P<y>.+)$",
    re.IGNORECASE,
)


def reply_style(c: str, ctx: Context) -> list[Hit]:
    """``pref.<thing>`` of the replies: liked or not, as any taste keys its object."""
    m = _WISH.match(c)
    if m is None:
        return []
    said = re.sub(
        r"\s+(?:in|with) (?:your|the|ur) (?:replies|answers|responses|messages)$",
        "",
        m.group("x") or m.group("y"),
        flags=re.IGNORECASE,
    )
    if not (key := object_key(said)):
        return []
    liked = bool(m.group("y")) and not re.match(
        r"(?:hate|don't|do not|can't|dislike)", m.group("v"), re.I
    )
    polarity = "like" if liked else "dislike"
    content = f"User {'likes' if liked else 'does not want'} {said} in replies"
    return [Hit(P, f"pref.{key}", "reply.style", polarity=polarity, value=polarity, obj=said,
                content=content)]  # fmt: skip
