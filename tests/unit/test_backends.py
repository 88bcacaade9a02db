"""Entry-point wiring: settings decide the extractor."""

from __future__ import annotations

from pathlib import Path

from jiyi import Memory, backends
from jiyi.core.extraction import RuleExtractor
from jiyi.embedders import HashingEmbedder
from jiyi.llm import LLMExtractor
from jiyi.llm.client import UsageMeter
from jiyi.settings import Settings


def test_no_llm_url_means_the_rule_extractor() -> None:
    assert backends.open_extractor(Settings(), "t1", None) is None
    assert isinstance(Memory(":memory:", embedder=HashingEmbedder()).extractor, RuleExtractor)


def test_an_llm_url_gives_an_llm_extractor_that_falls_back_when_the_endpoint_is_dead(
    tmp_path: Path,
) -> None:
    settings = Settings(llm_base_url="http://127.0.0.1:9/v1", llm_timeout=2.0)
    meter = UsageMeter()
    extractor = backends.open_extractor(settings, "t1", meter)
    assert isinstance(extractor, LLMExtractor)
    mem = Memory(tmp_path / "m.db", embedder=HashingEmbedder(), extractor=extractor)
    res = mem.add("我对花生过敏", user_id="u1")
    assert [e.memory.topic for e in res.events] == ["health.allergy.花生"]  # rules took over
    assert len(mem.list(user_id="u1", include_episodes=True)) == 2
