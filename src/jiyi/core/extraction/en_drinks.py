"""English rules for drink orders: the type of coffee or tea, and how it is taken (milk,
sugar, ice, shots), one slot per attribute (``diet.coffee.type``, ``diet.coffee.milk``).

"I switched to oat lattes" and "Coffee: oat milk latte, extra shot" land in the same
``diet.coffee.type`` slot as "My usual is a cortado", so a new order replaces the old one.
"""

from __future__ import annotations

import re

from jiyi.core.extraction.hit import Context, Hit
from jiyi.core.extraction.lexicon import DRINKS
from jiyi.core.extraction.topics import clean_value
from jiyi.core.models import MemoryKind

__all__ = ["drink", "drink_type"]

P = MemoryKind.PREFERENCE
I_ = re.IGNORECASE

_ADDIN = re.compile(
    r"\b(?P<p>no|without|with|extra|less|a little|light|a splash of|a dash of|some|half|"
    r"don't (?:take|put|add|want)|never (?:take|put|add)|take it with(?:out)?|just|one|two|three|"
    r"(?:a|one|two|three|four|half a|\d)\s+(?:(?:tea)?spoon(?:ful)?s?|cubes?|lumps?|packets?|"
    r"sachets?)(?: of)?|\d)\s+(?:any\s+)?(?P<x>sugars?|sweetener|honey|oat milk|almond milk|"
    r"soy milk|coconut milk|skim milk|whole milk|milk|cream|creamer|ice|foam|syrup)\b|"
    r"\b(?P<u>unsweetened|sugar-free|iced|hot|black)\b(?! tea| coffee beans| chocolate| cocoa)",
    I_,
)


_SHOTS = re.compile(
    r"\b(?:extra|double|triple|single|one|two|three|\d) (?:extra )?(?:espresso )?shots?\b",
    I_,
)


# "I want an iced coffee", "I could go for a latte": one drink wanted now, not an order
_WHIM = re.compile(
    r"^i (?:really |just |kinda |so )?(?:want|wanna|need|could (?:really )?(?:go for|use)|"
    r"(?:'d|would) (?:love|like|kill for)|feel like|'m craving|am craving) (?:an?|one|some)\b",
    I_,
)


# "green tea because coffee keeps me up": why the order changed, not the order
_REASON_AFTER = re.compile(r"\s+(?:because|since|'cause|cuz) (?!(?:then|college|school|\d))", I_)
# "(since) black coffee was upsetting my stomach": the drink is what the clause is about,
# the subject of another verb, not an order of the user's
_DRINK_SUBJECT = re.compile(
    r"^(?:the |that |this )?(?:(?:(?!my\b)[a-z-]+ ){1,2}(?:coffee|tea|latte|espresso|drink)s?|"
    r"black|plain|(?:oat |almond |soy |whole )?milk|sugar|cream) "
    r"(?:doesn't|does not|don't|isn't|wasn't|won't|no longer|(?:was|were|is|are|has been|had been) "
    r"(?:too|so|really|getting|making|upsetting|giving|"
    r"keeping|hurting|bad|awful|terrible)|kept|keeps|made|makes|gave|gives|upset|upsets|hurt|"
    r"hurts|tastes?|tasted)\b",
    I_,
)


# One drink had on one day ("had a coffee with no sugar at a truck stop today"): no order.
_ONE_DAY = re.compile(
    r"\b(?:had|got|grabbed|tried|ordered|drank)\b.*\b(?:today|tonight|this morning|"
    r"this afternoon|yesterday|last night)\b",
    I_,
)


