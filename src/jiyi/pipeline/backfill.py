"""The embedding backfill: re-embed a user's vectors that another embedder made.

Every vector records the embedder that made it (``ChangeSet.embedder``, stored beside the
vector). After the configured embedder changes, recall compares its query only with
vectors of the same embedder (``SearchFilter.embedder``); the other rows are still found
through the keyword channel (BM25), so search stays correct while this job catches up —
just without dense recall on the rows not yet re-embedded. Vectors written before the
ledger existed carry no label: search trusts them (they were all the store had) and the
backfill re-embeds and labels them once.

Batches of ``batch`` rows, each its own transaction, each recomputed from the store
(``VectorLedger.stale_vectors``): a run killed at any point leaves every row with either
its old vector or its new one, and running it again finishes the rest without redoing any.
The texts are exactly those the write path embedded (an episode with its context turns).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from jiyi.core.models import MemoryItem, MemoryKind, Scope, Status
from jiyi.core.ports import Embedder, MemoryStore, SearchFilter, VectorLedger
from jiyi.pipeline.edit import window_text

__all__ = ["Backfilled", "backfill"]

_EVERYTHING = SearchFilter(statuses=tuple(Status))
#: Called with (rows re-embedded so far, rows stale at the start) after each batch.
Tick = Callable[[int, int], None]


@dataclass
class Backfilled:
    """What a backfill run did: rows re-embedded, and how many stay stale."""

    reembedded: int = 0
    remaining: int = 0


def _texts(rows: list[MemoryItem], everyone: dict[str, MemoryItem], turns: int) -> list[str]:
    batches: dict[str, list[MemoryItem]] = {}
    for m in everyone.values():
        if m.kind == MemoryKind.EPISODE:
            batches.setdefault(str(m.batch), []).append(m)
    return [
        window_text(batches[str(m.batch)], m, turns) if m.kind == MemoryKind.EPISODE else m.content
        for m in rows
    ]


def backfill(
    store: MemoryStore,
    embedder: Embedder,
    scope: Scope,
    *,
    context_turns: int,
    batch: int = 64,
    max_rows: int | None = None,
    dry_run: bool = False,
    tick: Tick | None = None,
) -> Backfilled:
    """Re-embed the scope's vectors not made by ``embedder``, ``batch`` rows per
    transaction, at most ``max_rows`` in this run (None: all). A store without a vector
    ledger has nothing to backfill. ``dry_run`` counts and writes nothing."""
    out = Backfilled()
    if not isinstance(store, VectorLedger):
        return out
    total = len(store.stale_vectors(scope, embedder.name, limit=1_000_000))
    out.remaining = total
    if dry_run or total == 0:
        return out
    everyone = {m.id: m for m in store.list(scope, _EVERYTHING)}
    while max_rows is None or out.reembedded < max_rows:
        size = batch if max_rows is None else min(batch, max_rows - out.reembedded)
        ids = store.stale_vectors(scope, embedder.name, limit=size)
        missing = [i for i in ids if i not in everyone]
        if missing:  # written since the run began
            everyone.update((m.id, m) for m in store.get_many(scope, missing))
        rows = [everyone[i] for i in ids if i in everyone]
        if not rows:
            break
        vecs = embedder.embed_documents(_texts(rows, everyone, context_turns))
        changed = store.set_vectors(
            scope, {m.id: v for m, v in zip(rows, vecs, strict=True)}, embedder.name
        )
        if changed == 0:  # deleted meanwhile: nothing left to do in this batch
            break
        out.reembedded += changed
        if tick is not None:
            tick(out.reembedded, total)
    out.remaining = max(0, total - out.reembedded)
    return out
