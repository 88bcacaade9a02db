"""Short-term session memory: the SessionStore port and its backends."""

from jiyi.sessions.base import (
    PendingFlush,
    SessionKey,
    SessionMessage,
    SessionOwner,
    SessionStore,
    SessionView,
)
from jiyi.sessions.memory import InMemorySessionStore

__all__ = [
    "InMemorySessionStore",
    "PendingFlush",
    "SessionKey",
    "SessionMessage",
    "SessionOwner",
    "SessionStore",
    "SessionView",
]
