"""Vectors in the stores: the one validation every backend applies before writing or
searching, and exact top-k cosine over an in-memory matrix (the embedded backend)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import numpy.typing as npt
from threadpoolctl import ThreadpoolController

from jiyi.errors import InvalidInputError

_blas = ThreadpoolController()


def as_vector(value: Any) -> npt.NDArray[np.float32]:
    """``value`` as a contiguous float32 vector; InvalidInputError (field ``vector``) unless
    it is 1-D, non-empty and finite. A NaN row would poison every cosine of its user, and a
    2-D array would be stored flattened."""
    try:
        vec = np.ascontiguousarray(value, dtype=np.float32)
    except (TypeError, ValueError) as exc:
        raise InvalidInputError(f"not a float vector: {exc}", field="vector") from exc
    if vec.ndim != 1 or vec.shape[0] == 0 or not np.isfinite(vec).all():
        raise InvalidInputError("a vector must be 1-D, non-empty and finite", field="vector")
    return vec


def checked_vectors(vectors: Mapping[str, Any]) -> dict[str, npt.NDArray[np.float32]]:
    """``vectors`` (id → vector) validated by :func:`as_vector`, all of one dimension
    (else InvalidInputError, field ``vector``)."""
    out = {i: as_vector(v) for i, v in vectors.items()}
    if len({int(v.shape[0]) for v in out.values()}) > 1:
        raise InvalidInputError("vectors of one write differ in dimension", field="vector")
    return out


def check_dim(held: int | None, dim: int, *, query: bool = False) -> None:
    """Refuse a vector whose dimension differs from the ``held`` one (None: none yet)."""
    if held is not None and held != dim:
        what = "the query has" if query else "got"
        raise InvalidInputError(
            f"this store holds {held}-dim vectors, {what} {dim}: use the same embedder "
            "or another store",
            field="vector",
        )


def top_k_cosine(
    mat: npt.NDArray[np.float32],
    query: npt.NDArray[np.float32],
    mask: npt.NDArray[np.bool_],
    k: int,
) -> list[tuple[int, float]]:
    """(row, cosine) of the ``k`` best rows where ``mask`` is true, best first.

    Rows and query are L2-normalised, so the dot product is the cosine. The product runs on
    the whole matrix and the mask is applied to the scores: copying the masked rows first
    would cost more than the product. BLAS is held to one thread for this call: a
    matrix-vector product of 10k × 384 takes ~0.6 ms on one core, while OpenBLAS's threads
    on a shared 2-core machine made it 3–8 ms.
    """
    with _blas.limit(limits=1, user_api="blas"):
        sims = mat @ np.asarray(query, dtype=np.float32)
    idx = np.flatnonzero(mask)
    if idx.size == 0 or k <= 0:
        return []
    scores = sims[idx]
    k = min(k, idx.size)
    top = np.argpartition(-scores, k - 1)[:k]
    top = top[np.argsort(-scores[top], kind="stable")]
    return [(int(idx[i]), float(scores[i])) for i in top]
