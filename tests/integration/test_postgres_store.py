"""PostgreSQL-only guarantees: migrations, the fixed vector dimension, row-level security and
error translation. The shared behaviour is in tests/contract."""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from datetime import UTC, datetime

import numpy as np
import pytest

from jiyi.core.ids import new_id
from jiyi.core.models import MemoryItem, MemoryKind, Scope
from jiyi.core.ports import ChangeSet, Indexed, SearchFilter
from jiyi.errors import InvalidInputError, StorageUnavailableError

pytestmark = pytest.mark.integration
DSN = os.environ.get("JIYI_TEST_PG_DSN", "")
if not DSN:
    pytest.skip(
        "PostgreSQL not configured: run `scripts/services.sh up` and export JIYI_TEST_PG_DSN",
        allow_module_level=True,
    )
psycopg = pytest.importorskip("psycopg", reason="install the 'postgres' extra")
from jiyi.storage._pg_schema import MIGRATIONS  # noqa: E402
from jiyi.storage.postgres import PostgresMemoryStore  # noqa: E402

T0 = datetime(2026, 11, 1, tzinfo=UTC)
ALICE = Scope(tenant="t1", user_id="alice")
EVE = Scope(tenant="t2", user_id="eve")


def item(scope: Scope, content: str = "喜欢 咖啡") -> MemoryItem:
    return MemoryItem(
        id=new_id(),
        tenant=scope.tenant,
        user_id=scope.user_id,
        kind=MemoryKind.FACT,
        content=content,
        created_at=T0,
        observed_at=T0,
    )


def vec(dim: int, seed: int = 0) -> np.ndarray:
    v = np.random.default_rng(seed).standard_normal(dim).astype(np.float32)
    return v / np.linalg.norm(v)


def put(store: PostgresMemoryStore, scope: Scope, m: MemoryItem, v: np.ndarray | None) -> None:
    store.apply(scope, ChangeSet(upserts=[Indexed(m, m.content, v)]))


@pytest.fixture
def schema(request: pytest.FixtureRequest) -> Iterator[str]:
    name = f"it_{os.getpid()}_{abs(hash(request.node.name)) % 10**6}"
    yield name
    with psycopg.connect(DSN, autocommit=True) as conn:
        conn.execute(f'DROP SCHEMA IF EXISTS "{name}" CASCADE')


