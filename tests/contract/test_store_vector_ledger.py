"""Contract: every vector records the embedder that made it (``ChangeSet.embedder``); vector
search can be limited to one embedder's vectors (``SearchFilter.embedder``); the backfill's
two methods (``VectorLedger``) list the stale vectors and replace them, idempotently and
never outside the scope."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from test_store_contract import ALICE, ALL, BOB, EMB, item

from jiyi.core.models import MemoryItem, Scope
from jiyi.core.ports import ChangeSet, Indexed, MemoryStore, VectorLedger
from jiyi.core.text import keyword_text
from jiyi.errors import InvalidInputError


def put_by(store: MemoryStore, scope: Scope, embedder: str | None, *items: MemoryItem) -> None:
    vecs = EMB.embed_documents([m.content for m in items])
    upserts = [Indexed(m, keyword_text(m.content), v) for m, v in zip(items, vecs, strict=True)]
    store.apply(scope, ChangeSet(upserts=upserts, embedder=embedder))


def test_both_stores_keep_a_vector_ledger(store: MemoryStore) -> None:
    assert isinstance(store, VectorLedger)


def test_vectors_of_another_embedder_are_left_out_of_an_embedder_filtered_search(
    store: MemoryStore,
) -> None:
    a, b, legacy = item(ALICE, "冷萃 咖啡"), item(ALICE, "冷萃 茶"), item(ALICE, "冷萃 旧")
    put_by(store, ALICE, "model-a", a)
    put_by(store, ALICE, "model-b", b)
    put_by(store, ALICE, None, legacy)  # written before vectors were labelled
    q = EMB.embed_query("冷萃")
    everyone = {i for i, _ in store.vector_search(ALICE, q, ALL, 10)}
    assert everyone == {a.id, b.id, legacy.id}
    only_b = {i for i, _ in store.vector_search(ALICE, q, replace(ALL, embedder="model-b"), 10)}
    assert only_b == {b.id, legacy.id}  # unlabelled vectors are trusted, never a's
    # The filter is about vectors only: keyword search still finds a.
    assert {
        i for i, _ in store.keyword_search(ALICE, ["冷萃"], replace(ALL, embedder="b"), 10)
    } == {
        a.id,
        b.id,
        legacy.id,
    }


def test_stale_vectors_lists_other_and_unlabelled_vectors_in_id_order(store: MemoryStore) -> None:
    assert isinstance(store, VectorLedger)
    mine, theirs, legacy = item(ALICE, "一"), item(ALICE, "二"), item(ALICE, "三")
    put_by(store, ALICE, "model-b", mine)
    put_by(store, ALICE, "model-a", theirs)
    put_by(store, ALICE, None, legacy)
    put_by(store, BOB, "model-a", item(BOB, "别人 的"))
    no_vector = item(ALICE, "没有 向量")
    store.apply(ALICE, ChangeSet(upserts=[Indexed(no_vector, "没有 向量", None)]))
    stale = store.stale_vectors(ALICE, "model-b", limit=10)
    assert stale == sorted([theirs.id, legacy.id], key=str.encode)
    assert store.stale_vectors(ALICE, "model-b", limit=1) == stale[:1]


def test_set_vectors_replaces_the_vector_alone_and_is_idempotent(store: MemoryStore) -> None:
    assert isinstance(store, VectorLedger)
    m = item(ALICE, "冷萃 咖啡")
    put_by(store, ALICE, "model-a", m)
    before = store.get("t1", m.id)
    new = EMB.embed_query("完全 不同 的 文字")
    assert store.set_vectors(ALICE, {m.id: new}, "model-b") == 1
    assert store.stale_vectors(ALICE, "model-b", limit=10) == []
    assert store.get("t1", m.id) == before  # the row is untouched
    hits = store.vector_search(ALICE, new, replace(ALL, embedder="model-b"), 1)
    assert hits[0][0] == m.id and hits[0][1] == pytest.approx(1.0, abs=1e-5)
    assert store.set_vectors(ALICE, {m.id: new}, "model-b") == 1  # again: same result
    assert store.stale_vectors(ALICE, "model-b", limit=10) == []


def test_set_vectors_skips_missing_and_foreign_ids(store: MemoryStore) -> None:
    assert isinstance(store, VectorLedger)
    bobs = item(BOB, "别人 的")
    put_by(store, BOB, "model-a", bobs)
    vec = EMB.embed_query("x")
    assert store.set_vectors(ALICE, {bobs.id: vec, "no-such-id": vec}, "model-b") == 0
    assert store.stale_vectors(BOB, "model-b", limit=10) == [bobs.id]


def test_set_vectors_refuses_a_bad_vector_and_writes_nothing(store: MemoryStore) -> None:
    assert isinstance(store, VectorLedger)
    a, b = item(ALICE, "一"), item(ALICE, "二")
    put_by(store, ALICE, "model-a", a, b)
    good = EMB.embed_query("好")
    bad = np.full(EMB.dim, np.nan, dtype=np.float32)
    with pytest.raises(InvalidInputError) as err:
        store.set_vectors(ALICE, {a.id: good, b.id: bad}, "model-b")
    assert err.value.field == "vector"
    assert len(store.stale_vectors(ALICE, "model-b", limit=10)) == 2
