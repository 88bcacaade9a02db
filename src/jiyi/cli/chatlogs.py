"""Chat logs on disk → conversations ready for ``Memory.add`` (used by ``jiyi import``).

Three shapes are read:

- **jsonl**: one message per line, ``{"role", "content", "name"?, "id"?, "timestamp"?,
  "user_id"?, "session_id"?}``; consecutive lines of one user and session form one
  conversation. A line holding ``{"messages": [...]}`` is a whole conversation (the OpenAI
  fine-tuning shape).
- **openai**: a JSON file with ``{"messages": [...]}``, a list of such objects, or a bare list
  of messages. ``content`` may be a string or a list of parts (the text parts are kept);
  ``developer`` counts as ``system``; ``tool`` / ``function`` results are not the user's
  words and are skipped.
- **locomo**: the LoCoMo file shape (a list of ``{"sample_id", "conversation": {"speaker_a",
  "session_N": [{"speaker", "dia_id", "text", "blip_caption"?}], "session_N_date_time"}}``):
  each sample is one user, each session one conversation dated by its session time.

Every message gets a stable id — its own, else one derived from the file name and its
position (``chat.jsonl:17``, ``chat.json:2:5``) — so importing the same file again (or a
longer version of it) stores each message once: the store remembers consumed ids.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from enum import StrEnum
from pathlib import Path
from typing import Any

from jiyi.errors import InvalidInputError

ROLES = {"user": "user", "assistant": "assistant", "system": "system", "developer": "system"}
NOT_SAID = {"tool", "function"}  # machine output: never the user's words


class LogFormat(StrEnum):
    AUTO = "auto"
    JSONL = "jsonl"
    OPENAI = "openai"
    LOCOMO = "locomo"


@dataclass
class Conversation:
    """One ``Memory.add`` worth of context (split into batches by the importer)."""

    user_id: str
    session_id: str | None
    timestamp: datetime | None = None
    messages: list[dict[str, Any]] = field(default_factory=list)
    skipped: int = 0  # messages that are not anyone's words (tool output, empty text)


def _text(content: Any) -> str:
    """A message's text: a string, or the text parts of an OpenAI content list."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = [p.get("text", "") for p in content if isinstance(p, dict)]
        return "\n".join(p for p in parts if isinstance(p, str) and p)
    return ""


def _message(raw: Any, default_id: str, where: str) -> dict[str, Any] | None:
    """A message for ``Memory.add``, None for one to skip (tool output, no text)."""
    if not isinstance(raw, dict):
        raise InvalidInputError(f"{where}: a message must be a JSON object", field="file")
    role = str(raw.get("role", "user"))
    if role in NOT_SAID:
        return None
    if role not in ROLES:
        raise InvalidInputError(f"{where}: unknown role {role!r}", field="file")
    text = _text(raw.get("content"))
    if not text.strip():
        return None
    msg: dict[str, Any] = {
        "role": ROLES[role],
        "content": text,
        "id": str(raw.get("id") or default_id),
    }
    for key in ("name", "timestamp"):
        if raw.get(key) is not None:
            msg[key] = raw[key]
    return msg


def _conversation(
    raw_messages: Any, user: str, session: str | None, id_prefix: str, where: str
) -> Conversation:
    if not isinstance(raw_messages, list):
        raise InvalidInputError(f"{where}: 'messages' must be a list", field="file")
    conv = Conversation(user_id=user, session_id=session)
    for j, raw in enumerate(raw_messages):
        msg = _message(raw, f"{id_prefix}:{j}", f"{where}, message {j}")
        if msg is None:
            conv.skipped += 1
        else:
            conv.messages.append(msg)
    return conv


def _user(raw: dict[str, Any], user: str | None, where: str) -> str:
    found = raw.get("user_id") or user
    if not found:
        raise InvalidInputError(f"{where}: no user_id in the file; pass --user", field="user_id")
    return str(found)


