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
from collections.abc import Iterable

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
