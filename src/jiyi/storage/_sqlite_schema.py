"""SQLite schema of :class:`~jiyi.storage.sqlite.SqliteMemoryStore`: the current tables, the
migrations that bring a file written by an older jiyi up to :data:`SCHEMA_VERSION`
(``PRAGMA user_version``), and :func:`create_or_migrate`, which a store runs on opening.
PostgreSQL's counterpart is ``_pg_schema.py``."""

from __future__ import annotations

import re
import sqlite3

from jiyi.storage._rows import COLUMNS

SCHEMA_VERSION = 9
SCHEMA = """
CREATE TABLE IF NOT EXISTS memories (
    pk INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    tenant TEXT NOT NULL, user_id TEXT NOT NULL, agent_id TEXT,
    kind TEXT NOT NULL, topic TEXT, content TEXT NOT NULL,
    importance REAL NOT NULL, confidence REAL NOT NULL, origin TEXT NOT NULL,
    source_message_ids TEXT NOT NULL, session_id TEXT, quote TEXT,
    created_at TEXT NOT NULL, observed_at TEXT NOT NULL, valid_from TEXT, valid_to TEXT,
    last_accessed_at TEXT, access_count INTEGER NOT NULL DEFAULT 0, expires_at TEXT,
    status TEXT NOT NULL, superseded_by TEXT, version INTEGER NOT NULL, metadata TEXT NOT NULL,
    value TEXT,
    batch TEXT, position INTEGER, role TEXT, speaker TEXT, extracted INTEGER, supersedes TEXT,
    derived INTEGER NOT NULL DEFAULT 0, sources TEXT NOT NULL DEFAULT '[]',
    reinforced_at TEXT, archived_at TEXT, confidence_at TEXT,
    goal_status TEXT, target_date TEXT
);
CREATE INDEX IF NOT EXISTS ix_memories_scope ON memories(tenant, user_id, status, kind);
CREATE INDEX IF NOT EXISTS ix_memories_topic ON memories(tenant, user_id, topic);
CREATE VIRTUAL TABLE IF NOT EXISTS memory_fts USING fts5(
    scope, tokens, tokenize = 'porter unicode61 remove_diacritics 2'
);
CREATE TABLE IF NOT EXISTS vectors (
    pk INTEGER PRIMARY KEY REFERENCES memories(pk) ON DELETE CASCADE,
    dim INTEGER NOT NULL, vec BLOB NOT NULL, embedder TEXT
);
CREATE TABLE IF NOT EXISTS history (
    hid INTEGER PRIMARY KEY,
    tenant TEXT NOT NULL, user_id TEXT NOT NULL, memory_id TEXT NOT NULL,
    action TEXT NOT NULL, at TEXT NOT NULL, content TEXT, content_hash TEXT NOT NULL,
    version INTEGER NOT NULL, related_id TEXT, reason TEXT
);
CREATE INDEX IF NOT EXISTS ix_history_memory ON history(tenant, user_id, memory_id);
CREATE TABLE IF NOT EXISTS messages_seen (
    tenant TEXT NOT NULL, user_id TEXT NOT NULL, message_id TEXT NOT NULL,
    PRIMARY KEY (tenant, user_id, message_id)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS scope_versions (
    tenant TEXT NOT NULL, user_id TEXT NOT NULL, version INTEGER NOT NULL,
    PRIMARY KEY (tenant, user_id)
);
CREATE TABLE IF NOT EXISTS tasks (
    tenant TEXT NOT NULL, user_id TEXT NOT NULL, task_key TEXT NOT NULL,
    state TEXT NOT NULL, status TEXT NOT NULL, version INTEGER NOT NULL,
    created_at TEXT NOT NULL, updated_at TEXT NOT NULL, expires_at TEXT,
    PRIMARY KEY (tenant, user_id, task_key)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS memory_switches (
    tenant TEXT NOT NULL, user_id TEXT NOT NULL, memory TEXT NOT NULL,
    changed_at TEXT NOT NULL, changed_by TEXT NOT NULL,
    PRIMARY KEY (tenant, user_id)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS memory_switch_log (
    id INTEGER PRIMARY KEY,
    tenant TEXT NOT NULL, user_id TEXT NOT NULL, at TEXT NOT NULL,
    before TEXT NOT NULL, after TEXT NOT NULL, actor TEXT NOT NULL, via TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS ix_memory_switch_log_user ON memory_switch_log(tenant, user_id, id);
CREATE TABLE IF NOT EXISTS profile_overrides (
    id INTEGER PRIMARY KEY,
    tenant TEXT NOT NULL, user_id TEXT NOT NULL, field TEXT NOT NULL, value TEXT,
    set_at TEXT NOT NULL, set_by TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS ix_profile_overrides_user ON profile_overrides(tenant, user_id, id);
CREATE TABLE IF NOT EXISTS aliases (
    tenant TEXT NOT NULL, kind TEXT NOT NULL, digest TEXT NOT NULL, user_id TEXT NOT NULL,
    hint TEXT NOT NULL, created_at TEXT NOT NULL,
    PRIMARY KEY (tenant, kind, digest)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS ix_aliases_user ON aliases(tenant, user_id);
CREATE TABLE IF NOT EXISTS identity_log (
    id INTEGER PRIMARY KEY,
    tenant TEXT NOT NULL, user_id TEXT NOT NULL, at TEXT NOT NULL, action TEXT NOT NULL,
    actor TEXT NOT NULL, session_id TEXT, other_user TEXT, detail TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS ix_identity_log_user ON identity_log(tenant, user_id, id);
CREATE TABLE IF NOT EXISTS audit_log (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    tenant TEXT NOT NULL, user_id TEXT NOT NULL, at TEXT NOT NULL, actor TEXT NOT NULL,
    action TEXT NOT NULL, n INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS ix_audit_log_user ON audit_log(tenant, user_id, id);
CREATE INDEX IF NOT EXISTS ix_audit_log_at ON audit_log(tenant, at);
CREATE TABLE IF NOT EXISTS identity_sessions (
    tenant TEXT NOT NULL, user_id TEXT NOT NULL, session_id TEXT NOT NULL,
    flagged_at TEXT NOT NULL, slots TEXT NOT NULL, confirmed_at TEXT, confirmed_by TEXT,
    PRIMARY KEY (tenant, user_id, session_id)
) WITHOUT ROWID;
"""
# Applied in order to files written by an older version (``PRAGMA user_version``).
MIGRATIONS: dict[int, list[str]] = {
    2: ["ALTER TABLE memories ADD COLUMN value TEXT"],
    # Provenance moves out of metadata into typed columns, filled from the old keys.
    3: [
        "ALTER TABLE memories ADD COLUMN batch TEXT",
        "ALTER TABLE memories ADD COLUMN position INTEGER",
        "ALTER TABLE memories ADD COLUMN role TEXT",
        "ALTER TABLE memories ADD COLUMN speaker TEXT",
        "ALTER TABLE memories ADD COLUMN extracted INTEGER",
        "ALTER TABLE memories ADD COLUMN supersedes TEXT",
        "ALTER TABLE memories ADD COLUMN derived INTEGER NOT NULL DEFAULT 0",
        "ALTER TABLE memories ADD COLUMN sources TEXT NOT NULL DEFAULT '[]'",
        "UPDATE memories SET batch = json_extract(metadata, '$.batch'), "
        "position = json_extract(metadata, '$.pos'), role = json_extract(metadata, '$.role'), "
        "speaker = json_extract(metadata, '$.name'), "
        "extracted = json_extract(metadata, '$.extracted'), "
        "supersedes = json_extract(metadata, '$.supersedes'), "
        "derived = coalesce(json_extract(metadata, '$.derived'), 0), "
        "sources = coalesce(json_extract(metadata, '$.sources'), '[]')",
    ],
    # Lifecycle (jiyi.core.lifecycle): reinforcement, archive and confidence clocks.
    4: [
        "ALTER TABLE memories ADD COLUMN reinforced_at TEXT",
        "ALTER TABLE memories ADD COLUMN archived_at TEXT",
        "ALTER TABLE memories ADD COLUMN confidence_at TEXT",
    ],
    # 5: the user tier's tables (tasks, memory_switches, memory_switch_log) — new tables
    # only, which SCHEMA's CREATE TABLE IF NOT EXISTS makes in every file it opens.
    5: [],
    # 6: goals with a lifecycle (two columns) and the profile's override table
    # (profile_overrides, created by SCHEMA like every new table).
    6: [
        "ALTER TABLE memories ADD COLUMN goal_status TEXT",
        "ALTER TABLE memories ADD COLUMN target_date TEXT",
    ],
    # 7: identity (aliases, identity_log, identity_sessions) — new tables only, like 5.
    7: [],
    # 8: every vector records the embedder that made it (NULL: written before this; the
    # embedding backfill, ``jiyi.pipeline.backfill``, re-embeds and labels those).
    8: ["ALTER TABLE vectors ADD COLUMN embedder TEXT"],
    # 9: the audit log (audit_log, jiyi.core.audit) — a new table only, like 5.
    9: [],
}


