"""A small OpenAI-compatible chat client (DeepSeek, Qwen, vLLM, Ollama, llama.cpp …) on httpx.

One method does the work: :meth:`ChatClient.chat` posts ``/chat/completions`` and returns the
reply text and its token usage. Every failure — timeout, dead endpoint, HTTP error, a body
without a reply — is translated here into :class:`~jiyi.errors.ExtractionError`, chained to the
httpx cause, so callers handle one error type and fall back to rules.

Token usage is recorded per tenant in a :class:`UsageMeter` whose totals the server's
``/metrics`` reads at each scrape (``jiyi.server.metrics.usage_families``); the meter never
sees message content.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import SecretStr

from jiyi.errors import ExtractionError, InvalidInputError, MissingDependencyError

__all__ = ["ChatClient", "TenantUsage", "Usage", "UsageMeter"]

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Usage:
    """Tokens one chat call spent, as the server reported them."""

    prompt_tokens: int = 0
    completion_tokens: int = 0


@dataclass(frozen=True)
class TenantUsage:
    """Running totals for one tenant."""

    calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0


class UsageMeter:
    """Thread-safe per-tenant totals of LLM calls and tokens.

    Tenants are the label, so the number of series grows with tenants, never with traffic.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._totals: dict[str, TenantUsage] = {}

    def record(self, tenant: str, usage: Usage) -> None:
        """Add one call's usage to ``tenant``'s totals."""
        with self._lock:
            t = self._totals.get(tenant, TenantUsage())
            self._totals[tenant] = TenantUsage(
                calls=t.calls + 1,
                prompt_tokens=t.prompt_tokens + usage.prompt_tokens,
                completion_tokens=t.completion_tokens + usage.completion_tokens,
            )

    def snapshot(self) -> dict[str, TenantUsage]:
        """A copy of the totals, by tenant."""
        with self._lock:
            return dict(self._totals)


