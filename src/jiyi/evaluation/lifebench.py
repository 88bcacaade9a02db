"""LifeBench (Chinese phone data over one simulated year) as ``Memory.add`` calls and questions.

Each user directory holds ``phone_data/*.json`` (sms, call, calendar, note, photo, push,
fitness_health, contact, agent_chat) and ``QA/QA_clean.json``. Every record becomes one episode
— one ``add`` per record, message id ``<type>:<phone_id>`` (the id the questions' evidence
uses), timestamp = the record's time in China time — rendered the way a phone integration
would hand it to a memory layer: which app, when, who, and the text, e.g.

    [短信 2025-03-15 周六 14:42] 来自 刘太太（烘焙同好）: 对，就是那个……
    [通话 2025-01-01 周三 08:35–08:42，7分30秒] 打给 宋明辉（父亲），接通

Names are joined with the phone's own contact list (relation and nickname), as a phone
would show them. The generator's ``summarized_info`` fields are annotations (third-person
summaries no phone produces) and are left out; so are phone numbers, e-mails and ids.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime, tzinfo
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from jiyi.errors import InvalidInputError

CHINA = ZoneInfo("Asia/Shanghai")
RECORD_TYPES = (
    "sms",
    "call",
    "calendar",
    "note",
    "photo",
    "push",
    "agent_chat",
    "fitness_health",
    "contact",
)
UNANSWERABLE = "Unanswerable"
_WEEKDAYS = "一二三四五六日"


@dataclass
class Record:
    """One phone record as one message of its own ``add`` call."""

    id: str  # "<type>:<phone_id>", the id the questions' evidence names
    kind: str
    timestamp: datetime
    speaker: str
    content: str
    thread: str | None = None  # the conversation it belongs to: the contact of an SMS or call


@dataclass
class LifeQuestion:
    text: str
    evidence: list[str]  # record ids that exist in the phone data
    qtype: str
    missing: int = 0  # evidence ids the phone data does not hold (dropped)


@dataclass
class LifeUser:
    user_id: str
    owner: str  # the phone owner's name, as the data calls them
    records: list[Record] = field(default_factory=list)
    questions: list[LifeQuestion] = field(default_factory=list)
    now: datetime | None = None


def _time(text: str, tz: tzinfo = CHINA) -> datetime:
    text = text.strip().replace("/", "-")
    for fmt in ("%Y-%m-%d %H:%M:%S", "%Y-%m-%d %H:%M", "%Y-%m-%d"):
        try:
            return datetime.strptime(text, fmt).replace(tzinfo=tz)
        except ValueError:
            continue
    raise InvalidInputError(f"unreadable LifeBench time {text!r}", field="datetime")


def _stamp(t: datetime, *, clock: bool = True) -> str:
    day = f"{t:%Y-%m-%d} 周{_WEEKDAYS[t.weekday()]}"
    return f"{day} {t:%H:%M}" if clock else day


def _owner_name(records: dict[str, list[dict[str, Any]]]) -> str:
    """The phone owner's name as the data's notes and photos call them ("宋雅静记录了…")."""
    names: Counter[str] = Counter()
    for kind in ("note", "photo"):
        for r in records.get(kind, []):
            m = re.match(r"([\u4e00-\u9fff]{2,4}?)(?:记录了|拍摄了)", str(r.get("summarized_info")))
            if m:
                names[m.group(1)] += 1
    return names.most_common(1)[0][0] if names else "我"


class _Contacts:
    """Contact names with the relation the owner gave them: "林秀英（母亲）"."""

    def __init__(self, rows: list[dict[str, Any]]) -> None:
        self.labels: dict[str, list[str]] = {}
        for r in rows:
            rel = str(r.get("relation") or "").strip()
            if rel:
                self.labels.setdefault(str(r.get("name")), []).append(rel)

    def show(self, name: str) -> str:
        rel = self.labels.get(name)
        return f"{name}（{'/'.join(rel)}）" if rel else name


def _render(kind: str, r: dict[str, Any], owner: str, contacts: _Contacts) -> Record | None:
    rid = f"{kind}:{r.get('phone_id')}"
    if kind == "sms":
        t = _time(r["datetime"])
        who = str(r.get("contactName") or "")
        sent = r.get("message_type") == "发送"
        head = f"[短信 {_stamp(t)}] {'发给' if sent else '来自'} {contacts.show(who)}"
        text = f"{head}: {r['message_content']}"
        return Record(rid, kind, t, owner if sent else who, text, thread=f"contact:{who}")
    if kind == "call":
        t = _time(r["datetime"])
        who = str(r.get("contactName") or "")
        out = r.get("direction") == 1 or r.get("call_type") in ("拨出", "拨打")
        span = ""
        if r.get("datetime_end"):
            end = _time(r["datetime_end"])
            secs = int((end - t).total_seconds())
            span = f"–{end:%H:%M}，{secs // 60}分{secs % 60}秒" if secs > 0 else ""
        text = f"[通话 {_stamp(t)}{span}] {'打给' if out else '来电'} {contacts.show(who)}"
        if r.get("call_result"):
            text += f"，{r['call_result']}"
        summary = r.get("call_summary") or r.get("summary")
        if summary:
            text += f"。{summary}"
        return Record(rid, kind, t, owner if out else who, text, thread=f"contact:{who}")
    if kind == "calendar":
        t = _time(r["datetime"])
        start, end = _time(r["start_time"]), _time(r["end_time"])
        until = f"{end:%H:%M}" if end.date() == start.date() else _stamp(end)
        text = f"[日程 {_stamp(start)}–{until}] {r['title']}：{r.get('description', '')}"
        return Record(rid, kind, t, owner, text)
    if kind == "note":
        t = _time(r["datetime"])
        return Record(rid, kind, t, owner, f"[备忘录 {_stamp(t)}] {r['title']}\n{r['content']}")
    if kind == "photo":
        t = _time(r["datetime"])
        loc = r.get("location") or {}
        place = "".join(str(loc.get(k) or "") for k in ("city", "district", "poi"))
        text = f"[照片 {_stamp(t)}{' ' + place if place else ''}] {r.get('caption', '')}"
        if r.get("faceRecognition"):
            text += f"；人物：{'、'.join(r['faceRecognition'])}"
        if r.get("imageTag"):
            text += f"；标签：{'、'.join(r['imageTag'])}"
        ocr = str(r.get("ocrText") or "").strip()
        if ocr and ocr != "无":
            text += f"；图中文字：{ocr}"
        return Record(rid, kind, t, owner, text)
    if kind == "push":
        t = _time(r["datetime"])
        title = f"{r['title']}：" if r.get("title") else ""
        text = f"[通知 {r.get('source', '')} {_stamp(t)}] {title}{r.get('content', '')}"
        return Record(rid, kind, t, str(r.get("source") or "通知"), text)
    if kind == "agent_chat":
        t = _time(r["date"])
        # The user's own turns: jiyi keeps what the user says, never the assistant's words
        # (the replies are also twice as long, and would fill E5's 512-token window).
        lines = [f"[与AI助手的对话 {_stamp(t, clock=False)}]"]
        for _, turn in sorted(r["conversation"].items(), key=lambda kv: _turn_no(kv[0])):
            said = (turn.get("user") or {}).get("content")
            if said:
                lines.append(f"我：{said}")
        return Record(rid, kind, t, owner, "\n".join(lines))
    if kind == "fitness_health":
        t = _time(r["日期"])
        return Record(rid, kind, t, owner, _health(r, t))
    return None


def _turn_no(key: str) -> int:
    m = re.search(r"\d+", key)
    return int(m.group(0)) if m else 0


def _health(r: dict[str, Any], t: datetime) -> str:
    """The day's health log as the app's daily card shows it: steps, sleep, weight, workouts
    and the events of the day."""
    parts = [f"[运动健康 {_stamp(t, clock=False)} {r.get('城市', '')}]"]
    daily, sleep, weight = (r.get(k) or {} for k in ("日常活动", "睡眠", "体重"))
    card = [
        f"步数{daily.get('步数', '')}",
        f"睡眠{sleep.get('入睡时间', '')[:5]}–{sleep.get('出睡时间', '')[:5]}",
        f"体重{weight.get('体重', '')}",
    ]
    parts.append("，".join(card))
    for sport in ("跑步", "骑行", "步行"):
        s = r.get(sport)
        if isinstance(s, dict) and not str(s.get("距离统计", "0")).startswith(("0公里", "0.0")):
            parts.append(
                f"{s.get('运动类型', sport)}：{s.get('距离统计', '')}，{s.get('运动时间', '')}"
            )
    for ev in r.get("用户交互事件") or []:
        if isinstance(ev, dict):
            parts.append(f"{ev.get('时间', '')} {ev.get('描述', '')}")
    return "\n".join(parts)


def _load_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise InvalidInputError(f"cannot read LifeBench file {path}: {exc}", field="path") from exc


def user_dirs(path: Path) -> list[Path]:
    """``path`` itself when it is one user's directory, else its user subdirectories."""
    path = Path(path)
    if (path / "phone_data").is_dir():
        return [path]
    found = sorted(p for p in path.iterdir() if (p / "phone_data").is_dir())
    if not found:
        raise InvalidInputError(f"{path} holds no LifeBench user (no phone_data/)", field="path")
    return found


