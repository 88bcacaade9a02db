"""English rules for diet restrictions: what the user cannot or will not eat for a reason
("I can't eat gluten", "I don't eat pork for religious reasons").

A restriction is a diet preference of its own slot, ``diet.no_<food>``, so two restrictions
stand side by side and neither replaces the diet style (vegetarian). A plain "I don't eat
cilantro" stays a dislike (``pref.<food>``, en_tastes.py): without "can't" or a reason it
says what the user does not like, not what they must avoid.
"""

from __future__ import annotations

import re

from jiyi.core.extraction.en_common import object_key
from jiyi.core.extraction.hit import Context, Hit
from jiyi.core.models import MemoryKind

__all__ = ["restriction"]

P = MemoryKind.PREFERENCE
_RESTRICTED = re.compile(
    r"^i (?:really |just |simply )?(?:can't|cannot|can not|am not allowed to|'m not allowed to|"
    r"am not supposed to|'m not supposed to|must not|mustn't|shouldn't|should not) "
    r"(?:eat|have|touch|digest) (?P<x>.+?)(?: any ?more)?$|"
    r"^i (?:don't|do not|never|won't|will not) (?:eat|touch) (?P<y>.+?) (?:for|because of|due to) "
    r"(?:\w+ )?(?:religious|health|medical|ethical|moral|cultural|dietary|faith) reasons$|"
    r"^i (?:don't|do not|never) (?:eat|touch) (?P<z>.+?),? (?:as|since|because) (?:i'm|i am) "
    r"(?:a )?(?:muslim|jewish|hindu|buddhist|jain|sikh|vegetarian|vegan)\b",
    re.IGNORECASE,
)


def restriction(c: str, ctx: Context) -> list[Hit]:
    """A food the user must keep out of their diet: ``diet.no_<food>``."""
    m = _RESTRICTED.match(c)
    if m is None:
        return []
    food = m.group("x") or m.group("y") or m.group("z")
    if re.match(r"(?:it|that|this|them|those|anything|much|a lot|enough|more)\b", food, re.I):
        return []  # "I can't eat that much": how much, not what
    if not (key := object_key(food)):
        return []
    return [
        Hit(P, f"diet.no_{key}", "diet.restriction", value=f"no {food.lower()}",
            polarity="dislike", obj=food)
    ]  # fmt: skip
