"""Memory extraction: finding what is worth remembering in a conversation.

:class:`RuleExtractor` is the offline zh/en extractor (and the fallback when an LLM extractor
fails); :func:`score_importance` and :func:`is_chitchat` are shared with other extractors.
"""

from jiyi.core.extraction.importance import score_importance
from jiyi.core.extraction.rules import RuleExtractor
from jiyi.core.extraction.segment import is_chitchat

__all__ = ["RuleExtractor", "is_chitchat", "score_importance"]
