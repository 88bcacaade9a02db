"""``GET /metrics`` of the real server, read the way Prometheus reads it: the exposition
parses with prometheus_client's own parser, every family keeps its name, type and labels,
and the counters move with the requests made."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families
from prometheus_client.samples import Sample
from server_harness import RunningServer, running_server

from jiyi.llm.client import Usage, UsageMeter
from jiyi.server.metrics import Metrics, usage_families

# name: (type, label names of its samples). What dashboards query; changing one breaks them.
FAMILIES = {
    "jiyi_http_requests": ("counter", {"method", "route", "status"}),
    "jiyi_http_request_duration_seconds": ("histogram", {"method", "route"}),
    "jiyi_memories_written": ("counter", {"event"}),
    "jiyi_episodes_written": ("counter", set()),
    "jiyi_memories_skipped": ("counter", {"reason"}),
    "jiyi_redactions": ("counter", {"kind"}),
    "jiyi_extraction_failures": ("counter", set()),
    "jiyi_session_flushes": ("counter", {"mode", "reason"}),
    "jiyi_redis_unavailable": ("counter", {"component"}),
    "jiyi_search_degraded": ("counter", set()),
    "jiyi_context_cache": ("counter", {"result"}),
    "jiyi_jobs": ("counter", {"kind", "outcome"}),
    "jiyi_lifecycle": ("counter", {"what"}),
    "jiyi_bad_rows_skipped": ("counter", {"table"}),
    "jiyi_admission": ("counter", {"outcome"}),
    "jiyi_admission_running": ("gauge", set()),
    "jiyi_admission_queued": ("gauge", set()),
}


@pytest.fixture(scope="module")
def srv(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    with running_server(tmp_path_factory.mktemp("metrics")) as s:
        yield s


def scrape(srv: RunningServer) -> dict[tuple[str, frozenset[tuple[str, str]]], float]:
    """Every sample of ``/metrics`` by (name, labels); asserts the text parses."""
    r = httpx.get(f"{srv.url}/metrics", timeout=30)
    assert r.status_code == 200
    assert r.headers["content-type"] == "text/plain; version=0.0.4; charset=utf-8"
    samples: list[Sample] = [
        s for family in text_string_to_metric_families(r.text) for s in family.samples
    ]
    return {(s.name, frozenset(s.labels.items())): s.value for s in samples}


def test_every_family_keeps_its_name_type_and_labels(srv: RunningServer) -> None:
    httpx.get(f"{srv.url}/healthz", timeout=30)
    text = httpx.get(f"{srv.url}/metrics", timeout=30).text
    families = {f.name: f for f in text_string_to_metric_families(text)}
    for name, (kind, labels) in FAMILIES.items():
        assert name in families, f"{name} is missing"
        assert families[name].type == kind, name
        for s in families[name].samples:
            assert set(s.labels) - {"le"} == labels, (name, s.labels)
    assert "# HELP jiyi_http_requests_total HTTP requests by method, route and status." in text
    # The created timestamps prometheus_client adds would double the series: left out.
    assert "_created" not in text


def test_counters_move_with_requests(srv: RunningServer) -> None:
    headers = {"Authorization": f"Bearer {srv.key('acme')}"}
    add = {"messages": "我对花生过敏，电话13812345678", "user_id": "m1"}
    route = ("method", "POST"), ("route", "/v1/memories"), ("status", "200")
    before = scrape(srv)
    for _ in range(2):
        r = httpx.post(f"{srv.url}/v1/memories", json=add, headers=headers, timeout=30)
        assert r.status_code == 200, r.text
    missing = httpx.get(f"{srv.url}/v1/memories/nope", headers=headers, timeout=30)
    assert missing.status_code == 404
    after = scrape(srv)

    def moved(name: str, *labels: tuple[str, str]) -> float:
        key = (name, frozenset(labels))
        return after.get(key, 0.0) - before.get(key, 0.0)

    assert moved("jiyi_http_requests_total", *route) == 2
    # The route template, never the id asked for: series cannot grow with traffic.
    get_404 = ("method", "GET"), ("route", "/v1/memories/{memory_id}"), ("status", "404")
    assert moved("jiyi_http_requests_total", *get_404) == 1
    latency = ("method", "POST"), ("route", "/v1/memories")
    assert moved("jiyi_http_request_duration_seconds_count", *latency) == 2
    assert moved("jiyi_http_request_duration_seconds_bucket", *latency, ("le", "+Inf")) == 2
    assert moved("jiyi_memories_written_total", ("event", "ADD")) >= 1
    assert moved("jiyi_episodes_written_total") == 2
    assert moved("jiyi_redactions_total", ("kind", "phone")) == 2
    assert moved("jiyi_admission_total", ("outcome", "admitted")) >= 3


def test_apps_in_one_process_count_apart(tmp_path: Path, srv: RunningServer) -> None:
    # A second app (its own registry) next to the module's server: no clash on names, and
    # requests to one never show up in the other.
    with running_server(tmp_path) as other:
        httpx.get(f"{other.url}/healthz", timeout=30)
        healthz = ("method", "GET"), ("route", "/healthz"), ("status", "200")
        mine = scrape(srv).get(("jiyi_http_requests_total", frozenset(healthz)), 0.0)
        httpx.get(f"{other.url}/healthz", timeout=30)
        assert scrape(srv).get(("jiyi_http_requests_total", frozenset(healthz)), 0.0) == mine
        theirs = other.services.metrics.value("jiyi_http_requests_total", **dict(healthz))
        assert theirs == 2


def test_a_counter_refuses_labels_it_was_not_declared_with() -> None:
    metrics = Metrics()
    with pytest.raises(ValueError):
        metrics.inc("jiyi_jobs_total", outcome="done")  # kind is missing
    with pytest.raises(KeyError):
        metrics.inc("jiyi_no_such_total")


def test_llm_tokens_are_counted_per_tenant() -> None:
    # Served only when an LLM extracts (the harness has none): the meter's totals, read at
    # each scrape.
    meter = UsageMeter()
    metrics = Metrics()
    metrics.add_collector(usage_families(meter))
    meter.record("acme", Usage(prompt_tokens=321, completion_tokens=12))
    meter.record("acme", Usage(prompt_tokens=321, completion_tokens=12))
    families = {f.name: f for f in text_string_to_metric_families(metrics.render().decode())}
    assert families["jiyi_llm_prompt_tokens"].type == "counter"
    got = {
        (s.name, s.labels["tenant"]): s.value
        for name, f in families.items()
        if name.startswith("jiyi_llm_")
        for s in f.samples
    }
    assert got[("jiyi_llm_calls_total", "acme")] == 2
    assert got[("jiyi_llm_prompt_tokens_total", "acme")] == 642
    assert got[("jiyi_llm_completion_tokens_total", "acme")] == 24
