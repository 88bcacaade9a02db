"""Contract: memory ids are global and never change owner. A write that names an id owned by
another user or another tenant is refused (InvalidInputError naming ``id``) and writes
nothing — neither the foreign row nor anything else in the same ChangeSet."""

from __future__ import annotations

import pytest
from test_store_contract import ALICE, ALL, BOB, EMB, OTHER_TENANT, item, put

from jiyi.core.models import MemoryItem, Scope, Status
from jiyi.core.ports import ChangeSet, Indexed, MemoryStore, SearchFilter
from jiyi.core.text import keyword_text
from jiyi.errors import InvalidInputError

INTRUDERS = [pytest.param(BOB, id="another-user"), pytest.param(OTHER_TENANT, id="another-tenant")]


def claimed_by(intruder: Scope, m: MemoryItem, content: str) -> MemoryItem:
    """``m``'s id, written as the intruder's own memory."""
    return m.model_copy(
        update={"tenant": intruder.tenant, "user_id": intruder.user_id, "content": content}
    )


def assert_untouched(store: MemoryStore, original: MemoryItem) -> None:
    got = store.get(ALICE.tenant, original.id)
    assert got is not None
    assert (got.user_id, got.content, got.status) == (
        ALICE.user_id,
        original.content,
        original.status,
    )
    assert [h[0] for h in store.keyword_search(ALICE, ["花生"], SearchFilter(), 5)] == [original.id]
    vec = EMB.embed_query(original.content)
    assert [h[0] for h in store.vector_search(ALICE, vec, SearchFilter(), 5)] == [original.id]


@pytest.mark.parametrize("intruder", INTRUDERS)
def test_an_upsert_of_an_id_owned_elsewhere_is_refused(store: MemoryStore, intruder: Scope) -> None:
    original = item(ALICE, "爱丽丝 对 花生 过敏")
    put(store, ALICE, original)
    own = item(intruder, "入侵者 自己 的 记录")
    stolen = claimed_by(intruder, original, "入侵者 改写 花生")
    with pytest.raises(InvalidInputError) as err:
        put(store, intruder, own, stolen)
    assert err.value.field == "id"
    assert_untouched(store, original)
    assert store.list(intruder, ALL) == []  # the rest of the write went nowhere either
    assert store.get(intruder.tenant, own.id) is None
    assert store.keyword_search(intruder, ["入侵者"], ALL, 5) == []
    assert store.history(intruder.tenant, own.id) == []


@pytest.mark.parametrize("intruder", INTRUDERS)
def test_an_update_of_an_id_owned_elsewhere_is_refused(store: MemoryStore, intruder: Scope) -> None:
    original = item(ALICE, "爱丽丝 对 花生 过敏")
    put(store, ALICE, original)
    own = item(intruder, "入侵者 自己 的 记录")
    retired = claimed_by(intruder, original, original.content).model_copy(
        update={"status": Status.SUPERSEDED}
    )
    with pytest.raises(InvalidInputError) as err:
        store.apply(
            intruder,
            ChangeSet(
                upserts=[Indexed(own, keyword_text(own.content), EMB.embed_query(own.content))],
                updates=[retired],
                messages=["m-1"],
            ),
        )
    assert err.value.field == "id"
    assert_untouched(store, original)
    assert store.list(intruder, ALL) == []
    assert store.seen_messages(intruder, ["m-1"]) == set()


def test_the_owner_may_still_rewrite_its_own_id(store: MemoryStore) -> None:
    original = item(ALICE, "爱丽丝 对 花生 过敏")
    put(store, ALICE, original)
    rewritten = original.model_copy(update={"content": "爱丽丝 对 花生 和 芝麻 过敏"})
    put(store, ALICE, rewritten)
    store.apply(ALICE, ChangeSet(updates=[rewritten.model_copy(update={"importance": 0.9})]))
    got = store.get(ALICE.tenant, original.id)
    assert got is not None and got.importance == 0.9 and got.user_id == ALICE.user_id
