// 记忆快照 — the jiyi admin console. A plain script over the REST API (/v1/…), no framework.
// The admin key lives in sessionStorage and is sent only in the Authorization header.
// Everything from the server is written with textContent (never innerHTML): a memory whose
// content is markup stays text.
"use strict";
(function () {
  const KEY = "jiyi.console.key";
  const LANG = "jiyi.console.lang";
  const KINDS = ["fact", "preference", "event", "goal", "state", "summary", "episode"];
  const PAGE = 1000;
  const state = {
    key: sessionStorage.getItem(KEY),
    lang: localStorage.getItem(LANG) === "en" ? "en" : "zh",
    tenant: null,
    user: null,
    tab: "memories",
    memories: [],
    hits: null,
    keys: [],
  };

  // ---- small helpers -------------------------------------------------------------------
  const $ = (sel) => document.querySelector(sel);
  function t(key, vars) {
    let s = (window.JIYI_I18N[state.lang] || {})[key] ?? key;
    for (const [k, v] of Object.entries(vars || {})) s = s.replaceAll("{" + k + "}", String(v));
    return s;
  }
  // h("td", {class: "x", onclick: f}, "text", node, …): an element; strings become text.
  function h(tag, attrs, ...children) {
    const el = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined || v === false) continue;
      if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
      else if (k === "class") el.className = v;
      else el.setAttribute(k, v === true ? "" : String(v));
    }
    for (const c of children.flat(Infinity)) {
      if (c === null || c === undefined) continue;
      el.append(c instanceof Node ? c : document.createTextNode(String(c)));
    }
    return el;
  }
  // A view's newest request wins: switching user (or a checkbox) while an older request is
  // in flight must not let its late answer paint another user's data.
  const seq = {};
  function ticket(view) {
    const n = (seq[view] || 0) + 1;
    seq[view] = n;
    return () => seq[view] === n;
  }
  const when = (iso) => (iso ? iso.replace("T", " ").slice(0, 16) : "—");
  const num = (x) => (typeof x === "number" ? x.toFixed(2) : "—");
  const enc = encodeURIComponent;

  class ApiError extends Error {
    constructor(status, message) {
      super(message);
      this.status = status;
    }
  }

  // One call to the API: JSON in and out, the key in the header, problem+json → ApiError.
  async function api(method, path, body, opts) {
    const headers = { Authorization: "Bearer " + state.key };
    const tenant = (opts && opts.tenant) || state.tenant;
    if (tenant) headers["X-Jiyi-Tenant"] = tenant;
    if (body !== undefined) headers["Content-Type"] = "application/json";
    const r = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      cache: "no-store",
      credentials: "omit",
      referrerPolicy: "no-referrer",
    });
    if (r.status === 204) return null;
    const data = await r.json().catch(() => null);
    // The key stopped working while signed in (revoked or rotated, perhaps from this very
    // page, or expired): back to the sign-in form, saying why.
    if (r.status === 401 && !$("#app").hidden) signOut(t("login.wrong"));
    if (!r.ok) throw new ApiError(r.status, (data && data.message) || r.statusText);
    return data;
  }

  function say(text, isError) {
    const el = $("#status");
    el.textContent = text || "";
    el.className = isError ? "error" : "muted";
  }
  const fail = (e) => say(t("error") + (e && e.message ? e.message : e), true);

  function applyLanguage() {
    document.documentElement.lang = state.lang === "zh" ? "zh-CN" : "en";
    document.title = t("title") + " · jiyi";
    for (const el of document.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
    for (const el of document.querySelectorAll("[data-i18n-placeholder]"))
      el.placeholder = t(el.dataset.i18nPlaceholder);
  }

  // ---- the dialog: confirm, edit, history, receipt --------------------------------------
  function dialog(title, body, okLabel, onOk) {
    const d = $("#dialog");
    $("#dialog-title").textContent = title;
    const box = $("#dialog-body");
    box.replaceChildren(...[body].flat());
    const ok = $("#dialog-ok");
    ok.hidden = !okLabel;
    ok.textContent = okLabel || "";
    ok.onclick = !okLabel ? null : async () => {
      ok.disabled = true;
      try {
        await onOk();
      } catch (e) {
        box.append(h("p", { class: "error" }, t("error") + e.message));
      } finally {
        ok.disabled = false;
      }
    };
    if (!d.open) d.showModal();
  }
  const closeDialog = () => $("#dialog").open && $("#dialog").close();

  function table(head, rows, cls) {
    return h("table", { class: cls || "" },
      h("thead", {}, h("tr", {}, head.map((c) => h("th", {}, t(c))))),
      h("tbody", {}, rows));
  }
  const pairs = (items) =>
    h("dl", { class: "pairs" }, items.map(([k, v]) => [h("dt", {}, t(k)), h("dd", {}, v)]));

  // ---- sign in / out ---------------------------------------------------------------------
  async function signIn(key) {
    state.key = key;
    let tenants;
    try {
      tenants = (await api("GET", "/v1/admin/tenants", undefined, { tenant: null })).tenants;
    } catch (e) {
      state.key = null;
      sessionStorage.removeItem(KEY);
      const msg = e.status === 401 ? t("login.wrong")
        : e.status === 403 ? t("login.notadmin") : t("login.failed") + e.message;
      const el = $("#login-error");
      el.textContent = msg;
      el.hidden = false;
      return;
    }
    sessionStorage.setItem(KEY, key);
    $("#login-error").hidden = true;
    $("#key").value = "";
    $("#login").hidden = true;
    $("#app").hidden = false;
    $("#signout").hidden = false;
    const sel = $("#tenant");
    sel.replaceChildren(...tenants.map((x) => h("option", { value: x }, x)));
    state.tenant = tenants.includes(state.tenant) ? state.tenant : tenants[0];
    sel.value = state.tenant;
    await loadUsers();
  }

  function signOut(why) {
    sessionStorage.removeItem(KEY);
    state.key = null;
    $("#app").hidden = true;
    $("#signout").hidden = true;
    $("#login").hidden = false;
    const el = $("#login-error");
    el.textContent = typeof why === "string" ? why : "";
    el.hidden = typeof why !== "string";
  }

  // ---- tenant, user, tabs ----------------------------------------------------------------
  async function loadUsers() {
    const current = ticket("users");
    const users = [];
    let cursor = null;
    do {
      const q = "/v1/users?limit=1000" + (cursor ? "&cursor=" + enc(cursor) : "");
      const page = await api("GET", q);
      users.push(...page.users);
      cursor = page.next_cursor;
    } while (cursor);
    if (!current()) return;
    const sel = $("#user");
    sel.replaceChildren(...users.map((u) =>
      h("option", { value: u.user_id }, u.user_id + " (" + u.memories + ")")));
    state.user = users.some((u) => u.user_id === state.user) ? state.user
      : users.length ? users[0].user_id : null;
    sel.value = state.user || "";
    say(users.length ? "" : t("no.users"));
    await showTab(state.tab);
  }

  async function showTab(name) {
    state.tab = name;
    for (const b of document.querySelectorAll("[data-tab]"))
      b.setAttribute("aria-selected", String(b.dataset.tab === name));
    for (const s of document.querySelectorAll(".tab")) s.hidden = s.id !== "tab-" + name;
    try {
      if (name === "keys") return await loadKeys();
      if (!state.user) return;
      if (name === "memories") await loadMemories();
      else if (name === "tasks") await loadTasks();
    } catch (e) {
      fail(e);
    }
  }

  const userPath = (suffix) => "/v1/users/" + enc(state.user) + suffix;

  // ---- memories --------------------------------------------------------------------------
  async function allMemories(flags) {
    const out = [];
    let cursor = null;
    do {
      let q = "/v1/memories?user_id=" + enc(state.user) + "&limit=" + PAGE;
      for (const [k, v] of Object.entries(flags)) if (v) q += "&" + k + "=true";
      if (cursor) q += "&cursor=" + enc(cursor);
      const page = await api("GET", q);
      out.push(...page.memories);
      cursor = page.next_cursor;
    } while (cursor);
    return out;
  }

  async function loadMemories() {
    const current = ticket("memories");
    const [memories, profile, memorySwitch] = await Promise.all([
      allMemories({
        include_superseded: $("#opt-superseded").checked,
        include_archived: $("#opt-archived").checked,
        include_episodes: $("#opt-episodes").checked,
      }),
      // The profile shows only where the server has the endpoint and the user a profile.
      api("GET", userPath("/profile")).catch(() => null),
      api("GET", userPath("/memory-switch")),
    ]);
    if (!current()) return;
    $("#profile").hidden = !profile;
    if (profile) $("#profile-body").replaceChildren(renderValue(profile));
    $("#switch").value = memorySwitch.memory;
    state.memories = memories;
    renderMemories();
    const ids = [...new Set(memories.map((m) => m.session_id).filter(Boolean))];
    $("#session-ids").replaceChildren(...ids.map((x) => h("option", { value: x })));
  }

  function validity(m) {
    if (!m.valid_from && !m.valid_to) return t("always");
    return when(m.valid_from) + " → " + when(m.valid_to);
  }

  function memoryRow(m) {
    return h("tr", { class: "memory status-" + m.status, "data-id": m.id },
      h("td", { class: "content" }, m.content,
        m.topic ? h("span", { class: "topic" }, m.topic) : null),
      h("td", { class: "num" }, num(m.importance)),
      h("td", { class: "num" }, num(m.confidence)),
      h("td", {}, validity(m)),
      h("td", {}, h("span", { class: "pill " + m.status }, t("status." + m.status))),
      h("td", { class: "actions" },
        h("button", { type: "button", class: "ghost small", onclick: () => showHistory(m.id) }, t("history")),
        h("button", { type: "button", class: "ghost small", onclick: () => editMemory(m) }, t("edit")),
        h("button", { type: "button", class: "danger small", onclick: () => deleteMemory(m) }, t("delete"))));
  }

  function renderMemories() {
    const box = $("#memories");
    if (!state.memories.length) return box.replaceChildren(h("p", { class: "card muted" }, t("no.memories")));
    const groups = KINDS.map((k) => [k, state.memories.filter((m) => m.kind === k)]).filter(([, ms]) => ms.length);
    box.replaceChildren(...groups.map(([kind, ms]) =>
      h("div", { class: "card kind", "data-kind": kind },
        h("h3", {}, t("kind." + kind), h("span", { class: "count" }, String(ms.length))),
        table(["col.content", "col.importance", "col.confidence", "col.validity", "col.status", "col.actions"],
          ms.map(memoryRow)))));
  }

  function renderValue(v) {
    if (Array.isArray(v)) return h("ul", { class: "plain" }, v.map((x) => h("li", {}, renderValue(x))));
    if (v && typeof v === "object")
      return h("dl", { class: "pairs" }, Object.entries(v).map(([k, x]) => [h("dt", {}, k), h("dd", {}, renderValue(x))]));
    return document.createTextNode(v === null ? "—" : String(v));
  }

  async function setSwitch() {
    try {
      const s = await api("PUT", userPath("/memory-switch"), { memory: $("#switch").value });
      say(t("switch.saved") + t("switch." + s.memory));
    } catch (e) {
      fail(e);
    }
  }

  async function showHistory(id) {
    try {
      const r = await api("GET", "/v1/memories/" + enc(id) + "/history");
      const rows = r.history.map((e) => h("tr", {},
        h("td", {}, when(e.at)), h("td", {}, e.action), h("td", { class: "num" }, String(e.version)),
        h("td", { class: "content" }, e.content ?? "#" + e.content_hash.slice(0, 12)),
        h("td", {}, e.reason || ""),
        h("td", {}, e.related_id ? h("button", { type: "button", class: "link", onclick: () => showHistory(e.related_id) }, e.related_id) : "")));
      dialog(t("history.title") + " · " + id,
        table(["col.at", "col.action", "col.version", "col.content", "col.reason", "col.related"], rows, "history"));
    } catch (e) {
      fail(e);
    }
  }

  function editMemory(m) {
    const area = h("textarea", { id: "edit-content", rows: "4" });
    area.value = m.content;
    dialog(t("edit.title"), [h("p", { class: "muted" }, m.id), area], t("save"), async () => {
      await api("PATCH", "/v1/memories/" + enc(m.id), { content: area.value });
      closeDialog();
      say(t("edit.saved"));
      await loadMemories();
    });
    $("#dialog-ok").className = "";
  }

  function deleteMemory(m) {
    dialog(t("delete.title"),
      [h("p", {}, t("delete.warn")), h("blockquote", {}, m.content), h("p", { class: "muted" }, m.id)],
      t("confirm.delete"), async () => {
        await api("DELETE", "/v1/memories/" + enc(m.id));
        let gone = false;
        try {
          await api("GET", "/v1/memories/" + enc(m.id));
        } catch (e) {
          gone = e.status === 404;
        }
        // The history outlives the delete (hash only): its DELETE entry is the receipt.
        const trail = (await api("GET", "/v1/memories/" + enc(m.id) + "/history")).history;
        const del = trail.filter((e) => e.action === "DELETE").pop() || {};
        dialog(t("receipt.title"), h("div", { id: "receipt" }, pairs([
          ["receipt.memory", m.id],
          ["receipt.deleted_at", when(del.at)],
          ["receipt.hash", del.content_hash || "—"],
          ["col.status", gone ? t("receipt.gone") : "?"],
        ])));
        await loadMemories();
      });
    $("#dialog-ok").className = "danger";
  }

  function deleteUser() {
    const user = state.user;
    dialog(t("user.delete"), h("p", {}, t("user.delete.confirm", { user, tenant: state.tenant })),
      t("confirm.delete"), async () => {
        const r = await api("DELETE", userPath(""));
        const removed = Object.entries(r.removed).map(([k, n]) => k + ": " + n).join(", ");
        dialog(t("receipt.title"), h("div", { id: "receipt" }, pairs([
          ["receipt.user", r.user_id], ["tenant", r.tenant],
          ["receipt.deleted_at", when(r.deleted_at)], ["receipt.removed", removed || "—"],
        ])));
        await loadUsers();
      });
    $("#dialog-ok").className = "danger";
  }

  async function exportMemories() {
    try {
      const memories = await allMemories({ include_superseded: true, include_archived: true, include_episodes: true });
      const doc = { tenant: state.tenant, user_id: state.user, exported_at: new Date().toISOString(), memories };
      const url = URL.createObjectURL(new Blob([JSON.stringify(doc, null, 2)], { type: "application/json" }));
      const name = ("jiyi-" + state.tenant + "-" + state.user).replace(/[^\w.-]+/g, "_") + ".json";
      const a = h("a", { href: url, download: name });
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10000);
      say(t("exported", { n: memories.length }));
    } catch (e) {
      fail(e);
    }
  }

  // ---- search ----------------------------------------------------------------------------
  async function search(ev) {
    ev.preventDefault();
    if (!state.user) return;
    try {
      const current = ticket("search");
      const r = await api("POST", "/v1/memories/search", {
        query: $("#query").value, user_id: state.user, top_k: Number($("#topk").value) || 10,
      });
      if (!current()) return;
      state.hits = r;
      renderHits();
    } catch (e) {
      fail(e);
    }
  }

  // Each component of a hit's score: the ones that counted with a bar (relative to the
  // largest), the zero ones named on one line, so a ranking can be read at a glance.
  function breakdown(scores) {
    const entries = Object.entries(scores);
    const top = Math.max(1e-9, ...entries.map(([, v]) => Math.abs(v)));
    const zeros = entries.filter(([, v]) => v === 0);
    return h("ul", { class: "breakdown" },
      entries.filter(([, v]) => v !== 0).map(([k, v]) =>
        h("li", { "data-part": k },
          h("span", { class: "part" }, k),
          h("meter", { min: "0", max: String(top), value: String(Math.abs(v)) }),
          h("span", { class: "num" }, v.toFixed(3)))),
      zeros.length ? h("li", { class: "zeros" }, "0: ",
        zeros.map(([k], i) => [i ? ", " : "", h("span", { "data-part": k }, k)])) : null);
  }

  function renderHits() {
    const r = state.hits;
    const box = $("#search-results");
    if (!r) return;
    if (!r.results.length) return box.replaceChildren(h("p", { class: "card muted" }, t("search.none")));
    const rows = r.results.map((hit, i) => h("tr", { class: "hit", "data-id": hit.memory.id },
      h("td", { class: "num" }, String(i + 1)),
      h("td", { class: "content" }, hit.memory.content),
      h("td", {}, t("kind." + hit.memory.kind)),
      h("td", { class: "num score" }, hit.score.toFixed(3)),
      h("td", {}, breakdown(hit.scores))));
    box.replaceChildren(h("div", { class: "card" },
      r.degraded ? h("p", { class: "error" }, t("search.degraded")) : null,
      table(["#", "col.content", "col.kind", "col.score", "col.breakdown"], rows)));
  }

  // ---- session window, tasks -------------------------------------------------------------
  async function loadSession(ev) {
    ev.preventDefault();
    const box = $("#session-view");
    const current = ticket("session");
    try {
      const v = await api("GET", "/v1/sessions/" + enc($("#session-id").value.trim()));
      if (!current()) return;
      box.replaceChildren(h("div", { class: "card" },
        h("p", { class: "muted" }, t("session.meta", { total: v.total, started: when(v.started_at), expires: when(v.expires_at) })),
        h("ol", { class: "window" }, v.messages.map((m) =>
          h("li", { class: "msg " + m.role }, h("span", { class: "role" }, m.name || m.role), h("span", {}, m.content))))));
    } catch (e) {
      if (e.status === 404) box.replaceChildren(h("p", { class: "card muted" }, t("session.none")));
      else fail(e);
    }
  }

  async function loadTasks() {
    const current = ticket("tasks");
    const r = await api("GET", userPath("/tasks"));
    if (!current()) return;
    const box = $("#tasks");
    if (!r.tasks.length) return box.replaceChildren(h("p", { class: "card muted" }, t("tasks.none")));
    box.replaceChildren(h("div", { class: "card" }, table(["task.key", "task.status", "col.version", "task.updated", "task.state"],
      r.tasks.map((x) => h("tr", {}, h("td", {}, x.key), h("td", {}, x.status), h("td", { class: "num" }, String(x.version)),
        h("td", {}, when(x.updated_at)), h("td", {}, h("code", {}, JSON.stringify(x.state))))))));
  }

  // ---- API keys --------------------------------------------------------------------------
  async function loadKeys() {
    const current = ticket("keys");
    const keys = (await api("GET", "/v1/keys?tenant=" + enc(state.tenant))).keys;
    if (!current()) return;
    state.keys = keys;
    renderKeys();
  }

  function renderKeys() {
    const box = $("#keys");
    if (!state.keys.length) return box.replaceChildren(h("p", { class: "card muted" }, t("keys.none")));
    const rows = state.keys.map((k) => h("tr", { class: "key" + (k.revoked_at ? " revoked" : ""), "data-key-id": k.key_id },
      h("td", {}, h("code", {}, k.key_id)), h("td", {}, k.agent_id || "—"), h("td", {}, t(k.admin ? "yes" : "no")),
      h("td", {}, when(k.created_at)), h("td", {}, when(k.expires_at)),
      h("td", {}, h("span", { class: "pill " + (k.revoked_at ? "archived" : "active") },
        k.revoked_at ? t("key.revoked") + " " + when(k.revoked_at) : t("key.active"))),
      h("td", { class: "actions" }, k.revoked_at ? null : [
        h("button", { type: "button", class: "ghost small", onclick: () => rotateKey(k) }, t("key.rotate")),
        h("button", { type: "button", class: "danger small", onclick: () => revokeKey(k) }, t("key.revoke"))])));
    box.replaceChildren(h("div", { class: "card" }, table(
      ["key.id", "key.agent", "key.admin", "key.created", "key.expires", "key.state", "col.actions"], rows)));
  }

  function showNewKey(made) {
    $("#new-key-value").textContent = made.key;
    $("#new-key").hidden = false;
  }

  function revokeKey(k) {
    dialog(t("key.revoke"), h("p", {}, t("key.revoke.confirm", { id: k.key_id })), t("key.revoke"), async () => {
      await api("DELETE", "/v1/keys/" + enc(k.key_id));
      closeDialog();
      say(t("key.revoked.done", { id: k.key_id }));
      await loadKeys();
    });
    $("#dialog-ok").className = "danger";
  }

  function rotateKey(k) {
    dialog(t("key.rotate"), h("p", {}, t("key.rotate.confirm", { id: k.key_id })), t("key.rotate"), async () => {
      showNewKey(await api("POST", "/v1/keys/" + enc(k.key_id) + "/rotate"));
      closeDialog();
      await loadKeys();
    });
    $("#dialog-ok").className = "danger";
  }

  async function createKey(ev) {
    ev.preventDefault();
    try {
      const agent = $("#key-agent").value.trim();
      showNewKey(await api("POST", "/v1/keys", { tenant: state.tenant, agent_id: agent || null, admin: $("#key-admin").checked }));
      $("#key-agent").value = "";
      await loadKeys();
    } catch (e) {
      fail(e);
    }
  }

  // ---- wiring ----------------------------------------------------------------------------
  function rerender() {
    if ($("#app").hidden) return;
    if (state.tab === "memories") renderMemories();
    if (state.hits) renderHits();
    if (state.tab === "keys") renderKeys();
  }

  document.addEventListener("DOMContentLoaded", () => {
    applyLanguage();
    $("#lang").addEventListener("click", () => {
      state.lang = state.lang === "zh" ? "en" : "zh";
      localStorage.setItem(LANG, state.lang);
      applyLanguage();
      rerender();
    });
    $("#login-form").addEventListener("submit", (ev) => {
      ev.preventDefault();
      signIn($("#key").value.trim());
    });
    $("#signout").addEventListener("click", signOut);
    $("#tenant").addEventListener("change", (ev) => {
      state.tenant = ev.target.value;
      state.hits = null;
      $("#search-results").replaceChildren();
      loadUsers().catch(fail);
    });
    $("#user").addEventListener("change", (ev) => {
      state.user = ev.target.value;
      state.hits = null;
      $("#search-results").replaceChildren();
      showTab(state.tab);
    });
    $("#reload").addEventListener("click", () => loadUsers().catch(fail));
    for (const b of document.querySelectorAll("[data-tab]")) b.addEventListener("click", () => showTab(b.dataset.tab));
    for (const id of ["#opt-superseded", "#opt-archived", "#opt-episodes"])
      $(id).addEventListener("change", () => loadMemories().catch(fail));
    $("#switch").addEventListener("change", setSwitch);
    $("#export").addEventListener("click", exportMemories);
    $("#delete-user").addEventListener("click", deleteUser);
    $("#search-form").addEventListener("submit", search);
    $("#session-form").addEventListener("submit", loadSession);
    $("#key-form").addEventListener("submit", createKey);
    if (state.key) signIn(state.key);
  });
})();
