"""API keys of the REST service: the :class:`KeyStore` port and its two backends.

- ``base.py``: the port (what every backend guarantees), :class:`Principal` and the hashing;
- ``sql.py``: the one implementation, on SQLite (``$JIYI_HOME/keys.db``, one node) or on
  PostgreSQL (a table beside the memories, shared by every node of a deployment) through
  the same two-dialect database layer the durable sessions use, so the backends cannot
  drift.

Which backend a deployment gets is decided in ``jiyi.backends.open_key_store``.
"""

from jiyi.keys.base import PREFIX, KeyRecord, KeyStore, Principal
from jiyi.keys.sql import PostgresKeyStore, SqliteKeyStore, SqlKeyStore, copy_keys

__all__ = [
    "PREFIX",
    "KeyRecord",
    "KeyStore",
    "PostgresKeyStore",
    "Principal",
    "SqlKeyStore",
    "SqliteKeyStore",
    "copy_keys",
]
