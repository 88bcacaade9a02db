"""Read path: a query that names a speaker is searched without the name (``unname_speakers``).

A store holds no list of its speakers, so the keyword channel goes first: the query's
words find the named speaker's turns (the keyword index holds each turn's speaker), their
speakers say whether the query names one (:func:`jiyi.core.speakers.unnamed_query`), and if
it does both channels are searched with the name replaced by a pronoun — the keyword
channel once more, the dense channel only this once (its query embedding is the costly
part). The fusion still reads the original query, so the speaker signal prefers the named
speaker's turns.

Only a query that may name someone (English, a capitalised word after its first) takes
this path; the others are searched as before, the dense channel overlapping the keyword
channel when a time budget is set. Cost and effect in bench/README.md.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from jiyi.core.models import MemoryItem, Scope
from jiyi.core.ports import MemoryStore, SearchFilter
from jiyi.core.retrieval import QueryPlan, RetrievalConfig, plan_query
from jiyi.core.speakers import unnamed_query
from jiyi.core.text import has_cjk

# A capitalised word that is not the first word: a name, most likely ("What does Melanie …").
_INNER_CAPITAL = re.compile(r"\S\s+[A-Z][a-z]")


@dataclass(frozen=True)
class SpeakerFree:
    """The text to embed and the keyword channel's result, searched without the name."""

    dense_text: str
    keyword: dict[str, float]


def may_name_someone(query: str) -> bool:
    """Could the query name a speaker? (Cheap: decides whether the keyword channel first.)"""
    return not has_cjk(query) and _INNER_CAPITAL.search(query) is not None


def keyword_terms(plan: QueryPlan) -> list[str]:
    """The keyword channel's terms: the plan's words and its identifiers."""
    return plan.terms + [e.lower() for e in plan.exact if e.lower() not in plan.terms]


def speaker_free_keywords(
    store: MemoryStore,
    scope: Scope,
    query: str,
    terms: list[str],
    flt: SearchFilter,
    now: datetime,
    cfg: RetrievalConfig,
    fetch: Callable[[list[str]], dict[str, MemoryItem]],
) -> SpeakerFree:
    """The keyword channel for ``query`` (``terms``: its plan's), searched without the name
    of a speaker of its hits when it names one; ``fetch`` reads hits into the candidates and
    returns them all. When it names none, or nothing but the name ("Who is Melanie?"), the
    first search stands and the dense channel embeds ``query`` itself."""
    keyword = dict(store.keyword_search(scope, terms, flt, cfg.pool)) if terms else {}
    found = fetch(list(keyword))
    text = unnamed_query(query, {m.speaker for m in found.values() if m.speaker})
    if text is None:
        return SpeakerFree(query, keyword)
    free = keyword_terms(plan_query(text, now, cfg))
    if not free:
        return SpeakerFree(query, keyword)
    return SpeakerFree(text, dict(store.keyword_search(scope, free, flt, cfg.pool)))