def load_lifebench_user(path: Path) -> LifeUser:
    """One user: records in time order (duplicated ids kept once) and the questions, each
    with its evidence restricted to records that exist."""
    path = Path(path)
    raw = {
        k: _load_json(path / "phone_data" / f"{k}.json")
        for k in RECORD_TYPES
        if (path / "phone_data" / f"{k}.json").exists()
    }
    owner = _owner_name(raw)
    contacts = _Contacts(raw.get("contact", []))
    records: dict[str, Record] = {}
    for kind, rows in raw.items():
        for r in rows:
            rec = _render(kind, r, owner, contacts)
            if rec is not None and rec.id not in records:
                records[rec.id] = rec
    ordered = sorted(records.values(), key=lambda x: (x.timestamp, x.id))
    if ordered and "contact" in raw:
        # The contact list has no time: it is there from the start.
        first = ordered[0].timestamp
        for i, c in enumerate(raw["contact"]):
            rel, nick = c.get("relation", ""), c.get("nickname", "")
            text = f"[通讯录] {c.get('name')}，{rel}，备注 {nick}"
            ordered.insert(i, Record(f"contact:{c.get('phone_id')}", "contact", first, owner, text))
    user = LifeUser(user_id=path.name, owner=owner, records=ordered)
    for q in _load_json(path / "QA" / "QA_clean.json"):
        ev = [f"{e['type']}:{e['id']}" for e in q.get("evidence") or []]
        ev = list(dict.fromkeys(ev))
        kept = [e for e in ev if e in records]
        user.questions.append(
            LifeQuestion(str(q["question"]), kept, str(q.get("question_type")), len(ev) - len(kept))
        )
    # Questions are asked at the end of the recorded year, on the last day's evening (their
    # ask_time is only a month, and not always after the events they ask about). Not the day
    # after: the data end on 31 December, and on 1 January "1月份" would mean the new year.
    if ordered:
        last = max(r.timestamp for r in ordered)
        user.now = last.replace(hour=23, minute=59, second=0)
    return user


def load_lifebench(path: Path) -> list[LifeUser]:
    """Every user under ``path`` (a user's directory or the directory holding users)."""
    return [load_lifebench_user(p) for p in user_dirs(path)]
