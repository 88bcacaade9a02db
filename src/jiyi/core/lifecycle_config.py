"""The lifecycle's numbers: :class:`LifecycleConfig` and the TTL classes it is keyed by.

Every design number of :mod:`jiyi.core.lifecycle` lives here, validated when the config is
built (from ``jiyi.toml``'s ``[lifecycle]`` table, ``JIYI_LIFECYCLE`` or code), so the rules
themselves stay free of parsing. ``jiyi.core.lifecycle`` re-exports every name.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from datetime import timedelta
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from jiyi.core.models import MemoryKind

__all__ = ["DEFAULT", "DEFAULT_TTL_DAYS", "TTL_CLASSES", "LifecycleConfig", "TtlClass"]

TtlClass = Literal[
    "state", "event", "preference", "goal", "identity", "safety", "summary", "episode"
]
TTL_CLASSES: tuple[TtlClass, ...] = (
    "state",
    "event",
    "preference",
    "goal",
    "identity",
    "safety",
    "summary",
    "episode",
)
#: Days without reinforcement before a memory of each class expires (None: never).
DEFAULT_TTL_DAYS: dict[str, float | None] = {
    "state": 1.0,  # temporary state: "今天好累", "I'm at the airport"
    "event": 3.0,  # today-bound events, counted from their own day
    "preference": 180.0,
    "goal": 180.0,
    "identity": 365.0,  # name, home, family, job … (every other fact)
    "safety": None,  # health and safety: allergies, medication, conditions
    "summary": None,  # reflections are recomputed, and rest on their sources
    "episode": None,  # the user's words follow the facts made from them
}


class LifecycleConfig(BaseModel):
    """Every number of the lifecycle, in one place (the rules and their defaults:
    :mod:`jiyi.core.lifecycle`)."""

    model_config = ConfigDict(frozen=True)

    relevance_per_day: float = Field(0.995, gt=0.0, le=1.0)
    rank_decay: bool = True  # multiply search scores by the relevance factor
    # Kinds whose ranking decays; episodes keep the retriever's own recency signal.
    rank_decay_kinds: tuple[MemoryKind, ...] = tuple(
        k for k in MemoryKind if k != MemoryKind.EPISODE
    )
    # Reads keep a used memory fresh in the ranking (last read, read count). Benchmarks turn
    # this and ``reinforce`` off, so one question's reads cannot move the next one's ranking.
    track_reads: bool = True
    reinforce: bool = True
    reinforce_step: float = Field(0.1, ge=0.0, le=1.0)
    reinforce_cap: float = Field(0.95, ge=0.0, le=1.0)
    reinforce_every_days: float = Field(1.0, ge=0.0)
    inferred_confidence: float = Field(0.6, ge=0.0, le=1.0)
    confirm_step: float = Field(0.15, ge=0.0, le=1.0)
    confirmed_confidence: float = Field(0.9, ge=0.0, le=1.0)
    decay_factor: float = Field(0.95, gt=0.0, le=1.0)
    decay_every_days: float = Field(30.0, gt=0.0)
    archive_below: float = Field(0.3, ge=0.0, le=1.0)
    stated_confidence: float = Field(1.0, ge=0.0, le=1.0)  # stated facts never decay
    ttl_days: dict[str, float | None] = Field(default_factory=lambda: dict(DEFAULT_TTL_DAYS))
    tenant_ttl_days: dict[str, dict[str, float | None]] = Field(default_factory=dict)
    retention_days: float = Field(30.0, ge=0.0)
    # The audit log (jiyi.core.audit): rows older than this are purged by the purge step.
    audit_retention_days: float = Field(180.0, gt=0.0)
    max_active: int = Field(10_000, ge=1)
    # The weekly roll-up (jiyi.pipeline.rollup): ISO weeks looked at per run (the current
    # one included) and the fewest events/states a week needs to get a summary.
    rollup_weeks: int = Field(2, ge=1, le=52)
    rollup_min_items: int = Field(2, ge=1)
    # The embedding backfill (jiyi.pipeline.backfill): vectors re-embedded per transaction.
    backfill_batch: int = Field(64, ge=1, le=4096)

    @field_validator("ttl_days")
    @classmethod
    def _known_classes(cls, value: dict[str, float | None]) -> dict[str, float | None]:
        _check_ttl_map(value)
        return {**DEFAULT_TTL_DAYS, **value}

    @field_validator("tenant_ttl_days")
    @classmethod
    def _known_tenant_classes(
        cls, value: dict[str, dict[str, float | None]]
    ) -> dict[str, dict[str, float | None]]:
        for per in value.values():
            _check_ttl_map(per)
        return value

    @property
    def reinforce_every(self) -> timedelta:
        return timedelta(days=self.reinforce_every_days)

    @property
    def retention(self) -> timedelta:
        return timedelta(days=self.retention_days)

    def ttl(self, cls: str, tenant: str | None = None) -> timedelta | None:
        """The TTL of a class for a tenant (its override, else the default)."""
        per = self.tenant_ttl_days.get(tenant or "", {})
        days = per[cls] if cls in per else self.ttl_days.get(cls)
        return None if days is None else timedelta(days=days)


def _check_ttl_map(value: Mapping[str, float | None]) -> None:
    for key, days in value.items():
        if key not in TTL_CLASSES:
            raise ValueError(f"unknown TTL class {key!r}; one of {', '.join(TTL_CLASSES)}")
        if days is not None and not (math.isfinite(days) and days > 0):
            raise ValueError(f"the TTL of {key!r} must be a positive number of days or null")


DEFAULT = LifecycleConfig()
