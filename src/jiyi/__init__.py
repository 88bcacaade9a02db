"""jiyi (记忆): cross-session memory for AI agents — Chinese and English, embedded or served.

The public API is what ``__all__`` lists; everything else is internal.
"""

from typing import TYPE_CHECKING

from jiyi.aio import AsyncMemory
from jiyi.config import MemoryConfig
from jiyi.core.models import (
    Action,
    AddResult,
    ContextBlock,
    DeletionReceipt,
    GoalStatus,
    HistoryEntry,
    MemoryEvent,
    MemoryItem,
    MemoryKind,
    Origin,
    Scope,
    SearchHit,
    Skipped,
    Status,
)
from jiyi.core.profile import ProfileGoal, ProfileOverride, ProfileValue, UserProfile
from jiyi.core.retrieval import PRESETS, RetrievalConfig
from jiyi.core.users import MemorySwitch, SwitchChange, SwitchState, TaskState, TaskStatus
from jiyi.errors import (
    AliasTakenError,
    AuthenticationError,
    ConflictError,
    ExtractionError,
    InvalidInputError,
    JiyiError,
    MissingDependencyError,
    NotFoundError,
    OverloadedError,
    PayloadTooLargeError,
    PermissionDeniedError,
    RateLimitedError,
    StorageUnavailableError,
    VersionConflictError,
)
from jiyi.memory import Memory

if TYPE_CHECKING:
    from jiyi.client import AsyncClient, Client

__version__ = "0.1.0"


def __getattr__(name: str) -> object:
    # The SDK needs httpx (the `server` extra); import it only when it is used.
    if name in ("Client", "AsyncClient"):
        from jiyi import client

        return getattr(client, name)
    raise AttributeError(f"module 'jiyi' has no attribute {name!r}")


__all__ = [
    "PRESETS",
    "Action",
    "AddResult",
    "AliasTakenError",
    "AsyncClient",
    "AsyncMemory",
    "AuthenticationError",
    "Client",
    "ConflictError",
    "ContextBlock",
    "DeletionReceipt",
    "ExtractionError",
    "GoalStatus",
    "HistoryEntry",
    "InvalidInputError",
    "JiyiError",
    "Memory",
    "MemoryConfig",
    "MemoryEvent",
    "MemoryItem",
    "MemoryKind",
    "MemorySwitch",
    "MissingDependencyError",
    "NotFoundError",
    "Origin",
    "OverloadedError",
    "PayloadTooLargeError",
    "PermissionDeniedError",
    "ProfileGoal",
    "ProfileOverride",
    "ProfileValue",
    "RateLimitedError",
    "RetrievalConfig",
    "Scope",
    "SearchHit",
    "Skipped",
    "Status",
    "StorageUnavailableError",
    "SwitchChange",
    "SwitchState",
    "TaskState",
    "TaskStatus",
    "UserProfile",
    "VersionConflictError",
    "__version__",
]