def test_migrations_are_versioned_idempotent_and_safe_to_run_concurrently(schema: str) -> None:
    stores: list[PostgresMemoryStore] = []
    errors: list[BaseException] = []

    def start() -> None:
        try:
            stores.append(PostgresMemoryStore(DSN, schema=schema, pool_size=1))
        except BaseException as exc:  # collected, asserted below
            errors.append(exc)

    threads = [threading.Thread(target=start) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == [] and len(stores) == 4
    m = item(ALICE)
    put(stores[0], ALICE, m, vec(8))
    for s in stores:
        s.close()
    again = PostgresMemoryStore(DSN, schema=schema)  # a restart keeps data, migrates nothing
    assert again.get("t1", m.id) is not None
    with psycopg.connect(DSN) as conn:
        applied = conn.execute(f'SELECT version FROM "{schema}".schema_migrations').fetchall()
        assert applied == [(v,) for v, _, _ in MIGRATIONS]  # each exactly once
    again.close()


def test_the_first_vector_fixes_the_dimension_and_builds_the_hnsw_index(schema: str) -> None:
    store = PostgresMemoryStore(DSN, schema=schema)
    try:
        assert store.vector_search(ALICE, vec(8), SearchFilter(), 5) == []  # nothing yet
        put(store, ALICE, item(ALICE), vec(8))
        with psycopg.connect(DSN) as conn:
            idx = conn.execute(
                "SELECT indexdef FROM pg_indexes WHERE schemaname = %s AND indexname = %s",
                (schema, "ix_memories_embedding"),
            ).fetchone()
        assert idx is not None and "hnsw" in idx[0] and "vector_cosine_ops" in idx[0]
        other = item(ALICE, "另一个")
        with pytest.raises(InvalidInputError):
            put(store, ALICE, other, vec(16))
        assert store.get("t1", other.id) is None
        with pytest.raises(InvalidInputError):
            store.vector_search(ALICE, vec(16), SearchFilter(), 5)
    finally:
        store.close()
    with pytest.raises(InvalidInputError):  # a restart with another model is refused too
        PostgresMemoryStore(DSN, schema=schema, dim=16)


def test_an_id_owned_by_another_user_is_refused_not_overwritten(schema: str) -> None:
    store = PostgresMemoryStore(DSN, schema=schema)
    try:
        m = item(ALICE, "alice 的秘密")
        put(store, ALICE, m, vec(8))
        stolen = m.model_copy(update={"tenant": "t2", "user_id": "eve", "content": "改写"})
        with pytest.raises(InvalidInputError):
            put(store, EVE, stolen, vec(8))
        got = store.get("t1", m.id)
        assert got is not None and got.content == "alice 的秘密"
        assert store.get("t2", m.id) is None
    finally:
        store.close()


def test_keyword_queries_treat_tsquery_syntax_and_quotes_as_text(schema: str) -> None:
    store = PostgresMemoryStore(DSN, schema=schema)
    try:
        m = item(ALICE, "it's 咖啡 & tea")
        store.apply(ALICE, ChangeSet(upserts=[Indexed(m, "it s 咖啡 tea", None)]))
        nasty = ["'", "\\", "a & b | !c:*", "咖啡')) OR 1=1 --", "(", "<->", ":*", "tea"]
        hits = store.keyword_search(ALICE, nasty, SearchFilter(), 5)
        assert [h[0] for h in hits] == [m.id]
        assert store.keyword_search(ALICE, ["", "  ", "!"], SearchFilter(), 5) == []
    finally:
        store.close()


def test_bad_data_is_invalid_input_and_nothing_is_written(schema: str) -> None:
    store = PostgresMemoryStore(DSN, schema=schema)
    try:
        good, bad = item(ALICE, "好的"), item(ALICE, "含有\x00空字符")
        with pytest.raises(InvalidInputError):
            store.apply(
                ALICE,
                ChangeSet(upserts=[Indexed(good, "好的", vec(8)), Indexed(bad, "坏", vec(8))]),
            )
        assert store.get("t1", good.id) is None
        with pytest.raises(InvalidInputError):
            put(store, ALICE, item(ALICE), np.array([np.nan] * 8, dtype=np.float32))
    finally:
        store.close()


def test_an_unreachable_server_is_storage_unavailable() -> None:
    with pytest.raises(StorageUnavailableError):
        PostgresMemoryStore("postgresql://postgres@127.0.0.1:1/none?connect_timeout=2")


def test_a_locked_table_times_out_as_storage_unavailable(schema: str) -> None:
    store = PostgresMemoryStore(DSN, schema=schema, statement_timeout_ms=300)
    try:
        with psycopg.connect(DSN) as locker:
            locker.execute(f'LOCK TABLE "{schema}".memories IN ACCESS EXCLUSIVE MODE')
            with pytest.raises(StorageUnavailableError, match="timed out"):
                store.list(ALICE, SearchFilter())
            store.touch(ALICE, {"x": 1}, T0)  # best effort: logs, never raises
    finally:
        store.close()


@pytest.fixture
def app_role(schema: str) -> Iterator[str]:
    """A plain login role (no superuser, no BYPASSRLS) that owns the store's schema."""
    role = f"jiyi_app_{os.getpid()}"
    with psycopg.connect(DSN, autocommit=True) as conn:
        db = conn.info.dbname
        conn.execute(f"DROP ROLE IF EXISTS {role}")
        conn.execute(f"CREATE ROLE {role} LOGIN NOSUPERUSER NOBYPASSRLS")
        conn.execute(f'GRANT CREATE ON DATABASE "{db}" TO {role}')
    yield role
    with psycopg.connect(DSN, autocommit=True) as conn:
        conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
        conn.execute(f"DROP OWNED BY {role}")
        conn.execute(f"DROP ROLE {role}")


def test_row_level_security_binds_even_the_owning_role(schema: str, app_role: str) -> None:
    dsn = psycopg.conninfo.make_conninfo(DSN, user=app_role)
    store = PostgresMemoryStore(dsn, schema=schema)
    try:
        mine, theirs = item(ALICE, "alice 咖啡"), item(EVE, "eve 咖啡")
        put(store, ALICE, mine, vec(8, 1))
        put(store, EVE, theirs, vec(8, 2))
        assert [m.id for m in store.list(ALICE, SearchFilter())] == [mine.id]
        assert store.get("t2", theirs.id) is not None
        with psycopg.connect(dsn) as conn:
            count = f'SELECT count(*) FROM "{schema}".memories'
            assert conn.execute(count).fetchone() == (0,)  # no tenant set: nothing visible
            conn.execute("SELECT set_config('jiyi.tenant', 't1', true)")
            # Even a query that forgets the tenant filter sees one tenant only.
            assert conn.execute(f'SELECT id FROM "{schema}".memories').fetchall() == [(mine.id,)]
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                conn.execute(
                    f'UPDATE "{schema}".memories SET tenant = %s WHERE id = %s', ("t2", mine.id)
                )
    finally:
        store.close()


def test_row_level_security_still_refuses_another_tenants_id(schema: str, app_role: str) -> None:
    """Under RLS the write cannot even see the other tenant's row; taking over its id must
    still fail as invalid input (not as an outage), with nothing written."""
    dsn = psycopg.conninfo.make_conninfo(DSN, user=app_role)
    store = PostgresMemoryStore(dsn, schema=schema)
    try:
        original = item(ALICE, "alice 的秘密")
        put(store, ALICE, original, vec(8, 1))
        own = item(EVE, "eve 自己的")
        stolen = original.model_copy(update={"tenant": "t2", "user_id": "eve", "content": "改写"})
        with pytest.raises(InvalidInputError) as err:
            store.apply(
                EVE,
                ChangeSet(
                    upserts=[Indexed(own, own.content, vec(8, 2)), Indexed(stolen, "改写", vec(8))]
                ),
            )
        assert err.value.field == "id"
        got = store.get("t1", original.id)
        assert got is not None and got.content == "alice 的秘密"
        assert store.get("t2", own.id) is None
    finally:
        store.close()
