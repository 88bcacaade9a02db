"""A question about a speaker, searched without the speaker's name (pure, no I/O).

"What activities does Melanie partake in?" asks about what Melanie said, but in a chat
between two people the name is everywhere: every turn of hers carries it as its speaker,
and the other side addresses her by it ("Wow, Melanie! …"). Searched with the name, the
dense channel ranks turns by how much they are *about Melanie* — greetings, compliments
and questions addressed to her — and the keyword channel spends the query's weight on a
term half the conversation holds. Her camping trip or swimming with the kids, said in
another session without her name, stays below the cut: on LoCoMo 38 % of the multi-hop
evidence turns were outside the top 25.

So when a query names a speaker of the candidates (written as given, capitalised), both
channels are searched again with the name replaced by a pronoun ("What activities does
they partake in?", "Melanie's kids" → "their kids"), and the speaker signal of the fusion
(``w_speaker``, which reads the original query) still prefers her turns. English only: a
Chinese name is cut apart by the segmenter and a pronoun would not take its place in the
sentence; and a phone's app names (Keep, 支付宝) are speakers too, so a lower-case word
("keep fit") never counts as a name. Measured in bench/README.md (``unname_speakers``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from jiyi.core.models import MemoryItem
from jiyi.core.text import has_cjk

# A speaker name that can stand for a person in an English sentence: Latin letters,
# capitalised, at most three words ("Melanie", "Jon", "Mary Ann").
_NAME = re.compile(r"[A-Z][A-Za-z'-]+(?: [A-Z][A-Za-z'-]+){0,2}")


def unnamed_query(text: str, speakers: Iterable[str]) -> str | None:
    """``text`` with every speaker it names replaced by "they" ("their" for "X's"), or None
    when it names none (or is not an English query). Names match as whole words, as
    written; the longest name first, so "Mary Ann" is not read as "Mary"."""
    if has_cjk(text):
        return None
    names = sorted({s.strip() for s in speakers if _NAME.fullmatch(s.strip())}, key=len)
    out = text
    for name in reversed(names):
        word = re.escape(name)
        out = re.sub(rf"(?<![\w-]){word}(?:'s|’s)(?![\w-])", "their", out)
        out = re.sub(rf"(?<![\w-]){word}(?![\w'’-])", "they", out)
    return None if out == text else out


# Who a turn is about, by its pronouns: "I/my/we" the speaker, "you/your" the one spoken to.
_FIRST = frozenset({"i", "me", "my", "mine", "myself", "we", "us", "our", "ours", "ourselves"})
_SECOND = frozenset({"you", "your", "yours", "yourself", "yourselves"})
_WORD = re.compile(r"[a-z]+")


def addressed_share(text: str) -> float:
    """The share of second-person words among the first- and second-person words of ``text``
    (0 when it has none): "Wow, that painting is awesome! What gave you the idea?" is 1.0,
    "We love painting together lately" 0.0."""
    low = text.lower()
    if "you" not in low:  # no second person (the common case, and a cheap test)
        return 0.0
    first = second = 0
    for word in _WORD.findall(low):
        if word in _FIRST:
            first += 1
        elif word in _SECOND:
            second += 1
    return second / (first + second) if first + second else 0.0


def addressed_penalties(
    query: str,
    parts: Mapping[str, Mapping[str, float]],
    memories: Mapping[str, MemoryItem],
    weight: float,
) -> dict[str, float]:
    """What each turn of a speaker ``query`` names (``parts[id]["speaker"]`` > 0) loses for
    speaking to the other more than about themselves: ``weight`` × its second-person share,
    when that share is above half; nothing for a Chinese query or ``weight`` 0. "What has
    Melanie painted?" is answered by her "we love painting together lately", not by her
    "that painting of yours is awesome!" — a reaction to the other's news, which matches the
    question as well."""
    if weight <= 0 or has_cjk(query):
        return {}
    out: dict[str, float] = {}
    for mid, p in parts.items():
        share = addressed_share(memories[mid].content) if p.get("speaker", 0.0) > 0 else 0.0
        if share > 0.5:
            out[mid] = round(weight * share, 6)
    return out
