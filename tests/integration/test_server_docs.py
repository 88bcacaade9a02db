"""The API documentation works offline: ``/docs`` and ``/redoc`` load every script, style
and icon from the server itself (never a CDN), and the OpenAPI document declares the API
key, so Swagger's "Authorize" sends it."""

from __future__ import annotations

import re
from collections.abc import Iterator

import httpx
import pytest
from server_harness import RunningServer, running_server


@pytest.fixture(scope="module")
def srv(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    with running_server(tmp_path_factory.mktemp("docs")) as s:
        yield s


@pytest.mark.parametrize("page", ["/docs", "/redoc"])
def test_doc_pages_load_everything_from_the_server(srv: RunningServer, page: str) -> None:
    with httpx.Client(base_url=srv.url, timeout=30) as h:
        html = h.get(page).text
        assets = re.findall(r'(?:src|href)="([^"]+)"', html)
        assert assets, html
        for url in assets:
            assert url.startswith("/"), f"{page} loads {url} from elsewhere"
            r = h.get(url)
            assert r.status_code == 200 and len(r.content) > 1000, url
        assert "fonts.googleapis" not in html and "cdn." not in html
        assert "/openapi.json" in html


def test_openapi_declares_the_bearer_key(srv: RunningServer) -> None:
    spec = httpx.get(f"{srv.url}/openapi.json", timeout=30).json()
    scheme = spec["components"]["securitySchemes"]["apiKey"]
    assert scheme["type"] == "http" and scheme["scheme"] == "bearer"
    assert spec["security"] == [{"apiKey": []}]
    assert spec["paths"]["/healthz"]["get"]["security"] == []
    assert spec["paths"]["/metrics"]["get"]["security"] == []
    assert "security" not in spec["paths"]["/v1/memories/search"]["post"]  # the global one
    # Every error an operation documents is the problem document the server sends.
    for path, ops in spec["paths"].items():
        for method, op in ops.items():
            for status, response in op["responses"].items():
                if status.startswith(("4", "5")):
                    assert "application/problem+json" in response["content"], (
                        path,
                        method,
                        status,
                    )
