"""Hot ``/v1/context`` blocks and what keeps them fresh.

- ``context.py``: the :class:`ContextCache` port (per-user versions, invalidated by one
  ``bump``) and the in-process backend;
- ``redis.py``: the Redis backend, shared by every server process and ``jiyi worker``;
- ``notifying.py``: :class:`NotifyingStore`, the MemoryStore decorator the composition root
  wraps around the store, so every committed write of a user bumps that user's version —
  no route, flush or worker has to remember to.
"""

from jiyi.cache.context import ContextCache, InProcessContextCache, cache_key
from jiyi.cache.notifying import NotifyingStore, OnChange

__all__ = ["ContextCache", "InProcessContextCache", "NotifyingStore", "OnChange", "cache_key"]