def create_or_migrate(db: sqlite3.Connection) -> None:
    """Create what a file lacks (every table is ``IF NOT EXISTS``) and migrate an older one."""
    db.executescript(SCHEMA)
    migrate(db)
    # After the migration: an older file only has the column once it ran.
    db.execute("CREATE INDEX IF NOT EXISTS ix_memories_batch ON memories(tenant, user_id, batch)")


def migrate(db: sqlite3.Connection) -> None:
    """Bring a file written by an older jiyi up to SCHEMA_VERSION. A new file already has
    every column (CREATE TABLE is current), so only the version number is set."""
    current = db.execute("PRAGMA user_version").fetchone()[0]
    if current >= SCHEMA_VERSION:
        return
    columns = {r[1] for r in db.execute("PRAGMA table_info(memories)")}
    fresh = current == 0 and set(COLUMNS) <= columns  # CREATE TABLE was already current
    tables = {
        t: {r[1] for r in db.execute(f"PRAGMA table_info({t})")} for t in ("memories", "vectors")
    }
    db.execute("BEGIN IMMEDIATE")
    try:
        for version in sorted(v for v in MIGRATIONS if v > current and not fresh):
            for statement in MIGRATIONS[version]:
                added = re.match(r"ALTER TABLE (\w+) ADD COLUMN (\w+)", statement)
                if added is None or added.group(2) not in tables[added.group(1)]:
                    db.execute(statement)
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
    except sqlite3.Error:
        db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")
