"""Contract: a vector that is not 1-D, finite and of the store's one dimension is refused
(InvalidInputError naming ``vector``) before anything is written — on write and on search."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from test_store_contract import ALICE, ALL, EMB, item, put

from jiyi.core.ports import ChangeSet, Indexed, MemoryStore, SearchFilter
from jiyi.core.text import keyword_text
from jiyi.errors import InvalidInputError

DIM = EMB.dim
BAD = [
    pytest.param(np.ones(DIM // 2, dtype=np.float32), id="wrong-dimension"),
    pytest.param(np.full(DIM, np.nan, dtype=np.float32), id="nan"),
    pytest.param(np.array([1.0] * (DIM - 1) + [np.inf], dtype=np.float32), id="infinite"),
    pytest.param(np.ones((1, DIM), dtype=np.float32), id="two-dimensional"),
    pytest.param(np.zeros(0, dtype=np.float32), id="empty"),
    pytest.param(np.array(["not", "a", "vector"]), id="not-numbers"),
]


@pytest.mark.parametrize("bad", BAD)
def test_a_bad_vector_is_refused_and_nothing_is_written(store: MemoryStore, bad: Any) -> None:
    held = item(ALICE, "已有 的 记录")
    put(store, ALICE, held)  # fixes the store's dimension
    good, broken = item(ALICE, "冷萃 咖啡"), item(ALICE, "坏 向量")
    with pytest.raises(InvalidInputError) as err:
        store.apply(
            ALICE,
            ChangeSet(
                upserts=[
                    Indexed(good, keyword_text(good.content), EMB.embed_query(good.content)),
                    Indexed(broken, keyword_text(broken.content), bad),
                ],
                messages=["m-bad"],
            ),
        )
    assert err.value.field == "vector"
    assert [m.id for m in store.list(ALICE, ALL)] == [held.id]
    assert store.keyword_search(ALICE, ["冷萃"], ALL, 5) == []
    assert store.seen_messages(ALICE, ["m-bad"]) == set()
    hits = store.vector_search(ALICE, EMB.embed_query("冷萃 咖啡"), ALL, 5)
    assert [h[0] for h in hits] == [held.id]


def test_vectors_of_one_write_must_share_a_dimension(store: MemoryStore) -> None:
    a, b = item(ALICE, "第一 条"), item(ALICE, "第二 条")
    with pytest.raises(InvalidInputError) as err:
        store.apply(
            ALICE,
            ChangeSet(
                upserts=[
                    Indexed(a, keyword_text(a.content), np.ones(8, dtype=np.float32) / 8**0.5),
                    Indexed(b, keyword_text(b.content), np.ones(4, dtype=np.float32) / 2),
                ]
            ),
        )
    assert err.value.field == "vector"
    assert store.list(ALICE, ALL) == []


@pytest.mark.parametrize("bad", BAD)
def test_a_bad_query_vector_is_refused(store: MemoryStore, bad: Any) -> None:
    put(store, ALICE, item(ALICE, "已有 的 记录"))
    with pytest.raises(InvalidInputError) as err:
        store.vector_search(ALICE, bad, SearchFilter(), 5)
    assert err.value.field == "vector"