class ChatClient:
    """Chat completions against any OpenAI-compatible endpoint.

    Args:
        base_url: the API root including ``/v1`` (``http://127.0.0.1:8080/v1``).
        model: the model name the endpoint expects.
        api_key: sent as ``Authorization: Bearer …`` when given; never logged.
        timeout: seconds for the whole request (connect, send, generate, read).
        tenant: whose usage this client's calls are counted under.
        meter: where usage goes; a private one when omitted.
        max_tokens: default completion cap per call. temperature: default 0 (repeatable).
        transport: an httpx transport (tests); default a real connection pool.

    Raises:
        InvalidInputError: empty base_url or model, or a non-positive timeout.
        MissingDependencyError: httpx is not installed (``pip install 'jiyi[llm]'``).
    """

    def __init__(
        self,
        base_url: str,
        model: str,
        *,
        api_key: SecretStr | str | None = None,
        timeout: float = 30.0,
        tenant: str = "default",
        meter: UsageMeter | None = None,
        max_tokens: int = 300,
        temperature: float = 0.0,
        transport: Any = None,
    ) -> None:
        try:
            import httpx
        except ImportError as exc:  # pragma: no cover - depends on the install
            raise MissingDependencyError("httpx", "llm") from exc
        if not base_url or not base_url.startswith(("http://", "https://")):
            raise InvalidInputError("base_url must be an http(s) URL", field="base_url")
        if not model:
            raise InvalidInputError("model must be a non-empty string", field="model")
        if timeout <= 0:
            raise InvalidInputError("timeout must be positive", field="timeout")
        self.base_url = base_url.rstrip("/")
        self.model = model
        self.timeout = timeout
        self.tenant = tenant
        self.meter = meter or UsageMeter()
        self.max_tokens = max_tokens
        self.temperature = temperature
        self._api_key = SecretStr(api_key) if isinstance(api_key, str) else api_key
        headers = {"Content-Type": "application/json"}
        if self._api_key is not None and self._api_key.get_secret_value():
            headers["Authorization"] = f"Bearer {self._api_key.get_secret_value()}"
        self._http = httpx.Client(
            base_url=self.base_url, headers=headers, timeout=timeout, transport=transport
        )
        # Some servers reject the llama.cpp "schema" key of response_format; learn it once.
        self._schema_ok = True

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None, **kwargs: Any) -> ChatClient | None:
        """A client from ``JIYI_LLM_BASE_URL``, ``JIYI_LLM_MODEL``, ``JIYI_LLM_API_KEY`` (and
        optional ``JIYI_LLM_TIMEOUT``), or None when no base URL is set. For entry points."""
        env = os.environ if environ is None else environ
        base = env.get("JIYI_LLM_BASE_URL", "").strip()
        if not base:
            return None
        timeout = float(env.get("JIYI_LLM_TIMEOUT", "30") or 30)
        return cls(
            base,
            env.get("JIYI_LLM_MODEL", "").strip() or "default",
            api_key=env.get("JIYI_LLM_API_KEY") or None,
            timeout=timeout,
            **kwargs,
        )

    def chat(
        self,
        messages: Sequence[Mapping[str, str]],
        response_format: Mapping[str, Any] | None = None,
        *,
        max_tokens: int | None = None,
    ) -> tuple[str, Usage]:
        """One chat completion.

        Args:
            messages: ``{"role", "content"}`` dicts, in order.
            response_format: e.g. ``{"type": "json_object", "schema": {...}}``. When the
                server answers 4xx/5xx to a format with a ``schema`` key, the call is retried
                once without it and later calls leave it out.
            max_tokens: completion cap for this call (default: the client's).

        Returns:
            The reply text and the usage reported by the server (zeros if it reports none).

        Raises:
            ExtractionError: timeout, unreachable endpoint, HTTP error or a malformed body;
                chained to the httpx or JSON cause.
        """
        fmt = dict(response_format) if response_format else None
        if fmt is not None and not self._schema_ok:
            fmt.pop("schema", None)
        try:
            return self._post(messages, fmt, max_tokens)
        except _HttpStatusError as exc:
            if fmt is None or "schema" not in fmt:
                raise ExtractionError(str(exc)) from exc.__cause__
            log.info("LLM endpoint refused response_format.schema (%s); retrying without", exc)
            self._schema_ok = False
            fmt.pop("schema")
            try:
                return self._post(messages, fmt, max_tokens)
            except _HttpStatusError as again:
                raise ExtractionError(str(again)) from again.__cause__

    def _post(
        self,
        messages: Sequence[Mapping[str, str]],
        fmt: dict[str, Any] | None,
        max_tokens: int | None,
    ) -> tuple[str, Usage]:
        import httpx

        body: dict[str, Any] = {
            "model": self.model,
            "messages": [dict(m) for m in messages],
            "temperature": self.temperature,
            "max_tokens": max_tokens or self.max_tokens,
        }
        if fmt is not None:
            body["response_format"] = fmt
        started = time.monotonic()
        try:
            resp = self._http.post("/chat/completions", json=body)
            resp.raise_for_status()
            data = resp.json()
        except httpx.TimeoutException as exc:
            raise ExtractionError(
                f"LLM endpoint {self.base_url} timed out after {self.timeout:g}s; "
                "raise JIYI_LLM_TIMEOUT or use a faster model"
            ) from exc
        except httpx.HTTPStatusError as exc:
            err = _HttpStatusError(
                f"LLM endpoint {self.base_url} answered HTTP {exc.response.status_code}"
            )
            raise err from exc
        except httpx.HTTPError as exc:
            raise ExtractionError(
                f"cannot reach LLM endpoint {self.base_url} ({type(exc).__name__}); "
                "check JIYI_LLM_BASE_URL"
            ) from exc
        except ValueError as exc:  # the body is not JSON
            raise ExtractionError(f"LLM endpoint {self.base_url} sent a non-JSON body") from exc
        try:
            text = data["choices"][0]["message"]["content"]
            if not isinstance(text, str):
                raise TypeError("content is not a string")
        except (KeyError, IndexError, TypeError) as exc:
            raise ExtractionError(f"LLM endpoint {self.base_url} sent no chat completion") from exc
        raw = data.get("usage") or {}
        usage = Usage(
            prompt_tokens=int(raw.get("prompt_tokens") or 0),
            completion_tokens=int(raw.get("completion_tokens") or 0),
        )
        self.meter.record(self.tenant, usage)
        log.debug(
            "LLM call: %d prompt + %d completion tokens in %.2fs",
            usage.prompt_tokens,
            usage.completion_tokens,
            time.monotonic() - started,
        )
        return text, usage

    def close(self) -> None:
        """Close the connection pool."""
        self._http.close()

    def __enter__(self) -> ChatClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class _HttpStatusError(Exception):
    """Internal: an HTTP error status, before the schema-less retry decides its fate."""
