"""English rules for diets: the diet style ("I'm vegetarian", "I've gone back to eating meat",
"I'm not keto anymore") and restrictions, what the user cannot or will not eat for a reason
("I can't eat gluten", "I don't eat pork for religious reasons").

A restriction is a diet preference of its own slot, ``diet.no_<food>``, so two restrictions
stand side by side and neither replaces the diet style (vegetarian). A plain "I don't eat
cilantro" stays a dislike (``pref.<food>``, en_tastes.py): without "can't" or a reason it
says what the user does not like, not what they must avoid.
"""

from __future__ import annotations

import re

from jiyi.core.extraction.en_common import IM, object_key
from jiyi.core.extraction.hit import Context, Hit
from jiyi.core.models import MemoryKind

__all__ = ["diet", "restriction"]

P = MemoryKind.PREFERENCE
I_ = re.IGNORECASE
_STYLES = (
    r"vegetarian|vegan|pescatarian|pescetarian|plant-based|halal|kosher|keto|paleo|low-carb|"
    r"mediterranean|intermittent fasting|carnivore|gluten-free|dairy-free|sugar-free|whole30|"
    r"plant based|mostly plant-based|mostly plant based|"
    r"flexitarian|raw vegan|low-fodmap|low fodmap|low-fat|low fat|low-sugar|low-sodium|low-carb|"
    r"low carb|calorie counting|counting calories|omad|16:8|5:2|atkins|dash|whole foods|"
    r"lacto-ovo vegetarian|macro counting|counting macros|eggetarian|ovo-vegetarian|"
    r"lacto-vegetarian"
)
# The diets a change names ("went fully vegan", "have become eggetarian now")
_TAKEN_UP = (
    r"vegan|vegetarian|pescatarian|eggetarian|flexitarian|plant-based|keto|gluten-free|dairy-free"
)


# Foods a diet keeps out or lets back in ("avoiding red meat", "added dairy back in").
_FOODS = (
    r"(?:red |white |processed |fried |)meat|dairy|gluten|sugar|carbs|fish|seafood|pork|beef|"
    r"chicken|eggs|wheat|refined sugar|processed food|fried food|junk food|meat and dairy|"
    r"meat and fish|fish and dairy"
)
_DIET_CHANGE = re.compile(
    rf"^i(?:'ve| have)? (?:gone back to|went back to|started|'m back to|am back to|returned to) "
    rf"eating (?P<x>{_FOODS})(?: again)?(?: now)?$|"
    rf"^i(?:'ve| have)? (?:added|brought|put) (?P<y>{_FOODS}) back(?: in(?:to my diet)?)?"
    rf"(?: again)?(?: now)?$|"
    rf"^(?:{IM} )?(?:(?:just|now|mostly|only|strictly) )*(?:avoiding|cutting out|staying away from)"
    rf" (?P<z>{_FOODS})(?: now| these days| for now)?$|"
    # "went fully vegan in January": a diet taken up, said as what happened
    # ("since CNY I go full vegan": the time said first, its "since" already stripped)
    r"^(?:(?:since|from|after) [\w' ]{1,15}?,? |[a-z]{2,6},? (?=i\b))?i? ?"
    r"(?:went|have gone|'ve gone|just went|have become|'ve become|became|have turned|"
    r"'ve turned|turned|go|going|am going|'m going) (?:fully |full |completely |totally |an? )?"
    rf"(?P<s>{_TAKEN_UP})"
    r"(?: in \w+| last \w+| this \w+| a \w+ ago| as of (?:this |last )?\w+)?"
    r"(?: now| liao| la+h?)?$|"
    # "fully vegan as of Monday", "fully vegan these days": the diet as it is now
    r"^(?:i'?m |i am )?(?:now |officially |fully |completely |totally |strictly )+"
    rf"(?P<t>{_TAKEN_UP})"
    r"(?: as of (?:last )?\w+| since (?:last )?\w+| these days| nowadays| now| from now on)?$",
    I_,
)


def _diet_change(c: str) -> list[Hit]:
    """What a diet now lets in or keeps out, said as a change of the diet itself: "I've gone
    back to eating meat and dairy", "I'm just avoiding red meat these days" (diet.style)."""
    if not (m := _DIET_CHANGE.match(c)):
        return []
    if m.group("s") or m.group("t"):
        style = (m.group("s") or m.group("t")).lower()
        return [Hit(P, "diet.style", "diet.change", value=style, polarity="like",
                    correction=True, content=f"User is {style}")]  # fmt: skip
    if m.group("z"):
        food = m.group("z").lower()
        return [Hit(P, "diet.style", "diet.change", value=f"no {food}", polarity="like",
                    correction=True, content=f"User avoids {food}")]  # fmt: skip
    food = (m.group("x") or m.group("y")).lower()
    return [Hit(P, "diet.style", "diet.change", value=f"eats {food}", polarity="like",
                correction=True, content=f"User eats {food} again")]  # fmt: skip


