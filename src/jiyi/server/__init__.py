"""The REST service (``jiyi serve``). Needs the ``server`` extra: pip install 'jiyi[server]'.

``create_app`` is imported lazily, so a missing FastAPI is reported as the extra to install.
What the SDK shares with the server (the wire format) is in ``jiyi.wire``, not here: the SDK
never imports this package.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from jiyi.server.app import create_app

__all__ = ["create_app"]


def __getattr__(name: str) -> Any:
    if name == "create_app":
        try:
            from jiyi.server.app import create_app
        except ImportError as exc:  # fastapi/uvicorn missing
            from jiyi.errors import MissingDependencyError

            raise MissingDependencyError(exc.name or "fastapi", "server") from exc
        return create_app
    raise AttributeError(name)
