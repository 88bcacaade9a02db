"""Typed configuration objects. Only entry points (CLI, server) read the environment."""

from __future__ import annotations

from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pydantic import BaseModel, ConfigDict, Field, SecretStr, field_validator

from jiyi.core.identity import IdentityGuard
from jiyi.core.lifecycle import LifecycleConfig
from jiyi.core.pii import PiiPolicy
from jiyi.core.retrieval import PRESETS, RetrievalConfig


class MemoryConfig(BaseModel):
    """Settings of an embedded :class:`jiyi.Memory`.

    Attributes:
        tenant: the tenant all operations of this instance belong to.
        pii_policy: redact (default) | reject | allow.
        max_message_chars: longer messages are refused with PayloadTooLargeError.
        min_confidence: candidates below this confidence are skipped.
        episode_context_turns: earlier turns embedded with each episode.
        retrieval: fusion weights; defaults to the ``balanced`` preset.
        context_min_score: hits below this fused score stay out of context blocks.
        context_min_semantic: a hit with no keyword, identifier or slot match needs at least
            this calibrated semantic relevance to enter a context block.
        timezone: IANA name of the timezone dates are shown in (per call: ``timezone=``).
        pin_importance: facts/preferences at least this important join every context block.
        vector_budget_ms: if set, semantic search that takes longer is dropped and results
            come from keywords alone, marked degraded (the server sets it; None: no limit).
        lifecycle: decay, reinforcement, TTLs per kind (and per tenant), archive, purge and
            the per-user cap (``jiyi.core.lifecycle``; docs/lifecycle.md has the table).
        alias_secret: the secret alias digests are keyed with (per tenant, derived from
            it); aliases cannot be linked or resolved without one. Keep it: another secret
            resolves none of the stored aliases.
        identity_guard: what a session that contradicts ≥ 3 identity slots at once does —
            ``off``, ``flag`` (marked and audited) or ``block`` (also stores the batch as
            episodes only and keeps memories out of that session's context until
            ``confirm_identity``; ``jiyi.core.identity``).
        change_threshold: the learned change step (``jiyi.pipeline.learned_change``)
            supersedes the fact a told change is about when no rule placed it and its score
            reaches this probability; None turns the step off.
    """

    model_config = ConfigDict(frozen=True)

    tenant: str = "default"
    pii_policy: PiiPolicy = PiiPolicy.REDACT
    max_message_chars: int = Field(16_000, gt=0)
    min_confidence: float = Field(0.5, ge=0.0, le=1.0)
    episode_context_turns: int = Field(1, ge=0, le=5)
    retrieval: RetrievalConfig = PRESETS["balanced"]
    context_min_score: float = Field(0.25, ge=0.0)
    context_min_semantic: float = Field(0.7, ge=0.0, le=1.0)
    timezone: str = "UTC"
    pin_importance: float = Field(0.85, ge=0.0, le=1.0)
    vector_budget_ms: int | None = Field(None, gt=0)
    lifecycle: LifecycleConfig = LifecycleConfig()
    alias_secret: SecretStr | None = None
    identity_guard: IdentityGuard = IdentityGuard.BLOCK
    change_threshold: float | None = Field(None, ge=0.5, le=1.0)

    @field_validator("timezone")
    @classmethod
    def _known_zone(cls, value: str) -> str:
        try:
            ZoneInfo(value)
        except (ZoneInfoNotFoundError, ValueError) as exc:
            raise ValueError(
                f"{value!r} is not a known IANA timezone (e.g. Asia/Shanghai)"
            ) from exc
        return value
