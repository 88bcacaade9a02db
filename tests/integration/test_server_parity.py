"""What mem0 and LangGraph users expect from a memory API, over REST and the SDK on a real
server: ``metadata`` on add, filters on search and list, cursor pages, the users of a
tenant — and every bad filter or cursor a 422 naming its field, never a 500."""

from __future__ import annotations

import json
from collections.abc import Iterator

import httpx
import pytest
from server_harness import RunningServer, running_server

from jiyi.client import Client
from jiyi.errors import InvalidInputError, PermissionDeniedError


@pytest.fixture(scope="module")
def srv(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    with running_server(tmp_path_factory.mktemp("parity")) as s:
        yield s


@pytest.fixture(scope="module")
def key(srv: RunningServer) -> str:
    return srv.key("acme")


@pytest.fixture(scope="module")
def client(srv: RunningServer, key: str) -> Iterator[Client]:
    with Client(srv.url, key) as c:
        yield c


@pytest.fixture(scope="module")
def stored(client: Client) -> dict[str, list[str]]:
    """Memories of user 'meta' under two projects: the ids of each project's extracted
    memories and episodes."""
    ids: dict[str, list[str]] = {"alpha": [], "beta": []}
    said = {
        "alpha": ["I love jazz music.", "I live in Berlin.", "My sister is called Anna."],
        "beta": ["I am allergic to peanuts.", "I work as a nurse."],
    }
    for project, lines in said.items():
        for n, line in enumerate(lines):
            result = client.add(
                line,
                user_id="meta",
                metadata={"project": project, "priority": n, "tags": {"source": "chat"}},
            )
            ids[project] += [e.memory.id for e in result.events]
            ids[project] += [m.id for m in result.episodes]
    assert ids["alpha"] and ids["beta"]
    return ids


def test_metadata_given_on_add_is_stored_on_every_memory(
    client: Client, stored: dict[str, list[str]]
) -> None:
    for project, ids in stored.items():
        for mid in ids:
            got = client.get(mid)
            assert got is not None and got.metadata["project"] == project
            assert got.metadata["tags"] == {"source": "chat"}


def test_search_keeps_only_what_the_filters_admit(
    client: Client, stored: dict[str, list[str]]
) -> None:
    hits = client.search("what do I like, where do I live", user_id="meta", top_k=20)
    assert {h.memory.metadata.get("project") for h in hits} >= {"alpha", "beta"}
    only = client.search(
        "what do I like, where do I live",
        user_id="meta",
        top_k=20,
        filters={"metadata.project": "alpha", "metadata.priority": {"gte": 1}},
    )
    assert only and all(h.memory.metadata["project"] == "alpha" for h in only)
    assert all(h.memory.metadata["priority"] >= 1 for h in only)
    nested = client.search(
        "peanuts", user_id="meta", filters={"metadata": {"project": {"in": ["beta"]}}}
    )
    assert nested and {h.memory.id for h in nested} <= set(stored["beta"])


def test_list_filters_and_pages_with_a_cursor(client: Client, stored: dict[str, list[str]]) -> None:
    everything = client.list(user_id="meta", include_episodes=True)
    assert len(everything) == len(stored["alpha"]) + len(stored["beta"])
    seen: list[str] = []
    after: str | None = None
    while True:
        page = client.list(user_id="meta", include_episodes=True, limit=2, after=after)
        assert len(page) <= 2
        seen += [m.id for m in page]
        if len(page) < 2:
            break
        after = page[-1].id
    assert seen == [m.id for m in everything]  # every memory once, in the same order
    beta = client.list(user_id="meta", include_episodes=True, filters={"metadata.project": "beta"})
    assert sorted(m.id for m in beta) == sorted(stored["beta"])


def test_rest_pages_carry_next_cursor_until_the_last(
    srv: RunningServer, key: str, stored: dict[str, list[str]]
) -> None:
    with httpx.Client(base_url=srv.url, headers={"Authorization": f"Bearer {key}"}) as h:
        cursor, pages = None, []
        while True:
            params = {"user_id": "meta", "limit": "3"} | ({"cursor": cursor} if cursor else {})
            body = h.get("/v1/memories", params=params).json()
            pages.append([m["id"] for m in body["memories"]])
            cursor = body["next_cursor"]
            if cursor is None:
                break
            assert cursor == pages[-1][-1]
        assert all(len(p) == 3 for p in pages[:-1]) and len(pages[-1]) <= 3
        unpaged = h.get("/v1/memories", params={"user_id": "meta"}).json()
        assert unpaged["next_cursor"] is None
        assert [i for p in pages for i in p] == [m["id"] for m in unpaged["memories"]]
        filtered = h.get(
            "/v1/memories",
            params={
                "user_id": "meta",
                "include_episodes": "true",
                "filters": json.dumps({"metadata.project": "alpha"}),
            },
        ).json()["memories"]
        assert sorted(m["id"] for m in filtered) == sorted(stored["alpha"])


def test_the_users_of_a_tenant_page_by_user_id(srv: RunningServer, client: Client) -> None:
    for user in ("u-c", "u-a", "u-b"):
        client.add("I like tea.", user_id=user, infer=False)
    users = client.users()
    names = [u.user_id for u in users]
    assert names == sorted(names) and {"meta", "u-a", "u-b", "u-c"} <= set(names)
    assert all(u.memories >= 1 for u in users)
    first = client.users(limit=2)
    rest = client.users(after=first[-1].user_id)
    assert [u.user_id for u in first + rest] == names
    with Client(srv.url, srv.key("other")) as stranger:
        assert stranger.users() == []  # another tenant's users do not exist for it
    with Client(srv.url, srv.key("acme", "planner")) as bound, pytest.raises(PermissionDeniedError):
        bound.users()


@pytest.mark.parametrize(
    ("filters", "field"),
    [
        ({"colour": "red"}, "filters.colour"),
        ({"metadata.project": {"like": "a%"}}, "filters.metadata.project"),
        ({"importance": {"gte": "high"}}, "filters.importance"),
        ({"kind": "recipe"}, "filters.kind"),
        ({"metadata.tags": {"in": []}}, "filters.metadata.tags"),
        ({"created_at": {"gte": "yesterday"}}, "filters.created_at"),
    ],
)
def test_bad_filters_are_422_naming_the_condition(
    client: Client, filters: dict[str, object], field: str
) -> None:
    with pytest.raises(InvalidInputError) as err:
        client.search("tea", user_id="meta", filters=filters)
    assert err.value.status == 422 and err.value.field == field
    with pytest.raises(InvalidInputError) as err:
        client.list(user_id="meta", filters=filters)
    assert err.value.field == field


def test_bad_metadata_query_strings_and_cursors_are_422(srv: RunningServer, key: str) -> None:
    with httpx.Client(base_url=srv.url, headers={"Authorization": f"Bearer {key}"}) as h:
        for metadata, field in (
            ({"a.b": 1}, "metadata.a.b"),
            ({"": 1}, "metadata."),
            ("not an object", "metadata"),
            ({"text": "nul \u0000"}, "metadata.text"),
        ):
            r = h.post(
                "/v1/memories", json={"messages": "hi", "user_id": "x", "metadata": metadata}
            )
            assert r.status_code == 422, (metadata, r.text)
            assert r.json()["field"] == field
        deep = '{"k": ' * 5_000 + "1" + "}" * 5_000
        r = h.post(
            "/v1/memories",
            content='{"messages": "hi", "user_id": "x", "metadata": ' + deep + "}",
            headers={"content-type": "application/json"},
        )
        assert r.status_code == 422
        for path in ("/v1/memories/search", "/v1/context"):
            r = h.post(
                path,
                content='{"query": "x", "user_id": "x", "filters": ' + deep + "}",
                headers={"content-type": "application/json"},
            )
            assert r.status_code == 422, (path, r.text)
        for raw in ("[1, 2]", "{not json", "null", "[" * 500 + "]" * 500, '"text"'):
            r = h.get("/v1/memories", params={"user_id": "meta", "filters": raw})
            assert r.status_code == 422 and r.json()["field"] == "filters", raw
        r = h.get("/v1/memories", params={"user_id": "meta", "filters": "{" + " " * 1_024 + "}"})
        assert r.status_code == 422 and r.json()["field"] == "filters"
        for params in ({"limit": "0"}, {"limit": "1001"}, {"cursor": "\u0000"}, {"cursor": ""}):
            r = h.get("/v1/memories", params={"user_id": "meta", **params})
            assert r.status_code == 422, (params, r.text)
        for params in ({"limit": "0"}, {"cursor": " "}):
            assert h.get("/v1/users", params=params).status_code == 422
