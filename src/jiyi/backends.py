"""Adapters built from :class:`~jiyi.settings.Settings` — the one place that turns
``JIYI_STORE`` / ``JIYI_REDIS`` / ``JIYI_QUEUE`` into objects. Only entry points (``jiyi
serve``, ``jiyi worker``, ``create_app``) call these; everything below them receives the
objects. Optional drivers are imported here, lazily, so the embedded default needs none.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import TYPE_CHECKING

from jiyi.context_cache import ContextCache, InProcessContextCache
from jiyi.core.ports import Embedder, Extractor, MemoryStore
from jiyi.errors import MissingDependencyError
from jiyi.queue.base import WorkQueue
from jiyi.sessions.base import SessionStore
from jiyi.sessions.memory import InMemorySessionStore
from jiyi.settings import Settings

if TYPE_CHECKING:
    from jiyi.llm.client import UsageMeter


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
    from jiyi.embedders import HashingEmbedder, default_embedder

    if settings.embedder == "hashing":
        return HashingEmbedder()
    return default_embedder(threads=settings.embed_threads)


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
        from jiyi.context_cache import RedisContextCache

        return RedisContextCache(settings.redis, on_unavailable=on_unavailable)
    except ImportError as exc:
        raise MissingDependencyError("redis", "redis") from exc
