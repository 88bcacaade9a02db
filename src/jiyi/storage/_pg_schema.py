"""PostgreSQL schema of :class:`~jiyi.storage.postgres.PostgresMemoryStore`: versioned
migrations, the runner that applies them, and the one vector dimension of a schema."""

from __future__ import annotations

import logging
from typing import Any

import psycopg

from jiyi.storage._sql import Dialect
from jiyi.storage._vectors import check_dim

log = logging.getLogger(__name__)
Cursor = psycopg.Cursor[tuple[Any, ...]]
_MIGRATION_LOCK = "jiyi.migrations"

# Versioned migrations; ``{s}`` is the quoted schema. Append, never edit an applied one.
MIGRATIONS: list[tuple[int, str, str]] = [
    (
        1,
        "memories, history, keyword config, row-level security",
        """
CREATE TEXT SEARCH DICTIONARY {s}.jiyi_en_stem (TEMPLATE = snowball, Language = english);
CREATE TEXT SEARCH CONFIGURATION {s}.jiyi_text (COPY = pg_catalog.simple);
ALTER TEXT SEARCH CONFIGURATION {s}.jiyi_text
    ALTER MAPPING FOR asciiword, asciihword, hword_asciipart WITH {s}.jiyi_en_stem;
CREATE TABLE {s}.memories (
    pk bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    id text NOT NULL UNIQUE,
    tenant text NOT NULL, user_id text NOT NULL, agent_id text,
    kind text NOT NULL, topic text, content text NOT NULL,
    importance double precision NOT NULL, confidence double precision NOT NULL,
    origin text NOT NULL, source_message_ids jsonb NOT NULL, session_id text, quote text,
    created_at timestamptz NOT NULL, observed_at timestamptz NOT NULL,
    valid_from timestamptz, valid_to timestamptz, last_accessed_at timestamptz,
    access_count integer NOT NULL DEFAULT 0, expires_at timestamptz,
    status text NOT NULL, superseded_by text, version integer NOT NULL, metadata jsonb NOT NULL,
    keywords text NOT NULL DEFAULT '',
    tsv tsvector GENERATED ALWAYS AS (to_tsvector('{s}.jiyi_text'::regconfig, keywords)) STORED,
    embedding vector
);
CREATE INDEX ix_memories_scope ON {s}.memories (tenant, user_id, status, kind);
CREATE INDEX ix_memories_topic ON {s}.memories (tenant, user_id, topic);
CREATE INDEX ix_memories_tsv ON {s}.memories USING gin (tsv);
CREATE TABLE {s}.history (
    hid bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    tenant text NOT NULL, user_id text NOT NULL, memory_id text NOT NULL,
    action text NOT NULL, at timestamptz NOT NULL, content text, content_hash text NOT NULL,
    version integer NOT NULL, related_id text, reason text
);
CREATE INDEX ix_history_memory ON {s}.history (tenant, memory_id);
CREATE INDEX ix_history_user ON {s}.history (tenant, user_id);
ALTER TABLE {s}.memories ENABLE ROW LEVEL SECURITY;
ALTER TABLE {s}.memories FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON {s}.memories
    USING (tenant = current_setting('jiyi.tenant', true))
    WITH CHECK (tenant = current_setting('jiyi.tenant', true));
ALTER TABLE {s}.history ENABLE ROW LEVEL SECURITY;
ALTER TABLE {s}.history FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON {s}.history
    USING (tenant = current_setting('jiyi.tenant', true))
    WITH CHECK (tenant = current_setting('jiyi.tenant', true));
""",
    ),
    (
        2,
        "slot values",
        "ALTER TABLE {s}.memories ADD COLUMN IF NOT EXISTS value text;",
    ),
    (
        3,
        "message ids already consumed (idempotent writes)",
        """
CREATE TABLE {s}.messages_seen (
    tenant text NOT NULL, user_id text NOT NULL, message_id text NOT NULL,
    PRIMARY KEY (tenant, user_id, message_id)
);
ALTER TABLE {s}.messages_seen ENABLE ROW LEVEL SECURITY;
ALTER TABLE {s}.messages_seen FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON {s}.messages_seen
    USING (tenant = current_setting('jiyi.tenant', true))
    WITH CHECK (tenant = current_setting('jiyi.tenant', true));
""",
    ),
    (
        4,
        "durable sessions and idempotency keys (jiyi.sessions.sql, server.idempotency)",
        # No row-level security here: the flusher sweeps and claims across tenants (like
        # the work queue); every per-session statement filters tenant explicitly.
        """
CREATE TABLE {s}.session_live (
    tenant text NOT NULL, session_id text NOT NULL, transcript text NOT NULL,
    user_id text NOT NULL, agent_id text, started_at timestamptz NOT NULL,
    last_active_at timestamptz NOT NULL, expires_at timestamptz NOT NULL,
    total integer NOT NULL,
    PRIMARY KEY (tenant, session_id)
);
CREATE INDEX ix_session_live_expiry ON {s}.session_live (expires_at);
CREATE INDEX ix_session_live_user ON {s}.session_live (tenant, user_id);
CREATE TABLE {s}.session_messages (
    transcript text NOT NULL, seq integer NOT NULL, id text NOT NULL, role text NOT NULL,
    content text NOT NULL, name text, at timestamptz NOT NULL,
    PRIMARY KEY (transcript, seq)
);
CREATE TABLE {s}.session_flushes (
    flush_id text PRIMARY KEY, tenant text NOT NULL, session_id text NOT NULL,
    user_id text NOT NULL, agent_id text, reason text NOT NULL,
    attempts integer NOT NULL DEFAULT 0, ended_at timestamptz NOT NULL,
    due_at timestamptz NOT NULL
);
CREATE INDEX ix_session_flushes_due ON {s}.session_flushes (due_at);
CREATE INDEX ix_session_flushes_user ON {s}.session_flushes (tenant, user_id);
CREATE TABLE {s}.idempotency_keys (
    tenant text NOT NULL, key_hash text NOT NULL, fingerprint text NOT NULL,
    created_at timestamptz NOT NULL,
    PRIMARY KEY (tenant, key_hash)
);
""",
    ),
    (
        5,
        "provenance columns (batch, position, role, speaker, extracted, supersedes, derived, "
        "sources) filled from metadata",
        """
ALTER TABLE {s}.memories ADD COLUMN IF NOT EXISTS batch text;
ALTER TABLE {s}.memories ADD COLUMN IF NOT EXISTS position integer;
ALTER TABLE {s}.memories ADD COLUMN IF NOT EXISTS role text;
ALTER TABLE {s}.memories ADD COLUMN IF NOT EXISTS speaker text;
ALTER TABLE {s}.memories ADD COLUMN IF NOT EXISTS extracted boolean;
ALTER TABLE {s}.memories ADD COLUMN IF NOT EXISTS supersedes text;
ALTER TABLE {s}.memories ADD COLUMN IF NOT EXISTS derived boolean NOT NULL DEFAULT false;
ALTER TABLE {s}.memories ADD COLUMN IF NOT EXISTS sources jsonb NOT NULL DEFAULT '[]';
UPDATE {s}.memories SET batch = metadata->>'batch', position = (metadata->>'pos')::integer,
    role = metadata->>'role', speaker = metadata->>'name',
    extracted = (metadata->>'extracted')::boolean, supersedes = metadata->>'supersedes',
    derived = coalesce((metadata->>'derived')::boolean, false),
    sources = coalesce(metadata->'sources', '[]'::jsonb);
CREATE INDEX IF NOT EXISTS ix_memories_batch ON {s}.memories (tenant, user_id, batch);
""",
    ),
    (
        6,
        "lifecycle columns (reinforced_at, archived_at, confidence_at)",
        """
ALTER TABLE {s}.memories ADD COLUMN IF NOT EXISTS reinforced_at timestamptz;
ALTER TABLE {s}.memories ADD COLUMN IF NOT EXISTS archived_at timestamptz;
ALTER TABLE {s}.memories ADD COLUMN IF NOT EXISTS confidence_at timestamptz;
""",
    ),
    (
        7,
        "user tier: task state",
        """
CREATE TABLE {s}.tasks (
    tenant text NOT NULL, user_id text NOT NULL, task_key text NOT NULL,
    state jsonb NOT NULL, status text NOT NULL, version integer NOT NULL,
    created_at timestamptz NOT NULL, updated_at timestamptz NOT NULL, expires_at timestamptz,
    PRIMARY KEY (tenant, user_id, task_key)
);
ALTER TABLE {s}.tasks ENABLE ROW LEVEL SECURITY;
ALTER TABLE {s}.tasks FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON {s}.tasks
    USING (tenant = current_setting('jiyi.tenant', true))
    WITH CHECK (tenant = current_setting('jiyi.tenant', true));
""",
    ),
    (
        8,
        "user tier: the memory switch and its change log",
        """
CREATE TABLE {s}.memory_switches (
    tenant text NOT NULL, user_id text NOT NULL, memory text NOT NULL,
    changed_at timestamptz NOT NULL, changed_by text NOT NULL,
    PRIMARY KEY (tenant, user_id)
);
CREATE TABLE {s}.memory_switch_log (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    tenant text NOT NULL, user_id text NOT NULL, at timestamptz NOT NULL,
    before text NOT NULL, after text NOT NULL, actor text NOT NULL, via text NOT NULL
);
CREATE INDEX ix_memory_switch_log_user ON {s}.memory_switch_log (tenant, user_id, id);
ALTER TABLE {s}.memory_switches ENABLE ROW LEVEL SECURITY;
ALTER TABLE {s}.memory_switches FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON {s}.memory_switches
    USING (tenant = current_setting('jiyi.tenant', true))
    WITH CHECK (tenant = current_setting('jiyi.tenant', true));
ALTER TABLE {s}.memory_switch_log ENABLE ROW LEVEL SECURITY;
ALTER TABLE {s}.memory_switch_log FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON {s}.memory_switch_log
    USING (tenant = current_setting('jiyi.tenant', true))
    WITH CHECK (tenant = current_setting('jiyi.tenant', true));
""",
    ),
    (
        9,
        "goals with a lifecycle; the profile's overrides (user-set fields and their history)",
        """
ALTER TABLE {s}.memories ADD COLUMN IF NOT EXISTS goal_status text;
ALTER TABLE {s}.memories ADD COLUMN IF NOT EXISTS target_date timestamptz;
CREATE TABLE {s}.profile_overrides (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    tenant text NOT NULL, user_id text NOT NULL, field text NOT NULL, value text,
    set_at timestamptz NOT NULL, set_by text NOT NULL
);
CREATE INDEX ix_profile_overrides_user ON {s}.profile_overrides (tenant, user_id, id);
ALTER TABLE {s}.profile_overrides ENABLE ROW LEVEL SECURITY;
ALTER TABLE {s}.profile_overrides FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON {s}.profile_overrides
    USING (tenant = current_setting('jiyi.tenant', true))
    WITH CHECK (tenant = current_setting('jiyi.tenant', true));
""",
    ),
    (
        10,
        "identity: aliases (keyed digests), identity log, sessions flagged by the drift guard",
        """
CREATE TABLE {s}.aliases (
    tenant text NOT NULL, kind text NOT NULL, digest text NOT NULL, user_id text NOT NULL,
    hint text NOT NULL, created_at timestamptz NOT NULL,
    PRIMARY KEY (tenant, kind, digest)
);
CREATE INDEX ix_aliases_user ON {s}.aliases (tenant, user_id);
CREATE TABLE {s}.identity_log (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    tenant text NOT NULL, user_id text NOT NULL, at timestamptz NOT NULL, action text NOT NULL,
    actor text NOT NULL, session_id text, other_user text, detail jsonb NOT NULL
);
CREATE INDEX ix_identity_log_user ON {s}.identity_log (tenant, user_id, id);
CREATE TABLE {s}.identity_sessions (
    tenant text NOT NULL, user_id text NOT NULL, session_id text NOT NULL,
    flagged_at timestamptz NOT NULL, slots jsonb NOT NULL, confirmed_at timestamptz,
    confirmed_by text,
    PRIMARY KEY (tenant, user_id, session_id)
);
ALTER TABLE {s}.aliases ENABLE ROW LEVEL SECURITY;
ALTER TABLE {s}.aliases FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON {s}.aliases
    USING (tenant = current_setting('jiyi.tenant', true))
    WITH CHECK (tenant = current_setting('jiyi.tenant', true));
ALTER TABLE {s}.identity_log ENABLE ROW LEVEL SECURITY;
ALTER TABLE {s}.identity_log FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON {s}.identity_log
    USING (tenant = current_setting('jiyi.tenant', true))
    WITH CHECK (tenant = current_setting('jiyi.tenant', true));
ALTER TABLE {s}.identity_sessions ENABLE ROW LEVEL SECURITY;
ALTER TABLE {s}.identity_sessions FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON {s}.identity_sessions
    USING (tenant = current_setting('jiyi.tenant', true))
    WITH CHECK (tenant = current_setting('jiyi.tenant', true));
""",
    ),
    (
        11,
        "the embedder that made each vector (NULL: before this; the backfill labels them)",
        "ALTER TABLE {s}.memories ADD COLUMN IF NOT EXISTS embedder text;",
    ),
    (
        12,
        "the audit log: who read or changed a user's data, when, how many items (no content)",
        """
CREATE TABLE {s}.audit_log (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    tenant text NOT NULL, user_id text NOT NULL, at timestamptz NOT NULL, actor text NOT NULL,
    action text NOT NULL, n integer NOT NULL
);
CREATE INDEX ix_audit_log_user ON {s}.audit_log (tenant, user_id, id);
CREATE INDEX ix_audit_log_at ON {s}.audit_log (tenant, at);
ALTER TABLE {s}.audit_log ENABLE ROW LEVEL SECURITY;
ALTER TABLE {s}.audit_log FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON {s}.audit_log
    USING (tenant = current_setting('jiyi.tenant', true))
    WITH CHECK (tenant = current_setting('jiyi.tenant', true));
""",
    ),
]

