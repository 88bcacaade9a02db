"""LLM adapters: an OpenAI-compatible chat client, the LLM extractor and consolidation.

Needs the ``llm`` extra (httpx): ``pip install 'jiyi[llm]'``. Nothing here reads the
environment on import; :meth:`ChatClient.from_env` is for entry points.

Example:
    >>> client = ChatClient("http://127.0.0.1:8080/v1", "qwen2.5")
    >>> mem = Memory(extractor=LLMExtractor(client))
"""

from jiyi.llm.client import ChatClient, TenantUsage, Usage, UsageMeter
from jiyi.llm.consolidate import Consolidation, consolidate, derived_from
from jiyi.llm.extractor import LLMExtractor, LLMStats, ground, is_trivial

__all__ = [
    "ChatClient",
    "Consolidation",
    "LLMExtractor",
    "LLMStats",
    "TenantUsage",
    "Usage",
    "UsageMeter",
    "consolidate",
    "derived_from",
    "ground",
    "is_trivial",
]
