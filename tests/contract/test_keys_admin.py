"""Admin keys, expiry and rotation (``jiyi/keys/base.py``) on SQLite and PostgreSQL, and a
keys.db written before those columns existed still opening with its keys valid."""

from __future__ import annotations

import sqlite3
from datetime import timedelta
from pathlib import Path

import pytest
from tests.contract.test_keys_contract import T0, Clock, OpenKeys, clock, open_keys

from jiyi.errors import InvalidInputError
from jiyi.keys import PostgresKeyStore, SqliteKeyStore, copy_keys

__all__ = ["clock", "open_keys"]  # fixtures shared with the key contract suite


def test_an_admin_key_verifies_as_admin_and_lists_as_admin(open_keys: OpenKeys) -> None:
    keys = open_keys()
    key, who = keys.create("ops", admin=True)
    assert who.admin and who.tenant == "ops" and who.agent_id is None
    assert keys.verify(key) == who
    plain, plain_who = keys.create("ops")
    found = keys.verify(plain)
    assert found is not None and not found.admin
    assert {r.key_id: r.admin for r in keys.records("ops")} == {
        who.key_id: True,
        plain_who.key_id: False,
    }


def test_an_admin_key_cannot_be_bound_to_an_agent(open_keys: OpenKeys) -> None:
    with pytest.raises(InvalidInputError):
        open_keys().create("ops", "planner", admin=True)


def test_a_key_expires_at_its_time_on_every_node(open_keys: OpenKeys, clock: Clock) -> None:
    a, b = open_keys(), open_keys()
    key, _ = a.create("acme", expires_at=T0 + timedelta(hours=1))
    assert b.verify(key) is not None
    clock.now = T0 + timedelta(hours=1)
    assert a.verify(key) is None and b.verify(key) is None
    assert b.records("acme")[0].expires_at == T0 + timedelta(hours=1)


def test_an_expiry_must_lie_ahead_and_a_naive_one_is_utc(open_keys: OpenKeys) -> None:
    keys = open_keys()
    for past in (T0, T0 - timedelta(seconds=1)):
        with pytest.raises(InvalidInputError) as err:
            keys.create("acme", expires_at=past)
        assert err.value.field == "expires_at"
    _, who = keys.create("acme", expires_at=(T0 + timedelta(hours=2)).replace(tzinfo=None))
    assert keys.records("acme")[0].expires_at == T0 + timedelta(hours=2)
    assert who.key_id == keys.records("acme")[0].key_id


def test_an_expired_key_cannot_be_rotated_back_to_life(open_keys: OpenKeys, clock: Clock) -> None:
    keys = open_keys()
    key, who = keys.create("acme", expires_at=T0 + timedelta(minutes=5))
    clock.now = T0 + timedelta(minutes=5)
    assert keys.rotate(who.key_id) is None
    assert keys.verify(key) is None and keys.records("acme")[0].revoked_at is None


def test_rotation_revokes_the_old_key_and_keeps_what_it_was(open_keys: OpenKeys) -> None:
    a, b = open_keys(), open_keys()
    old, who = a.create("acme", "planner", expires_at=T0 + timedelta(days=30))
    rotated = b.rotate(who.key_id)
    assert rotated is not None
    new, new_who = rotated
    assert new != old and new_who.key_id != who.key_id
    assert (new_who.tenant, new_who.agent_id, new_who.admin) == ("acme", "planner", False)
    assert a.verify(old) is None and a.verify(new) == new_who
    recs = {r.key_id: r for r in a.records("acme")}
    assert recs[who.key_id].revoked_at is not None
    assert recs[new_who.key_id].expires_at == T0 + timedelta(days=30)
    assert b.rotate(who.key_id) is None  # revoked: nothing to rotate
    assert b.rotate("nope") is None


def test_a_keys_db_from_before_admin_and_expiry_still_works(tmp_path: Path) -> None:
    path = tmp_path / "keys.db"
    first = SqliteKeyStore(path)
    key, who = first.create("acme")
    first.close()
    db = sqlite3.connect(path)  # the table as an older version wrote it
    db.executescript(
        "CREATE TABLE old AS SELECT key_id, key_hash, tenant, agent_id, created_at, revoked_at "
        "FROM api_keys; DROP TABLE api_keys; ALTER TABLE old RENAME TO api_keys;"
    )
    db.close()
    again = SqliteKeyStore(path)
    assert again.verify(key) == who
    assert again.create("acme", admin=True)[1].admin
    again.close()


def test_copied_keys_keep_their_admin_flag_and_expiry(
    open_keys: OpenKeys, tmp_path: Path, clock: Clock
) -> None:
    legacy = SqliteKeyStore(tmp_path / "legacy" / "keys.db", clock=clock)
    try:
        key, who = legacy.create("ops", admin=True, expires_at=T0 + timedelta(days=1))
        target = open_keys()
        assert isinstance(target, SqliteKeyStore | PostgresKeyStore)
        assert copy_keys(legacy, target) == 1
        assert target.verify(key) == who and who.admin
        assert target.records()[0].expires_at == T0 + timedelta(days=1)
    finally:
        legacy.close()
