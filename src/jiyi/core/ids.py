"""Time-sortable identifiers (UUIDv7, RFC 9562) and content hashes."""

from __future__ import annotations

import hashlib
import os
import threading
import time
import uuid

_lock = threading.Lock()
_last_ms = 0
_counter = 0


def new_id(now_ms: int | None = None) -> str:
    """Return a new UUIDv7 string; ids created later in one process sort later.

    A 12-bit counter in ``rand_a`` keeps ids monotonic within the same millisecond,
    so insertion order survives a sort by id.
    """
    global _last_ms, _counter
    with _lock:
        ms = int(time.time() * 1000) if now_ms is None else now_ms
        if ms <= _last_ms:
            ms = _last_ms
            _counter += 1
            if _counter > 0xFFF:  # counter exhausted: borrow the next millisecond
                ms += 1
                _counter = 0
        else:
            _counter = 0
        _last_ms = ms
        counter = _counter
    rand_b = int.from_bytes(os.urandom(8), "big") & ((1 << 62) - 1)
    value = (ms & ((1 << 48) - 1)) << 80
    value |= 0x7 << 76
    value |= counter << 64
    value |= 0b10 << 62
    value |= rand_b
    return str(uuid.UUID(int=value))


def content_hash(text: str) -> str:
    """A short, stable digest of a memory's content (kept in history after deletion)."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:32]