#: The one vector index (public so bulk loaders can drop it and build it after the load).
HNSW_INDEX = (
    "CREATE INDEX IF NOT EXISTS ix_memories_embedding ON {s}.memories "
    "USING hnsw (embedding vector_cosine_ops)"
)


def migrate(cur: Cursor, d: Dialect, schema: str) -> None:
    """Apply pending migrations to ``schema`` inside the caller's transaction, under a
    cluster-wide advisory lock (concurrent starts wait for each other, then see the work
    done)."""
    cur.execute("SET LOCAL statement_timeout = 0")
    cur.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", (_MIGRATION_LOCK,))
    cur.execute("CREATE EXTENSION IF NOT EXISTS vector")
    cur.execute(f'CREATE SCHEMA IF NOT EXISTS "{schema}"')
    cur.execute(
        d.q(
            "CREATE TABLE IF NOT EXISTS {s}.schema_migrations (version integer PRIMARY KEY, "
            "name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())"
        )
    )
    cur.execute(d.q("SELECT version FROM {s}.schema_migrations"))
    done = {r[0] for r in cur.fetchall()}
    for version, name, ddl in MIGRATIONS:
        if version in done:
            continue
        log.info("migrating schema %s to version %d (%s)", schema, version, name)
        cur.execute(d.q(ddl))
        cur.execute(
            d.q("INSERT INTO {s}.schema_migrations (version, name) VALUES (?, ?)"),
            (version, name),
        )


def read_dim(cur: Cursor, d: Dialect) -> int | None:
    """The dimension the embedding column was given, or None before the first vector."""
    cur.execute(
        "SELECT atttypmod FROM pg_attribute WHERE attrelid = %s::regclass "
        "AND attname = 'embedding'",
        (f"{d.tables}memories",),
    )
    row = cur.fetchone()
    return int(row[0]) if row and row[0] > 0 else None


def fix_dim(cur: Cursor, d: Dialect, schema: str, dim: int, *, hnsw: bool) -> int:
    """Give the embedding column its dimension and HNSW index, once; later writers with
    another dimension are refused (their vectors would not be comparable)."""
    cur.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", (f"jiyi.dim.{schema}",))
    current = read_dim(cur, d)
    if current is None:
        cur.execute(d.q(f"ALTER TABLE {{s}}.memories ALTER COLUMN embedding TYPE vector({dim})"))
        if hnsw:
            cur.execute(d.q(HNSW_INDEX))
        current = dim
    check_dim(current, dim)
    return current
