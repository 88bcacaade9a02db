"""Questions whose answer needs more than one piece of evidence (pure, no I/O).

"What activities does Melanie partake in?", "宋雅静在台风预警后采购了什么，事后检查确认有效吗？":
the evidence is several turns, usually said in different conversations. A ranking by
relevance alone fills its top with the best-matching conversation (the turn that matches
best, its neighbours, the same topic said again a minute later) and pushes the other
conversations' evidence below the cut. Two remedies, each a setting of
:class:`jiyi.core.retrieval.RetrievalConfig`, ablated on both languages by
``bench/retrieval_ablation.py`` (bench/README.md):

- **session spread** (``session_spread``): each hit loses ``session_spread`` for every
  better-ranked hit of the same session (one conversation: a chat session, an SMS thread),
  so the second and third turns of one conversation compete with the first turn of
  another. Greedy maximal-marginal-relevance with "same session" as the redundancy.
- **sub-questions** (``sub_questions``): a question of several clauses is also searched
  clause by clause on the keyword channel (see :func:`split_clauses`), so the evidence of
  its second clause is not drowned by the rare words of its first.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from jiyi.core.models import MemoryItem

# Clause boundaries: punctuation, and words that order two events ("after", 之后). Not
# "and"/以及/和: they join the things of one clause ("Jon and Gina", 沙袋和塑料布). Chinese
# words are matched as written (no segmenter needed), English ones as whole words.
_SPLIT = re.compile(
    r"[，,；;。？?！!]|(?:并且|而且|然后|之后|之前|以后|以前|后来|同时)"
    r"|\b(?:and then|after|before|while)\b",
    re.IGNORECASE,
)
# Candidates per clause round: the evidence a clause adds has to reach the top 10 to count,
# and a small pool keeps each round ~1 ms on a 10k-memory scope.
SUB_QUESTION_POOL = 20
MIN_CLAUSE_CHARS = 4  # shorter pieces ("并", "and so") carry no question of their own


# Questions that ask for several things: a plural after what/which ("What books has …",
# "Which cities …"), a count, "both"; 哪些/几次/分别…. Only these are spread over sessions:
# spreading every question cost single-hop questions more than it gave (bench/README.md).
_SEVERAL = re.compile(
    r"\b(?:what|which)\s+(?:\w+\s+)?(?!(?:is|was|has|does)\b)[a-z]+s\b"
    r"|\bhow (?:many|often)\b|\bboth\b|\bways\b"
    r"|哪些|几次|多少次|哪几|哪两|哪三|分别|都有|各自|几个|几项",
    re.IGNORECASE,
)


def asks_for_several(text: str) -> bool:
    """Does the question ask for a list or a count (evidence from several places)?"""
    return _SEVERAL.search(text) is not None


def split_clauses(text: str, *, max_clauses: int = 3) -> list[str]:
    """The clauses of a question that asks about more than one thing, longest first; an
    empty list when it has only one (nothing to decompose).

    Pieces shorter than :data:`MIN_CLAUSE_CHARS` (non-space characters) are dropped; at
    most ``max_clauses`` are returned, so a long question costs a bounded number of extra
    searches."""
    pieces = [p.strip() for p in _SPLIT.split(text)]
    clauses = [p for p in pieces if len(p.replace(" ", "")) >= MIN_CLAUSE_CHARS]
    if len(clauses) < 2:
        return []
    return sorted(clauses, key=len, reverse=True)[:max_clauses]


def spread_sessions(
    ranked: Sequence[tuple[float, str]],
    memories: Mapping[str, MemoryItem],
    penalty: float,
) -> list[tuple[float, str]]:
    """Re-rank ``(score, id)`` pairs (best first) so that every hit loses ``penalty`` for
    each better-ranked hit of its session; returns the new ``(score, id)`` pairs, best
    first (ties keep the input order).

    Memories without a session id are never penalised: a batch of unrelated statements
    (a persona list, an import) is not one conversation. Within a session the order is
    unchanged, so the penalty depends only on the count of better hits of the same
    session: one pass computes what a greedy selection would."""
    if penalty <= 0:
        return list(ranked)
    seen: dict[str, int] = {}
    out: list[tuple[float, int, str]] = []
    for i, (score, mid) in enumerate(ranked):
        session = memories[mid].session_id
        n = 0
        if session:
            n = seen.get(session, 0)
            seen[session] = n + 1
        out.append((round(score - penalty * n, 6), i, mid))
    out.sort(key=lambda t: (-t[0], t[1]))
    return [(score, mid) for score, _, mid in out]


def merge_keyword_rounds(
    whole: Mapping[str, float], rounds: Sequence[Mapping[str, float]]
) -> dict[str, float]:
    """The keyword channel's scores with the clause rounds folded in: each round's BM25
    scores are rescaled so that its best hit scores like the whole question's best, and
    every candidate keeps its best score over the whole question and the rounds.

    BM25 scores of different queries are not comparable; their place relative to each
    round's best is (a clause's best match is as good a keyword hit as the question's)."""
    out = dict(whole)
    top = max(whole.values(), default=0.0)
    for r in rounds:
        r_top = max(r.values(), default=0.0)
        if r_top <= 0:
            continue
        scale = (top if top > 0 else 1.0) / r_top
        for mid, s in r.items():
            v = s * scale
            if v > out.get(mid, 0.0):
                out[mid] = v
    return out
