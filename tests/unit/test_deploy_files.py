"""The Dockerfile and docker-compose.yml cannot silently rot: every ``JIYI_*`` they set is a
setting jiyi really reads, the services point at each other by name, and the image runs
commands and extras that exist. (Docker itself is not run here.)"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import typer.main
import yaml

from jiyi.cli.main import app as cli
from jiyi.settings import Settings

ROOT = Path(__file__).resolve().parents[2]
SETTINGS = {f"JIYI_{name.upper()}" for name in Settings.model_fields}


def compose() -> dict[str, Any]:
    loaded: dict[str, Any] = yaml.safe_load((ROOT / "docker-compose.yml").read_text("utf-8"))
    return loaded


def dockerfile() -> str:
    return (ROOT / "Dockerfile").read_text("utf-8")


def env(service: str) -> dict[str, str]:
    return {k: str(v) for k, v in compose()["services"][service]["environment"].items()}


def test_compose_runs_jiyi_postgres_with_pgvector_redis_and_a_worker() -> None:
    services = compose()["services"]
    assert set(services) == {"jiyi", "worker", "postgres", "redis"}
    assert "pgvector" in services["postgres"]["image"]
    assert services["redis"]["image"].startswith("redis:")
    assert services["jiyi"]["command"][0] == "serve"
    assert services["worker"]["command"][0] == "worker"
    assert services["worker"]["image"] == services["jiyi"]["image"]  # the image jiyi builds
    assert services["jiyi"]["build"] == "."


def test_every_variable_compose_sets_is_a_real_setting() -> None:
    for service in ("jiyi", "worker"):
        names = {k for k in env(service) if k.startswith("JIYI_")}
        assert names, service
        assert sorted(names - SETTINGS) == [], service
        # and the values parse: Settings accepts them (interpolations replaced by defaults)
        values = {
            k.removeprefix("JIYI_").lower(): re.sub(r"\$\{[^:}]+:?-([^}]*)\}", r"\1", v)
            for k, v in env(service).items()
            if "${" not in v or ":-" in v
        }
        Settings(**values)


def test_the_services_find_each_other_by_name() -> None:
    services = compose()["services"]
    for service in ("jiyi", "worker"):
        store = urlsplit(env(service)["JIYI_STORE"])
        assert store.scheme == "postgresql" and store.hostname == "postgres"
        assert store.path == "/" + services["postgres"]["environment"]["POSTGRES_DB"]
        assert store.username == services["postgres"]["environment"]["POSTGRES_USER"]
        redis = urlsplit(env(service)["JIYI_REDIS"])
        assert redis.scheme == "redis" and redis.hostname == "redis"
    # the API leaves extraction to the worker, and listens beyond loopback in its container
    assert env("jiyi")["JIYI_QUEUE_WORKERS"] == "0"
    assert env("jiyi")["JIYI_HOST"] == "0.0.0.0"
    port = env("jiyi")["JIYI_PORT"]
    assert services["jiyi"]["ports"] == [f"{port}:{port}"]


def test_the_image_is_slim_unprivileged_and_checks_its_health() -> None:
    text = dockerfile()
    assert re.findall(r"^FROM (\S+)", text, re.M)[-1] == "python:3.12-slim"
    user = re.findall(r"^USER (\S+)", text, re.M)
    assert user and user[-1] not in ("root", "0")
    health = re.search(r"^HEALTHCHECK .*(?:\n\s+.*)*", text, re.M)
    assert health and "/healthz" in health.group(0)
    app_source = (ROOT / "src" / "jiyi" / "server" / "app.py").read_text("utf-8")
    assert '@app.get("/healthz"' in app_source  # the route the healthcheck asks


def test_the_image_installs_real_extras_and_runs_real_commands() -> None:
    text = dockerfile()
    extras = set(re.search(r'pip install "/src\[([a-z,]+)\]"', text).group(1).split(","))  # type: ignore[union-attr]
    assert extras == {"server", "postgres", "redis"}
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))
    assert extras <= set(pyproject["project"]["optional-dependencies"])
    assert re.search(r'^ENTRYPOINT \["jiyi"\]', text, re.M)
    commands = set(typer.main.get_command(cli).commands)  # type: ignore[attr-defined]
    assert {"serve", "worker", "keys"} <= commands
    env_names = set(re.findall(r"\b(JIYI_[A-Z_]+)=", text))
    assert env_names and env_names <= SETTINGS


def test_the_deployment_is_documented() -> None:
    doc = (ROOT / "docs" / "server.md").read_text("utf-8")
    assert "docker compose up" in doc and "jiyi keys create --admin" in doc
    for name in set(env("jiyi")) | set(env("worker")):
        if name.startswith("JIYI_"):
            assert name in doc, name
