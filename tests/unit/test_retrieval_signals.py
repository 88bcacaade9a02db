"""Query planning and the conversation signals of the fusion (jiyi.core.retrieval)."""

from __future__ import annotations

from datetime import UTC, datetime
from zoneinfo import ZoneInfo

from jiyi.core.calibration import Calibration
from jiyi.core.models import MemoryItem, MemoryKind
from jiyi.core.retrieval import PRESETS, fuse, plan_query

CN = ZoneInfo("Asia/Shanghai")
NOW = datetime(2025, 12, 31, 23, 0, tzinfo=CN)


def _item(mid: str) -> MemoryItem:
    t = datetime(2025, 1, 1, tzinfo=UTC)
    return MemoryItem(
        id=mid, user_id="u", kind=MemoryKind.EPISODE, content=mid, created_at=t, observed_at=t
    )


def test_dense_only_ranks_by_cosine_above_the_calibrated_ceiling() -> None:
    # Chinese cosines often exceed E5's calibrated ceiling, where the calibrated score is 1.0
    # for all of them; the dense baseline must still order them by cosine.
    cal = Calibration(floor=0.76, ceiling=0.93, duplicate=0.965, related=0.88)
    dense = {"low": 0.935, "high": 0.962, "mid": 0.948}
    items = {k: _item(k) for k in dense}
    plan = plan_query("随便问问", NOW)
    hits = fuse(plan, dense, {}, items, now=NOW, cfg=PRESETS["dense_only"], cal=cal)
    assert [h.memory.id for h in hits] == ["high", "mid", "low"]
