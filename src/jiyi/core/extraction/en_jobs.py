"""English work said by what the job is like rather than "I work at": where, said by the
trade's own verb; where from, said by a depot; and where, said as home or the office.

- "I bartend at The Rusty Nail", "I wait tables at Denny's", "I'm pouring drinks at Hotel
  Vegas now" → ``work.employer`` (a bar "called X" is X);
- "I drive a truck hauling freight out of Memphis", "I run my loads out of Atlanta now" →
  ``location.work`` (a known town only);
- "I work remotely", "I'm back in the office full time" → ``work.mode``.

Only the user's own work: "my wife bartends at X" has a subject of its own and never
reaches these rules, and a verb that is not a trade ("I cook at home") names no employer.
"""

from __future__ import annotations

import re

from jiyi.core.extraction.en_common import IM, place
from jiyi.core.extraction.en_facts import is_place_en
from jiyi.core.extraction.hit import Hit
from jiyi.core.extraction.lexicon_places import is_town_en
from jiyi.core.models import MemoryKind
from jiyi.core.text import STOPWORDS

__all__ = ["job_at", "new_employer", "work_base", "work_mode"]

F = MemoryKind.FACT
I_ = re.IGNORECASE

# A trade's own verb, present or progressive, and how the user would say it of themselves.
_TRADE = (
    r"bartend(?:s|ing)?|tend(?:ing)? bar|pour(?:ing)? (?:drinks|beers|pints)|"
    r"sling(?:ing)? (?:drinks|beers|coffee|lattes)|mix(?:ing)? (?:drinks|cocktails)|"
    r"wait(?:ing)? (?:tables|on tables)|waitress(?:ing)?|serv(?:e|ing) tables|"
    r"pull(?:ing)? shots|cook(?:ing)? on the line|work(?:ing)? the (?:bar|register|counter|"
    r"grill|line|door|front desk)|bag(?:ging)? groceries|stock(?:ing)? shelves"
)
_JOB_AT = re.compile(
    r"^(?:i|i'm|i am|i've been|i have been)(?: (?:now|currently|still|also|just|actually))? "
    rf"(?P<v>{_TRADE}) (?:at|for) (?P<x>(?:(?:a|an|the|this) [\w' -]+? (?:called|named) )?"
    r"(?:the )?(?-i:[A-Z])[\w&.'-]*(?: (?:[A-Z&][\w&.'-]*|of|on|the|de|la))*)"
    r"(?P<now> now| these days| instead)?(?: (?:since|for) [\w ]+)?$",
    I_,
)
_CALLED = re.compile(r"^(?:a|an|the|this) [\w' -]+? (?:called|named) ", I_)


def job_at(c: str) -> list[Hit]:
    """The employer a trade's verb names: "I bartend at The Rusty Nail"."""
    m = _JOB_AT.match(c)
    if not m or is_place_en(m.group("x")):
        return []  # "I bartend at Austin" (sic): a town, not an employer
    where = place(_CALLED.sub("", m.group("x")))
    said = f"User {_third(m.group('v').lower())} at {where}"
    return [
        Hit(F, "work.employer", "employer.trade", value=where, correction=bool(m.group("now")),
            content=said)
    ]  # fmt: skip


def _third(verb: str) -> str:
    """bartend → bartends, wait tables → waits tables, pouring drinks → pours drinks."""
    head, _, rest = verb.partition(" ")
    if len(head) > 5 and head.endswith("ing"):
        head = head[:-3]
        head = head[:-1] if head[-1] == head[-2] and head[-1] not in "ls" else head  # bagg
    head = {"serv": "serve", "waitress": "waitresses", "tend": "tends"}.get(head, head)
    if not head.endswith("s"):
        head += "es" if head.endswith(("sh", "ch", "x")) else "s"
    return f"{head} {rest}".strip()


