"""Schema fuzzing: schemathesis generates requests from the server's own ``/openapi.json``
and sends them to a real uvicorn on 127.0.0.1.

Every operation is fuzzed with valid (positive) and invalid (negative) data. The server
must never answer ≥ 500, must answer only status codes its OpenAPI documents, with the
documented content type and body schema (errors are the problem+json ``Problem``). The
run sends well over 5,000 requests in about two minutes on two busy cores (hashing
embedder, SQLite store). Failures are collected, not raised inside hypothesis, so one bad
answer does not cost a shrinking phase; the test reports them all at the end.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest

schemathesis = pytest.importorskip("schemathesis")

from hypothesis import HealthCheck, Phase, given, settings  # noqa: E402
from hypothesis.errors import Unsatisfiable  # noqa: E402
from schemathesis import GenerationMode  # noqa: E402
from schemathesis.checks import (  # noqa: E402
    content_type_conformance,
    not_a_server_error,
    response_schema_conformance,
    status_code_conformance,
)
from server_harness import RunningServer, running_server  # noqa: E402

pytestmark = pytest.mark.integration
MIN_REQUESTS = 5_000
# Examples per operation and generation mode: 18 fuzzed operations × 2 modes × 155 ≈ 5,600.
EXAMPLES = 155
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    with running_server(tmp_path_factory.mktemp("fuzz")) as srv:
        yield srv


def fuzz(
    operation: Any,
    mode: GenerationMode,
    server: RunningServer,
    auth: dict[str, str],
    statuses: Counter[int],
    failures: list[str],
) -> None:
    """Send EXAMPLES generated requests of one operation; record statuses and failures."""

    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        database=None,
        derandomize=True,  # the same requests every run: a failure reproduces
        phases=[Phase.explicit, Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    @given(case=operation.as_strategy(generation_mode=mode))
    def send(case: schemathesis.Case) -> None:
        response = case.call(base_url=server.url, headers=auth, timeout=30)
        statuses[response.status_code] += 1
        try:
            case.validate_response(response, checks=CHECKS, headers=auth)
        except (AssertionError, BaseExceptionGroup) as exc:  # what was violated
            failures.append(
                f"{operation.label} [{mode.value}] → {response.status_code}: "
                f"{str(exc)[:600]}\n  reproduce: {case.as_curl_command(headers=auth)}"
            )

    try:
        send()
    except Unsatisfiable:
        # An operation without parameters or body (GET /v1/admin/tenants) has no invalid
        # request to make; a valid one must always be possible.
        if mode is GenerationMode.POSITIVE:
            raise


def test_fuzzed_requests_never_fail_the_server(server: RunningServer) -> None:
    # An admin key: the key routes are fuzzed past their 403 too (it acts on its own tenant
    # like any key: schemathesis never sends X-Jiyi-Tenant).
    key, _ = server.keys.create("fuzz", admin=True)
    auth = {"Authorization": f"Bearer {key}"}
    schema = schemathesis.openapi.from_url(f"{server.url}/openapi.json")
    # Every request carries the admin key: no generated Authorization header replaces it
    # (a missing or wrong key is a plain 401, tested in test_server_api.py).
    schema.config.generation.update(with_security_parameters=False)
    statuses: Counter[int] = Counter()
    failures: list[str] = []
    started = time.monotonic()
    for result in schema.get_all_operations():
        operation = result.ok()
        if operation.path in ("/healthz", "/metrics"):
            continue  # no input to fuzz
        for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):
            fuzz(operation, mode, server, auth, statuses, failures)
    elapsed = time.monotonic() - started
    total = sum(statuses.values())
    print(
        f"\nschemathesis: {total} requests in {elapsed:.0f} s; statuses "
        f"{dict(sorted(statuses.items()))}; {len(failures)} failing checks"
    )
    assert not failures, f"{len(failures)} failing responses:\n" + "\n".join(failures[:20])
    assert total >= MIN_REQUESTS
    assert not [s for s in statuses if s >= 500]
    # Both kinds of answer were exercised: accepted requests and refused ones.
    assert statuses[200] > 500 and statuses[422] > 500
