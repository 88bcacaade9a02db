"""Aliases are PII: after linking, resolving, refusing, unlinking and merging, the alias
text is in no byte of the SQLite file (nor its WAL) and in no log record — only keyed
digests and masked hints are kept. And the same alias in another tenant is another alias:
tenant B cannot resolve tenant A's."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from jiyi import Memory
from jiyi.config import MemoryConfig
from jiyi.embedders import HashingEmbedder
from jiyi.errors import AliasTakenError, InvalidInputError, NotFoundError

PHONE = "+86 139-2468-1357"
SECRETS = ("13924681357", "3924681", "zhao.liu@example.org", "oUpF8uMuAJO_M2pxb1Q9zNjWeS6o")


def test_no_alias_text_in_the_file_or_the_logs(
    tmp_path: Path,
    clock,
    caplog: pytest.LogCaptureFixture,  # type: ignore[no-untyped-def]
) -> None:
    caplog.set_level(logging.DEBUG)
    path = tmp_path / "jiyi.db"
    cfg = MemoryConfig(alias_secret="s3cret", tenant="acme")
    mem = Memory(path, embedder=HashingEmbedder(), clock=clock, config=cfg)
    mem.add("我喜欢喝乌龙茶", user_id="u1")
    mem.link("u1", PHONE, kind="phone")
    mem.link("u1", "Zhao.Liu@Example.org", kind="email")
    mem.link("u2", "oUpF8uMuAJO_M2pxb1Q9zNjWeS6o", kind="wechat_openid")
    assert mem.resolve_user("alias:phone:+8613924681357") == "u1"
    assert [m.user_id for m in mem.list(user_id="alias:email:zhao.liu@example.org")] == ["u1"]
    with pytest.raises(AliasTakenError) as taken:
        mem.link("u2", PHONE, kind="phone")
    with pytest.raises(NotFoundError) as unknown:
        mem.resolve_user("alias:phone:+8613924681358")
    with pytest.raises(InvalidInputError) as bad:
        mem.link("u1", "call 13924681357 now", kind="phone")
    mem.merge_users("u2", "u1")
    mem.unlink("u1", "zhao.liu@example.org", kind="email")
    hints = {a.kind.value: a.hint for a in mem.aliases("u1")}
    assert hints == {"phone": "**********1357", "wechat_openid": "***S6o"}
    mem.export("u1")
    messages = [str(e.value) for e in (taken, unknown, bad)]
    mem.close()
    raw = b"".join(p.read_bytes() for p in tmp_path.iterdir() if p.is_file())
    logged = "\n".join(r.getMessage() for r in caplog.records)
    for secret in SECRETS:
        assert secret.encode() not in raw, secret
        assert secret.lower().encode() not in raw, secret
        assert secret not in logged, secret
        assert all(secret not in m for m in messages), secret


def test_another_tenant_cannot_resolve_or_even_detect_an_alias(tmp_path: Path, clock) -> None:  # type: ignore[no-untyped-def]
    a = Memory(
        tmp_path / "jiyi.db",
        embedder=HashingEmbedder(),
        clock=clock,
        config=MemoryConfig(alias_secret="s3cret", tenant="acme"),
    )
    b = Memory.on(a.engine, "globex")
    a.link("alice", PHONE, kind="phone")
    with pytest.raises(NotFoundError):
        b.resolve_user("alias:phone:" + PHONE)
    # Linking it in tenant B works (no 409 that would reveal tenant A holds it).
    assert b.link("mallory", PHONE, kind="phone").digest != a.aliases("alice")[0].digest
    assert a.resolve_user("alias:phone:" + PHONE) == "alice"
    assert b.resolve_user("alias:phone:" + PHONE) == "mallory"
    a.close()


def test_aliases_need_a_secret(mem: Memory) -> None:
    with pytest.raises(InvalidInputError) as err:
        mem.link("u1", PHONE, kind="phone")
    assert err.value.field == "alias_secret"
    with pytest.raises(InvalidInputError) as kind:
        mem.link("u1", PHONE, kind="fax")
    assert kind.value.field == "kind"
    with pytest.raises(InvalidInputError) as tilde:
        mem.add("hi", user_id="~")
    assert tilde.value.field == "user_id"