_DEPOT = r"terminal|yard|depot|hub|base|airport|station|warehouse|distribution center|garage"
# "hauling freight out of Memphis", "I fly out of Denver", "run my loads out of Atlanta";
# "Company moved me to the Atlanta terminal", "I got transferred to the Tulsa depot"
_BASE = re.compile(
    r"^i (?:now |still |currently |mostly )?(?:drive|haul|run|fly|truck|deliver|dispatch|work)"
    r"\b[\w' -]*? out of (?:the )?(?P<x>(?-i:[A-Z])[\w.'-]*(?: (?-i:[A-Z])[\w.'-]*)?)"
    rf"(?: (?:{_DEPOT}|office))?(?P<now> now| these days)?$|"
    # "I'm based out of DFW now", "My base is Chicago O'Hare": a crew's or a driver's base
    r"^(?:i'm|i am|im) (?:now |currently )?based out of (?:the )?(?P<b>(?-i:[A-Z])[\w.'-]*"
    rf"(?: (?-i:[A-Z])[\w.'-]*)?)(?: (?:{_DEPOT}|office))?(?P<now2> now| these days)?$|"
    r"^my (?:home )?base is (?:now )?(?P<c>(?-i:[A-Z])[\w.'-]*(?: (?-i:[A-Z])[\w.'-]*)?)$|"
    r"^(?:(?:(?:the )?company|they|dispatch|work|my (?:boss|company|employer|job)) (?:just )?"
    r"(?:moved|transferred|sent|switched|put) me|i(?:'ve| have)? (?:just )?(?:got |been |was )?"
    r"(?:moved|transferred|switched)) (?:over |back )?to the "
    rf"(?P<y>(?-i:[A-Z])[\w.'-]*(?: (?-i:[A-Z])[\w.'-]*)?) (?:{_DEPOT})\b",
    I_,
)


def _base(said: str) -> bool:
    """A town, a town's airport ("Chicago O'Hare") or an airport code (DFW)."""
    return is_town_en(said) or is_town_en(said.split()[0]) or bool(re.fullmatch(r"[A-Z]{3}", said))


def work_base(c: str) -> list[Hit]:
    """Where the user's work runs from: "I drive a truck hauling freight out of Memphis"."""
    m = _BASE.match(c)
    said = m and (m.group("x") or m.group("y") or m.group("b") or m.group("c"))
    if not m or not said or not _base(said):  # the sentence puts a town there
        return []
    where = place(said)
    moved = bool(m.group("now") or m.group("y") or m.group("now2"))
    return [Hit(F, "location.work", "work.base", value=where, correction=moved,
                content=f"User works out of {where}" if m.group("y") else None)]  # fmt: skip


_REMOTE = re.compile(
    r"^(?:i|we)(?: now| mostly| mainly| usually| currently)?(?: work| am working|'m working|"
    r"'m now working|'ve been working| have been working| went| have gone|'ve gone| are| 're|"
    r" switched to| moved to)"
    r" (?:fully |100% |completely |mostly |full-time |full time )?"
    rf"(?:remotely|from home|remote|hybrid)\b|^(?:{IM} )?(?:fully |mostly )?(?:remote|wfh|"
    r"hybrid)"
    r"(?: now| these days)?$|^i wfh\b|^(?:my|our) (?:job|company|team|work) (?:is|went|"
    r"has gone) "
    r"(?:fully |now )?(?:remote|hybrid)\b|"
    rf"^{IM} (?:now )?in the office (?:\w+ days a week|part[- ]time|a few days)",
    I_,
)
# Back at the office for good: "I'm back in the office full time since March", "we've gone
# back to the office", "I work in the office every day now" (not "I'm in the office today").
_OFFICE = re.compile(
    r"^(?:i|we)(?:'m|'re| am| are|'ve| have)?(?: (?:now|been|just|officially|finally))* "
    r"(?:(?:gone |went |going |come |came )?back (?:in|to|at) the office|"
    r"(?:work|working|in|at) (?:the|an) office (?=.*\b(?:now|full[- ]time|every day|"
    r"five days)\b))(?P<rest>.*)$",
    I_,
)


def work_mode(c: str) -> list[Hit]:
    """Remote, hybrid or at the office: ``work.mode``."""
    if o := _OFFICE.match(c):
        rest = o.group("rest")
        if re.search(r"\b(?:today|tonight|tomorrow|this week|next week|on \w+day)\b", rest, I_):
            return []  # one day at the office, not how the user works
        part = re.search(r"\b(?:\w+|a few|a couple of) days a week\b|part[- ]time", rest, I_)
        hybrid = part is not None and "five" not in part.group(0)
        said = "User works in the office" + (" part of the week" if hybrid else "")
        return [Hit(F, "work.mode", "work.office", correction=True,
                    value="hybrid" if hybrid else "office", content=said)]  # fmt: skip
    if not _REMOTE.match(c):
        return []
    return [
        Hit(
            F,
            "work.mode",
            "work.remote",
            value="hybrid" if re.search(r"hybrid|office", c, I_) else "yes",
            correction=bool(re.search(r"\b(?:now|went|gone|switched|moved)\b", c, I_)),
        )
    ]