def diet(c: str, ctx: Context) -> list[Hit]:
    if hits := _diet_change(c):
        return hits
    m = re.match(
        rf"^(?:{IM} (?:not|no longer) (?:a )?(?P<x>vegetarian|vegan|pescatarian|"
        rf"keto)(?: any ?more)?|"
        r"i(?:'ve| have)? stopped being (?:a )?(?P<y>vegetarian|vegan|pescatarian)|"
        r"i(?:'ve| have)? (?:started )?eat(?:ing)? meat again|i eat meat now|i(?:'m| am) off keto)",
        c,
        I_,
    )
    m = (
        m
        or re.match(
            rf"^i(?:'ve| have)? (?:gave|given|give) up (?:on )?(?:being )?(?:an? |"
            rf"the )?(?P<x>{_STYLES})"
            rf"(?: diet)?(?: now| any ?more)?$|"
            rf"^i(?:'ve| have)? (?:quit|stopped|dropped|ditched|abandoned|ended) (?:doing |"
            rf"being )?(?:an? |"
            rf"the )?(?P<y>{_STYLES})(?: diet)?(?: now| any ?more)?$|"
            rf"^(?P<z>{_STYLES})(?: diet)? (?:is|was) (?:over|done|not for me)\b",
            c,
            I_,
        )
        if re.search(rf"\b(?:{_STYLES})\b", c, I_)
        else m
    )
    if m and not m.groupdict().get("x") and m.groupdict().get("z"):
        style = m.group("z").lower()
        return [Hit(P, "diet.style", "diet.style", value=f"not {style}", correction=True,
                    content=f"User is no longer {style}")]  # fmt: skip
    if m:  # "I'm not vegetarian anymore"
        style = (m.group("x") or m.group("y") or "vegetarian").lower()
        content = None if re.search(r"\bmeat\b", c, I_) else f"User is no longer {style}"
        return [
            Hit(
                P,
                "diet.style",
                "diet.style",
                content=content,
                value=f"not {style}",
                correction=True,
            )
        ]
    m = re.match(
        rf"^(?:{IM} (?:a |an |strictly |strict |fully |mostly |now |also |basically |just |still |"
        r"lifelong |total |complete |pure |proper |full |fully fledged |full-on )*|"
        rf"i eat (?:an? )?|"
        rf"i follow an? |i(?:'m| am) (?:just |now |still )*(?:doing |on an? |following an? )|"
        rf"i keep |"
        r"i(?:'m| am) on an? |i(?:'ve| have)? (?:switched|moved|changed) to (?:an? )?|i(?:'ve|"
        r" have) gone (?:fully |completely |totally |full |strictly |mostly )?|"
        r"i went |i(?:'ve| have) become (?:an? )?|i became (?:an? )?|i(?:'m| am) doing |"
        r"i(?:'ve| have) been doing |i(?:'ve| have) been (?:an? )?(?:strict |mostly )?|i do |"
        r"i(?:'m| am) eating |we(?:'re| are) (?:a )?|we eat (?:mostly |mainly |only )?)"
        rf"(?P<x>{_STYLES})\b",
        c,
        I_,
    )
    temporary = (
        r"\b(?:this (?:month|week)|for (?:a|the|this) (?:month|week|few weeks)|for now|until)\b"
    )
    if m and re.search(temporary, c, I_):
        return []  # "I'm doing Whole30 this month": a state, not a diet style
    if m:
        return [Hit(P, "diet.style", "diet.style", polarity="like", value=m.group("x").lower())]
    return []


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


# "I shouldn't have shared it": something regretted, not a food kept out.
_REGRET = re.compile(
    r"^i (?:shouldn't|should not|mustn't|must not) have (?:been|gone|done|had|eaten|taken|given|"
    r"seen|gotten|said|told|[a-z]+ed)\b",
    re.IGNORECASE,
)


def restriction(c: str, ctx: Context) -> list[Hit]:
    """A food the user must keep out of their diet: ``diet.no_<food>``."""
    m = _RESTRICTED.match(c)
    if m is None or _REGRET.match(c):
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
