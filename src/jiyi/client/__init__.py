"""The SDK for a jiyi server: ``Client`` (blocking) and ``AsyncClient`` (asyncio).

Needs httpx (``pip install 'jiyi[server]'`` or just ``httpx``).
"""

from jiyi.client._ops import ServerError
from jiyi.client.aio import AsyncClient
from jiyi.client.sync import Client

__all__ = ["AsyncClient", "Client", "ServerError"]