_ORG = r"(?P<x>(?-i:[A-Z])[\w&.'-]*(?: (?:of |& )?(?-i:[A-Z])[\w&.'-]*)*)"
_WHEN = r"(?: (?:in|last|this|back in) \w+| a (?:week|month|year) ago)?"
# "My new employer is Beth Israel", "I took a position at Beth Israel in March", "Beth Israel
# hired me away from Mass General": where the user works now, said as the change it was
_NEW_EMPLOYER = tuple(
    re.compile(p, I_)
    for p in (
        rf"^my new (?:employer|company|job|workplace|gig|firm) is (?:at |with )?{_ORG}$",
        # "I gave up freelancing and took a staff job at the Denver Post"
        r"^i(?:'ve)? (?:(?:gave up|quit|left|stopped) [\w' -]+? and )?"
        r"(?:just |recently |finally |officially )?(?:took|accepted|started|landed|"
        r"got) (?:a |an |the )?(?:(?:new|staff|full[- ]time|part[- ]time|permanent|salaried) )*"
        r"(?:position|job|role|post|gig) (?:at|with) (?:the )?"
        rf"{_ORG}{_WHEN}$",
        rf"^{_ORG} (?:hired|poached|recruited|snapped) me(?: up)?(?: away)?"
        rf"(?: from (?:the |my )?[\w&.' -]+?)?{_WHEN}$",
        # typed in lower case: "starbucks hired me last week so that's my job now"
        r"^(?P<x>(?!(?:my|his|her|our|their|the|a|an|they|someone|somebody|he|she|we|you|it)\b)"
        r"(?-i:[a-z])[\w&.'-]*(?: (?-i:[a-z])[\w&.'-]*)?) (?:hired|took) me(?: on)?"
        rf"{_WHEN}(?:,? so (?:that's|thats|it's|its) (?:my (?:job|work)|where i work)(?: now)?)?$",
        # "I'm at Nubank since monday", "now I'm in Comarch, same HR work": where the user works
        # now, said with when it began or the same job kept (not "I'm at Costco" this minute)
        rf"^(?:now |so now )?(?:i'm|im|i am) (?:now )?(?:at|in|with) (?:the )?{_ORG}"
        r"(?: since (?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|last \w+|"
        r"this \w+|\w+ weeks?|\w+ months?)| now,? (?:same|doing the same) (?:\w+ )?(?:work|job|"
        r"position|role)(?: there)?|,? same (?:\w+ )?(?:work|job|position|role)|"
        # "now im in Max's Restaurant as crew leader also": the employer, the job kept
        r" as (?:an? )?[\w -]{2,30}?(?: also| too| now| again)?)$",
        # "I fly for United now", "I got poached by Adidas", "I jumped to Home Depot's
        # corporate office": the employer, said by the work done for it or the move to it
        r"^i (?:now |just |currently |actually |still )?(?:fly|drive|cook|write|code|deliver|"
        rf"bartend|teach|nurse|sell|consult|dance|sing|pilot|report) for {_ORG}"
        rf"(?: now| these days)?{_WHEN}$",
        r"^i (?:just |recently |finally |actually )?got (?:poached|hired|recruited|snapped up|"
        rf"picked up|headhunted) by {_ORG}(?: [a-z][\w ]*)?{_WHEN}$",
        # "I got hired at Peet's as a shift lead", "I landed at Nvidia a month later"
        r"^i (?:just |recently |finally |actually |eventually )?(?:got hired (?:on )?at|"
        rf"landed (?:a (?:new )?job |a spot |a position )?(?:at|with)) {_ORG}(?P<more>\s.*)?$",
        # typed in lower case ("got hired at lowe's!"): a short name that ends the clause
        r"^i (?:just |recently |finally |actually )?got hired (?:on )?at "
        r"(?P<x>(?-i:[a-z])[\w&.'-]*(?: (?-i:[a-z])[\w&.'-]*)?)$",
        r"^i (?:just |recently |finally |actually )?(?:jumped|jumped ship|hopped|moved over|"
        rf"went over|switched over) to {_ORG}(?: [a-z][\w ]*)?(?: now)?{_WHEN}$",
    )
)


# Words after "X's" that say X's is a whole name ("Peet's as a shift lead"), not X's thing.
_NOT_OWNED = frozenset(
    "as a an the in on at for so and but last this since now a month week year".split()
)


def new_employer(c: str) -> list[Hit]:
    """The employer a clause says the user moved to ("my new employer is X")."""
    m = next(filter(None, (p.match(c) for p in _NEW_EMPLOYER)), None)
    if not m or is_place_en(m.group("x")) or m.group("x").lower() in STOPWORDS:
        return []  # "You hired me", "We hired me": a pronoun, no employer
    said = m.group("x")
    after = c[m.end("x") :].split()
    if after and after[0].lower() not in _NOT_OWNED:  # "Home Depot's corporate office"
        said = re.sub(r"'s$", "", said)
    where = place(said)
    return [Hit(F, "work.employer", "employer.new", value=where, correction=True,
                content=f"User works at {where}")]  # fmt: skip
