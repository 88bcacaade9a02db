"""The SDK for a jiyi server: ``Client`` (blocking) and ``AsyncClient`` (asyncio).

Needs httpx (``pip install 'jiyi[server]'`` or just ``httpx``), not the server: the models
both sides share are in ``jiyi.wire``.
"""

from jiyi.client._call import RetryPolicy, ServerError
from jiyi.client.aio import AsyncClient
from jiyi.client.sync import Client

__all__ = ["AsyncClient", "Client", "RetryPolicy", "ServerError"]
