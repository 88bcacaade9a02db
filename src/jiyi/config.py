"""Typed configuration objects. Only entry points (CLI, server) read the environment."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

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
        pin_importance: facts/preferences at least this important join every context block.
        vector_budget_ms: if set, semantic search that takes longer is dropped and results
            come from keywords alone, marked degraded (the server sets it; None: no limit).
    """

    model_config = ConfigDict(frozen=True)

    tenant: str = "default"
    pii_policy: PiiPolicy = PiiPolicy.REDACT
    max_message_chars: int = Field(16_000, gt=0)
    min_confidence: float = Field(0.5, ge=0.0, le=1.0)
    episode_context_turns: int = Field(1, ge=0, le=5)
    retrieval: RetrievalConfig = PRESETS["balanced"]
    context_min_score: float = Field(0.25, ge=0.0)
    pin_importance: float = Field(0.85, ge=0.0, le=1.0)
    vector_budget_ms: int | None = Field(None, gt=0)