def drink(c: str, ctx: Context) -> list[Hit]:
    # "since last week my usual is matcha latte": from when, said first (no one day)
    c = re.sub(
        r"^(?:(?:since|from) )?(?:last|this) (?:week|month|monday|weekend)(?: onwards?)?,? "
        r"(?=my (?:usual|go-to|regular|order|drink)\b)",
        "",
        c,
        flags=I_,
    )
    if _WHIM.match(c) or _ONE_DAY.search(c):
        return []
    # "shift coffee update: it's an oat milk cortado now": the heading is no part of the order
    c = re.sub(r"^(?:[\w'-]+ ){0,3}(?:update|news|psa|fyi)\s*[:!-]+\s*", "", c, flags=I_)
    c = _REASON_AFTER.split(c, maxsplit=1)[0]
    hits: list[Hit] = []
    m = re.match(
        r"^(?:i )?(?:only|usually|always|now|mostly|just|normally|typically|still)? ?(?:drink|"
        r"order|get|have|take)"
        r"(?: an?| my)? (?P<x>.+)$|^(?:i(?:'ve| have)? )?(?:switched|changed|"
        r"moved) (?:over )?(?:from .+? )?to "
        r"(?P<y>.+)$|"
        r"^i(?:'ve| have)? (?:started|been|gone back to|switched to) (?:drinking|ordering|"
        r"getting|having) "
        r"(?P<z>.+)$|"
        # "My usual Starbucks order is…": the shop's name before the order is no drink
        r"^my (?:(?:usual|go-to|regular|standard|daily|new|shift|morning) (?:[A-Z][\w'&]+ )?"
        r"(?:order|drink|coffee|tea)? ?(?:(?:at|from) (?-i:[A-Z])[\w'&]+ )?|"
        r"(?:coffee|tea|order) (?=.+ now$)|"
        r"(?:coffee|tea|drink) order )"
        r"(?:is|'s) (?:now |just |only )*(?:an? )?(?P<w>.+)$|"
        # "switched my usual to a flat white": the order, said by what it changed to
        r"^(?:i(?:'ve| have)? )?(?:just |finally )?(?:switched|changed) my (?:usual|go-to|"
        r"regular|order|coffee order|drink order)(?: order)? (?:over )?to (?:an? )?(?P<r>.+)$|"
        r"^(?:i'm|i am) (?:more of |mostly |usually |really |definitely )?(?:an? )?(?P<v>.+?) "
        r"(?:person|girl|guy|drinker)(?: these days| now)?$|"
        r"^(?:so |now |these days |nowadays )?(?:it's|its|it is|"
        r"it's all) (?:gonna be |going to be |been )?(?:just |only )?(?:an? )?(?:plain )?"
        r"(?P<u>.+?)(?: all the way)?"
        r"(?: for me)?(?: now| these days| from now on| every (?:morning|day))?$|"
        r"^i(?:'ve| have)? moved on to (?:an? )?(?P<t>.+)$|"
        # "I'm getting a plain cappuccino now": an order that changed ("right now" is a moment)
        r"^(?:i'm|i am) (?:now )?(?:getting|ordering|drinking|on) (?:an? )?(?P<s>.+?)"
        r"(?<!right)(?<!just) (?:now|these days|nowadays|instead)$|"
        # "I'm back on regular coffee": an order taken up again is the order now
        r"^(?:i'm|i am) (?:now )?back (?:on|to) (?:drinking )?(?:an? )?(?P<k>.+?)"
        r"(?: now| these days)?$",
        c,
        I_,
    )
    label = re.match(
        r"^(?:coffee|tea|drink|(?:my )?(?:usual|order|go-to))\s*[:=]\s*(?P<x>.+)$", c, I_
    )
    if ctx.extra.get("order") and not m and not label:
        label = re.match(r"^(?P<x>[a-z][a-z -]+)$", c, I_)  # "Espresso, double shot - my usual"
    if not m and not label:  # "Iced latte with oat milk, no sugar": an order, said as one
        label = re.match(  # (a clause with "I" for its subject is a sentence, not a label)
            r"^(?!.*\b(?:is|are|was|were)\b)(?!i\b)(?:an? )?(?P<x>[a-z][a-z -]+?) (?=(?:with|"
            # "chai latte w oat milk every morning", "oat flat white obviously"
            r"without|no|and|black|w/?|every|obviously|always|daily|or nothing)\b)",
            c,
            I_,
        )
    if label and (hit := drink_type(clean_value(label.group("x")).lower(), c)) is not None:
        hits.append(hit)
        ctx.drink = ctx.drink or hit.topic.split(".")[1]
    elif m and not re.search(r"\b(?:sometimes|occasionally|too|also|once in a while)\b", c, I_):
        said = (
            m.group("x") or m.group("y") or m.group("z") or m.group("w") or m.group("v")
            or m.group("u") or m.group("t") or m.group("s") or m.group("r") or m.group("k")
        )  # fmt: skip
        word = clean_value(said).lower()
        word = re.sub(  # "two cups of green tea": the drink, not how much of it
            r"^(?:(?:a|an|one|two|three|four|\d+|a couple of|a few|several|lots of)\s+)?(?:big |"
            r"small |"
            r"large )?(?:cups?|glass(?:es)?|mugs?|pots?|bottles?|cans?|pints?)\s+of\s+",
            "",
            word,
        )
        word = re.split(
            r"\s+(?:now|these days|nowadays|instead|lately|every \w+|with|w/?|without|no|and|"
            r"black(?<!long black)(?<!short black)|"
            r"in (?:the|my|our) \w+|at work|"
            r"at home|on weekdays|on weekends|at (?:night|lunch|breakfast|dinner|noon)|before bed|"
            r"after (?:dinner|lunch|work|meals))\b|,",
            word,
        )[0]
        if (hit := drink_type(word, c)) is not None:
            hits.append(hit)
            ctx.drink = ctx.drink or hit.topic.split(".")[1]
    if ctx.drink and re.search(
        r"\b(?:take|have|drink|like) (?:my |it )?(?:\w+ )?(?:plain|straight|as is)\b", c, I_
    ):
        said = ctx.drink_word or ctx.drink.replace("_", " ")  # "I take my tea plain": nothing in it
        return hits + [
            Hit(P, f"diet.{ctx.drink}.{attr}", "drink.plain", value="plain", polarity="dislike",
                content=f"User takes {said} plain")
            for attr in ("sugar", "milk")
        ]  # fmt: skip
    bare = re.match(
        r"^(?:and |also |just |i (?:always |usually |now )?(?:take|have|put|add|use) |"
        # "I've started adding a bit of almond milk to my coffee": a habit begun
        r"i(?:'ve| have|ve)? (?:started|begun|been|taken to) (?:adding|putting|using|taking) "
        r"(?:a bit of |a splash of |a little |a dash of |some )?|"
        # "I've switched to almond milk in my coffee": the add-in changed, said by its verb
        r"i(?:'ve| have)? (?:now |just )?(?:switched|changed|moved|gone|went) (?:over )?to )?"
        r"(?P<x>oat milk|almond milk|soy milk|coconut milk|skim milk|"
        r"whole milk|milk|"
        r"cream|sugar|honey|sweetener) (?:in|into|to|for|with) (?:my|the) (?P<d>coffee|tea|latte)s?"
        r"(?: please| now| these days| instead)?$",
        c,
        I_,
    )
    if bare:  # "oat milk in my coffee please"
        drink = "tea" if bare.group("d").lower() == "tea" else "coffee"
        x = bare.group("x").lower()
        attr = "milk" if "milk" in x or x == "cream" else "sugar"
        said = f"User takes {x} in their {bare.group('d').lower()}"
        hit = Hit(P, f"diet.{drink}.{attr}", "drink.addin", value=f"with {x}", content=said)
        return [*hits, hit]
    if ctx.drink and (shot := _SHOTS.search(c)):  # "extra shot", "double shot", "decaf"
        value, word = shot.group(0).lower(), (ctx.drink_word or ctx.drink).lower()
        took = f"User takes {word} {value}"
        hits.append(Hit(P, f"diet.{ctx.drink}.shots", "drink.shots", value=value, content=took))
    # "I used to take two sugars in my coffee years ago": how it was, not how it is
    past = re.search(r"\bused to\b|\byears ago\b|\bback (?:in|then)\b|\bwhen i was\b", c, I_)
    if ctx.drink and not _DRINK_SUBJECT.match(c) and not past:
        for a in _ADDIN.finditer(c):
            if hits and hits[0].value and a.group(0).lower() in hits[0].value.split():
                continue  # "black coffee" is the drink named, not an add-in
            if a.group("u") and re.search(r"\b(?:anymore|any more|no longer)\b|cut it\b", c, I_):
                continue  # "black coffee doesn't cut it anymore": what the user gave up
            if a.group("u"):
                word = a.group("u").lower()
                if word in ("iced", "hot") and not hits:
                    attr, value = "ice", word
                elif word in ("iced", "hot"):
                    continue
                else:
                    attr, value = ("milk", "black") if word == "black" else ("sugar", "no sugar")
                neg = word in ("black", "unsweetened", "sugar-free")
            else:
                x = a.group("x").lower()
                attr = {"sugar": "sugar", "sugars": "sugar", "sweetener": "sugar", "honey": "sugar",
                        "syrup": "sugar", "ice": "ice", "foam": "milk"}.get(x, "milk")  # fmt: skip
                neg = bool(re.match(r"no|without|don't|never", a.group("p"), I_))
                value = f"{a.group('p')} {x}".lower()
                if re.match(r"(?:a|one|two|three|four|half|\d)\b", value):
                    value = f"with {value}"  # "one spoon of sugar": taken with it
            if any(h.topic == f"diet.{ctx.drink}.{attr}" for h in hits):
                continue
            said = ctx.drink_word or (
                hits[0].value if hits and hits[0].value else ctx.drink.replace("_", " ")
            )
            content = f"User takes {said} {value}" if hits or not re.match(r"^i\b", c, I_) else None
            hits.append(
                Hit(P, f"diet.{ctx.drink}.{attr}", "drink.addin", content=content,
                    polarity="dislike" if neg else "like", value=value)
            )  # fmt: skip
    return hits


