"""``jiyi keys create`` on a SQLite deployment: the key is printed once on stdout, only its
hash lands in ``$JIYI_HOME/keys.db``, and a bad tenant is one line on stderr.

(The PostgreSQL deployment, where the key must work on every node, is
``tests/integration/test_server_keys.py``.)
"""

from __future__ import annotations

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
