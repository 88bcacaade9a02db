"""``jiyi keys create/list/revoke/rotate`` on a SQLite deployment: a key is printed once on
stdout, only its hash lands in ``$JIYI_HOME/keys.db``, keys are listed and revoked by id,
and a bad tenant, id or expiry is one line on stderr.

(The PostgreSQL deployment, where the key must work on every node, is
``tests/integration/test_server_keys.py``.)
"""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

from typer.testing import CliRunner

from jiyi.cli.main import app
from jiyi.keys import PREFIX, SqliteKeyStore


def run(home: Path, *args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, ["keys", "create", *args], env={"JIYI_HOME": str(home)})
    return result.exit_code, result.stdout, result.stderr


def test_a_created_key_is_printed_once_and_stored_as_a_hash(tmp_path: Path) -> None:
    code, out, err = run(tmp_path, "--tenant", "acme", "--agent", "planner")
    assert code == 0, err
    key = out.strip()
    assert key.startswith(PREFIX) and "\n" not in key
    assert "tenant 'acme', agent 'planner'" in err and key not in err
    stored = b"".join(f.read_bytes() for f in tmp_path.glob("keys.db*"))  # with the WAL
    assert stored and key.encode() not in stored and key[len(PREFIX) :].encode() not in stored
    keys = SqliteKeyStore(tmp_path / "keys.db")
    try:
        who = keys.verify(key)
        assert who is not None and (who.tenant, who.agent_id) == ("acme", "planner")
    finally:
        keys.close()


def test_a_bad_tenant_is_one_line_and_exit_code_2(tmp_path: Path) -> None:
    code, out, err = run(tmp_path, "--tenant", " ")
    assert code == 2 and out == ""
    assert err.startswith("error: ") and err.count("\n") == 1


def keys(home: Path, *args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, ["keys", *args], env={"JIYI_HOME": str(home)})
    return result.exit_code, result.stdout, result.stderr


def test_list_revoke_and_rotate_by_key_id(tmp_path: Path) -> None:
    _, admin_key, _ = run(tmp_path, "--tenant", "ops", "--admin", "--expires", "30d")
    _, plain_key, _ = run(tmp_path, "--tenant", "acme", "--agent", "planner")
    code, out, err = keys(tmp_path, "list", "--json")
    assert code == 0, err
    listed = {k["tenant"]: k for k in json.loads(out)}
    assert listed["ops"]["admin"] is True and listed["acme"]["agent_id"] == "planner"
    expires = datetime.fromisoformat(listed["ops"]["expires_at"])
    assert timedelta(days=29) < expires - datetime.now(UTC) <= timedelta(days=30)
    assert admin_key.strip() not in out and plain_key.strip() not in out
    code, table, _ = keys(tmp_path, "list", "--tenant", "acme")
    assert code == 0 and listed["acme"]["key_id"] in table and "active" in table
    assert listed["ops"]["key_id"] not in table

    code, out, err = keys(tmp_path, "rotate", listed["acme"]["key_id"])
    assert code == 0, err
    successor = out.strip()
    assert successor.startswith(PREFIX) and "agent 'planner'" in err
    store = SqliteKeyStore(tmp_path / "keys.db")
    try:
        assert store.verify(plain_key.strip()) is None
        who = store.verify(successor)
        assert who is not None and (who.tenant, who.agent_id) == ("acme", "planner")
        code, _, err = keys(tmp_path, "revoke", who.key_id)
        assert code == 0 and who.key_id in err
        assert store.verify(successor) is None
    finally:
        store.close()
    code, table, _ = keys(tmp_path, "list", "--tenant", "acme")
    assert table.count("revoked") == 2


def test_unknown_ids_and_bad_expiries_are_one_line_errors(tmp_path: Path) -> None:
    for args in (
        ("revoke", "0123456789ab"),
        ("rotate", "0123456789ab"),
        ("create", "--tenant", "acme", "--expires", "soon"),
        ("create", "--tenant", "acme", "--expires", "0d"),
        ("create", "--tenant", "acme", "--expires", "2020-01-01"),
        ("create", "--tenant", "acme", "--agent", "bot", "--admin"),
    ):
        code, out, err = keys(tmp_path, *args)
        assert code == 2 and out == "", args
        assert err.startswith("error: ") and err.count("\n") == 1, (args, err)
