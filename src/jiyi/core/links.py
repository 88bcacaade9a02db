"""Linked records: the words the best hits share with the rest of their event (pure, no I/O).

A multi-hop question names one part of an event ("社区旧衣改造课堂的水果茶配方"); its other
records name another ("李美玲推荐了一个水果茶配方：草莓、橙子加薄荷") and may share no word with
the question at all. What ties them is what the best hits say beyond the question: the
friend's name, the recipe's ingredients, the app. Classic pseudo-relevance feedback, LLM-free:
after a first fusion, the few words of the top hits that are rare among the candidates are
searched once more on the keyword channel, and that round is folded in below the question's
own (``RetrievalConfig.w_linked``, off by default; bench/README.md).

Rarity is read from the candidates themselves (how many of the keyword pool hold the word):
the store's whole-corpus document frequencies are not part of its port, and a word most
candidates hold (a weekday, the app all the notices come from) says nothing about which of
them belong to the event.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence

from jiyi.core.text import STOPWORDS, tokenize

LINKED_FROM = 3  # the best hits whose words are read
LINKED_TERMS = 5  # words searched in the linked round
LINKED_POOL = 50  # candidates of the linked round: its records must reach the top 10 to count
MAX_SHARE = 0.25  # a word held by more of the candidates than this is no link


def feedback_terms(
    query_terms: Sequence[str], top_texts: Sequence[str], pool_texts: Sequence[str], n: int
) -> list[str]:
    """The ``n`` words of ``top_texts`` (the best hits) most telling of their event: not in
    the query, not stopwords, numbers or single characters, held by at most
    :data:`MAX_SHARE` of ``pool_texts`` (the candidates), scored by how many top hits hold
    them × their rarity in the pool. Best first; ties by first appearance."""
    asked = set(query_terms)
    pool = Counter(t for text in pool_texts for t in set(tokenize(text)))
    size = max(len(pool_texts), 1)
    score: dict[str, float] = {}
    for text in top_texts:
        for t in dict.fromkeys(tokenize(text)):
            if t in asked or t in STOPWORDS or len(t) < 2 or t.isdigit():
                continue
            if pool[t] > MAX_SHARE * size:
                continue
            score[t] = score.get(t, 0.0) + math.log((size + 1) / (pool[t] + 0.5))
    ranked = sorted(score.items(), key=lambda kv: -kv[1])  # stable: first appearance on ties
    return [t for t, _ in ranked[:n]]


def fold_linked(
    keyword: Mapping[str, float], linked: Mapping[str, float], weight: float
) -> dict[str, float]:
    """The keyword channel with the linked round folded in: the round's best hit scores
    ``weight`` × the question's best BM25 score, and every candidate keeps its better score.
    (BM25 scores of different queries are not comparable; places relative to each best are.)"""
    out = dict(keyword)
    top = max(keyword.values(), default=0.0) or 1.0
    best = max(linked.values(), default=0.0)
    if best <= 0 or weight <= 0:
        return out
    for mid, s in linked.items():
        v = weight * top * s / best
        if v > out.get(mid, 0.0):
            out[mid] = v
    return out