# What a Singapore or Malaysia kopitiam order says after the drink: less sugar, none, strong.
_KOPI_AFTER = re.compile(r"(?:(?:siew|siu) dai|ga dai|kosong|gao|po|peng|c|o|only)(?: \w+){0,2}")


def drink_type(word: str, clause: str) -> Hit | None:
    """A drink order: "oat milk lattes" → diet.coffee.type = oat milk latte; None when the
    phrase names no known drink type."""
    word = re.sub(r"(?:\s+(?:only|lah|leh|lor|ah))+$", "", word)  # "kopi-o kosong only lah"
    bare = re.sub(r"^(?:a |an |the |my )", "", word)
    # "lattes" → latte, but "rooibos" is one
    last = (bare.split() or [""])[-1]
    words = (bare if last in DRINKS else re.sub(r"s$", "", bare)).split()
    # "oat milk lattes": the drink is the head noun at the end.
    kind = next(
        (DRINKS[" ".join(words[i:])] for i in range(len(words)) if " ".join(words[i:]) in DRINKS),
        None,
    )
    if kind is None and len(words) > 1 and _KOPI_AFTER.fullmatch(" ".join(words[1:])):
        kind = DRINKS.get(words[0])  # "kopi siew dai", "kopi-o kosong": the sugar said after
    if kind and not kind[1] and len(words) > 1 and " ".join(words[:-1]) in DRINKS:
        kind = DRINKS[" ".join(words[:-1])]  # "chamomile tea": the kind named before "tea"
    if not kind or not kind[1] or len(words) > 5:
        return None
    if words[-1] == "latte" and any(DRINKS.get(w, ("",))[0] == "tea" for w in words[:-1]):
        kind = ("tea", True)  # "matcha lattes", "hojicha latte": a tea made as a latte
    only = re.search(r"\bonly\b", clause, I_)
    said = re.sub(r"^(?:a |an |the |my )", "", word)  # the user's words, plural and all
    value = " ".join(words)
    if re.search(r"\s(?:coffee|tea)$", value) and value.rsplit(" ", 1)[0] in DRINKS:
        value = value.rsplit(" ", 1)[0]  # "cold brew coffee" = cold brew; "green tea" stays
    return Hit(
        P,
        f"diet.{kind[0]}.type",
        "drink.type",
        polarity="like",
        content=f"User {'only drinks' if only else 'drinks'} {said}",
        value=value,
    )