def read_jsonl(path: Path, user: str | None) -> Iterator[Conversation]:
    stem = path.name
    current: Conversation | None = None
    with path.open(encoding="utf-8") as f:
        for n, line in enumerate(f, start=1):
            if not line.strip():
                continue
            where = f"{stem} line {n}"
            try:
                raw = json.loads(line)
            except ValueError as exc:
                raise InvalidInputError(f"{where}: not JSON ({exc})", field="file") from exc
            if not isinstance(raw, dict):
                raise InvalidInputError(f"{where}: expected a JSON object", field="file")
            if "messages" in raw:  # a whole conversation on one line
                if current is not None:
                    yield current
                    current = None
                session = str(raw.get("session_id") or f"{stem}:{n}")
                yield _conversation(
                    raw["messages"], _user(raw, user, where), session, f"{stem}:{n}", where
                )
                continue
            uid = _user(raw, user, where)
            sid = str(raw["session_id"]) if raw.get("session_id") else None
            if current is None or (current.user_id, current.session_id) != (uid, sid):
                if current is not None:
                    yield current
                current = Conversation(user_id=uid, session_id=sid)
            msg = _message(raw, f"{stem}:{n}", where)
            if msg is None:
                current.skipped += 1
            else:
                current.messages.append(msg)
    if current is not None:
        yield current


def read_openai(data: Any, stem: str, user: str | None) -> Iterator[Conversation]:
    if isinstance(data, dict):
        data = [data]
    if not isinstance(data, list):
        raise InvalidInputError(f"{stem}: expected a conversation or a list", field="file")
    if data and all(isinstance(d, dict) and "messages" not in d for d in data):
        data = [{"messages": data}]  # a bare list of messages: one conversation
    for i, raw in enumerate(data):
        where = f"{stem} conversation {i}"
        if not isinstance(raw, dict) or "messages" not in raw:
            raise InvalidInputError(f"{where}: expected {{'messages': [...]}}", field="file")
        session = str(raw.get("session_id") or f"{stem}:{i}")
        yield _conversation(raw["messages"], _user(raw, user, where), session, f"{stem}:{i}", where)


_SESSION = re.compile(r"^session_(\d+)$")


def read_locomo(data: Any, stem: str, user: str | None) -> Iterator[Conversation]:
    if not isinstance(data, list):
        raise InvalidInputError(f"{stem}: a LoCoMo file is a list of samples", field="file")
    for i, sample in enumerate(data):
        conv = sample.get("conversation") if isinstance(sample, dict) else None
        if not isinstance(conv, dict):
            raise InvalidInputError(f"{stem} sample {i}: no 'conversation'", field="file")
        sample_id = str(sample.get("sample_id") or f"{stem}:{i}")
        # Several samples into one --user: their turn ids (D1:3) would collide.
        prefix = f"{sample_id}:" if user and len(data) > 1 else ""
        sessions = sorted(int(m.group(1)) for k in conv if (m := _SESSION.match(k)))
        for s in sessions:
            turns = conv.get(f"session_{s}") or []
            when = _locomo_time(conv.get(f"session_{s}_date_time"))
            out = Conversation(user_id=user or sample_id, session_id=f"session_{s}", timestamp=when)
            for j, t in enumerate(turns):
                text = str(t.get("text", ""))
                if t.get("blip_caption"):
                    text = f"{text} [shares a photo: {t['blip_caption']}]"
                if not text.strip():
                    out.skipped += 1
                    continue
                tid = t.get("dia_id") or f"D{s}:{j + 1}"
                out.messages.append(
                    {
                        "role": "user",
                        "content": text,
                        "name": t.get("speaker"),
                        "id": prefix + str(tid),
                    }
                )
            if out.messages or out.skipped:
                yield out


def _locomo_time(text: Any) -> datetime | None:
    # "1:56 pm on 8 May, 2023"
    try:
        return datetime.strptime(str(text).strip(), "%I:%M %p on %d %B, %Y").replace(tzinfo=UTC)
    except ValueError:
        return None


def read_chat_log(
    path: Path, fmt: LogFormat, user: str | None
) -> tuple[LogFormat, list[Conversation]]:
    """The conversations in ``path`` and the format they were read as.

    Raises:
        InvalidInputError: an unreadable file, or a shape the format does not allow (the
            message names the line or conversation).
    """
    auto = fmt is LogFormat.AUTO
    if auto:
        fmt = LogFormat.JSONL if path.suffix.lower() in (".jsonl", ".ndjson") else LogFormat.OPENAI
    if fmt is LogFormat.JSONL:
        return fmt, list(read_jsonl(path, user))
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise InvalidInputError(f"cannot read {path}: {exc}", field="file") from exc
    looks_locomo = (
        isinstance(data, list)
        and bool(data)
        and isinstance(data[0], dict)
        and "conversation" in data[0]
    )
    if fmt is LogFormat.LOCOMO or (auto and looks_locomo):
        return LogFormat.LOCOMO, list(read_locomo(data, path.name, user))
    return LogFormat.OPENAI, list(read_openai(data, path.name, user))
