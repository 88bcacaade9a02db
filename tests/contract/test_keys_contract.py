"""KeyStore guarantees (see ``jiyi/keys/base.py``), run against every backend: SQLite (one
node's ``keys.db``) and PostgreSQL (shared by every node of a deployment).

``open_keys`` opens another store on the same backend storage, as another process or node
does; the clock is injected, so ``created_at`` is checked exactly.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from jiyi.errors import InvalidInputError
from jiyi.keys import PREFIX, KeyStore, PostgresKeyStore, SqliteKeyStore, copy_keys

PG_DSN = os.environ.get("JIYI_TEST_PG_DSN")
NO_PG = "PostgreSQL not configured: run `scripts/services.sh up` and export JIYI_TEST_PG_DSN"
T0 = datetime(2026, 11, 29, 6, 0, tzinfo=UTC)
OpenKeys = Callable[..., KeyStore]


class Clock:
    def __init__(self) -> None:
        self.now = T0

    def __call__(self) -> datetime:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.integration)])
def open_keys(request: pytest.FixtureRequest, tmp_path: Path, clock: Clock) -> Iterator[OpenKeys]:
    """Opens key stores sharing one backend's storage; all closed (and dropped) after."""
    opened: list[KeyStore] = []
    schema = f"jiyi_keys_{uuid.uuid4().hex[:8]}"
    if request.param == "postgres" and not PG_DSN:
        pytest.skip(NO_PG)

    def open_store(pepper: bytes | None = None) -> KeyStore:
        store: KeyStore
        if request.param == "sqlite":
            store = SqliteKeyStore(tmp_path / "keys.db", pepper=pepper, clock=clock)
        else:
            assert PG_DSN is not None
            store = PostgresKeyStore(PG_DSN, schema=schema, pepper=pepper, clock=clock)
        opened.append(store)
        return store

    yield open_store
    for store in opened:
        store.close()
    if request.param == "postgres":
        import psycopg

        with psycopg.connect(PG_DSN, autocommit=True) as conn:
            conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')


@pytest.fixture
def keys(open_keys: OpenKeys) -> KeyStore:
    return open_keys()


def test_a_created_key_verifies_as_its_tenant_and_agent(keys: KeyStore) -> None:
    key, who = keys.create("acme")
    bound, planner = keys.create("acme", "planner")
    assert key.startswith(PREFIX) and key != bound
    assert keys.verify(key) == who and who.tenant == "acme" and who.agent_id is None
    assert keys.verify(bound) == planner and planner.agent_id == "planner"
    assert who.key_id != planner.key_id


def test_unknown_malformed_and_oversized_keys_do_not_verify(keys: KeyStore) -> None:
    keys.create("acme")
    for key in ["", "jy_", "jy_unknown", "sk-not-ours", PREFIX + "x" * 300]:
        assert keys.verify(key) is None


def test_only_a_hash_is_stored_and_the_key_is_never_listed(keys: KeyStore) -> None:
    key, who = keys.create("acme")
    (record,) = keys.records()
    assert record.key_id == who.key_id
    assert key not in repr(record) and key[len(PREFIX) :] not in repr(record)


def test_records_carry_tenant_agent_and_created_at_oldest_first(
    keys: KeyStore, clock: Clock
) -> None:
    _, first = keys.create("acme")
    clock.now = T0 + timedelta(minutes=5)
    _, second = keys.create("acme", "planner")
    clock.now = T0 + timedelta(minutes=10)
    _, other = keys.create("globex")
    assert [r.key_id for r in keys.records()] == [first.key_id, second.key_id, other.key_id]
    acme = keys.records("acme")
    assert [(r.tenant, r.agent_id, r.created_at) for r in acme] == [
        ("acme", None, T0),
        ("acme", "planner", T0 + timedelta(minutes=5)),
    ]
    assert keys.records("nobody") == []


def test_revoking_is_immediate_idempotent_and_counted(keys: KeyStore, clock: Clock) -> None:
    key, who = keys.create("acme")
    keys.create("acme")
    assert keys.count() == 2
    clock.now = T0 + timedelta(hours=1)
    assert keys.revoke(who.key_id) is True
    assert keys.verify(key) is None
    assert keys.revoke(who.key_id) is False and keys.revoke("no-such-id") is False
    assert keys.count() == 1
    revoked = next(r for r in keys.records() if r.key_id == who.key_id)
    assert revoked.revoked_at == T0 + timedelta(hours=1)


def test_register_is_idempotent_and_keeps_the_first_tenant(keys: KeyStore) -> None:
    key = PREFIX + "bootstrap-key-for-containers"
    first = keys.register(key, "acme")
    assert keys.register(key, "acme") == first
    assert keys.register(key, "globex", "planner") == first  # a key never changes owner
    assert keys.verify(key) == first and keys.count() == 1


def test_register_refuses_what_could_never_verify(keys: KeyStore) -> None:
    with pytest.raises(InvalidInputError) as bad_key:
        keys.register("sk-no-prefix", "acme")
    assert bad_key.value.field == "key"
    with pytest.raises(InvalidInputError) as bad_tenant:
        keys.create("\x00")
    assert bad_tenant.value.field == "tenant"
    with pytest.raises(InvalidInputError) as bad_agent:
        keys.create("acme", " ")
    assert bad_agent.value.field == "agent_id"
    assert keys.count() == 0


def test_another_process_sees_keys_and_revocations_at_once(open_keys: OpenKeys) -> None:
    node_a, node_b = open_keys(), open_keys()
    key, who = node_a.create("acme", "planner")
    assert node_b.verify(key) == who
    assert node_b.revoke(who.key_id)
    assert node_a.verify(key) is None


def test_the_pepper_is_part_of_the_hash(open_keys: OpenKeys) -> None:
    peppered = open_keys(b"pepper-1")
    key, who = peppered.create("acme")
    assert peppered.verify(key) == who
    assert open_keys(b"pepper-2").verify(key) is None
    assert open_keys().verify(key) is None


def test_keys_copied_from_a_key_file_keep_working(
    open_keys: OpenKeys, tmp_path: Path, clock: Clock
) -> None:
    legacy = SqliteKeyStore(tmp_path / "legacy" / "keys.db", clock=clock)
    try:
        key, who = legacy.create("acme", "planner")
        old, gone = legacy.create("acme")
        legacy.revoke(gone.key_id)
        target = open_keys()
        assert isinstance(target, SqliteKeyStore | PostgresKeyStore)
        assert copy_keys(legacy, target) == 2
        assert target.verify(key) == who and target.verify(old) is None
        assert {(r.key_id, r.tenant, r.agent_id, r.created_at) for r in target.records()} == {
            (who.key_id, "acme", "planner", T0),
            (gone.key_id, "acme", None, T0),
        }
        # Again (every start does it): nothing new, and a revocation in either store wins.
        assert target.revoke(who.key_id)
        assert copy_keys(legacy, target) == 0
        assert target.verify(key) is None and target.count() == 0
    finally:
        legacy.close()
