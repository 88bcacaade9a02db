"""Loaders that turn LoCoMo and DuLeMon files into add() batches and labelled queries."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from jiyi.errors import InvalidInputError


@dataclass
class Batch:
    """One ``Memory.add`` call: a session's messages."""

    session_id: str
    timestamp: datetime
    messages: list[dict[str, Any]]


@dataclass
class Question:
    text: str
    evidence: list[str]  # message ids
    category: int


@dataclass
class Conversation:
    user_id: str
    batches: list[Batch] = field(default_factory=list)
    questions: list[Question] = field(default_factory=list)
    now: datetime | None = None


_EVIDENCE = re.compile(r"D\s*:?\s*(\d+)\s*:\s*(\d+)")


def normalise_evidence(raw: list[str]) -> list[str]:
    """Fix the dataset's malformed ids: "D8:6; D9:17" → two ids, "D:11:26" → "D11:26",
    "D30:05" → "D30:5"."""
    out: list[str] = []
    for item in raw:
        for m in _EVIDENCE.finditer(str(item)):
            out.append(f"D{int(m.group(1))}:{int(m.group(2))}")
    return list(dict.fromkeys(out))


def _locomo_time(text: str) -> datetime:
    # "1:56 pm on 8 May, 2023"
    return datetime.strptime(text.strip(), "%I:%M %p on %d %B, %Y").replace(tzinfo=UTC)


def load_locomo(path: Path) -> list[Conversation]:
    """Each conversation becomes one user; each session one batch; image turns carry their
    caption in the text, as a reader of the chat would see them described."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise InvalidInputError(f"cannot read LoCoMo file {path}: {exc}", field="path") from exc
    convs: list[Conversation] = []
    for sample in data:
        c = sample["conversation"]
        conv = Conversation(user_id=sample["sample_id"])
        n = 1
        while f"session_{n}_date_time" in c:
            turns = c.get(f"session_{n}") or []
            if turns:
                when = _locomo_time(c[f"session_{n}_date_time"])
                msgs = []
                for t in turns:
                    text = t["text"]
                    if t.get("blip_caption"):
                        text = f"{text} [shares a photo: {t['blip_caption']}]"
                    msgs.append(
                        {"role": "user", "content": text, "name": t["speaker"], "id": t["dia_id"]}
                    )
                conv.batches.append(Batch(f"session_{n}", when, msgs))
            n += 1
        for qa in sample["qa"]:
            ev = normalise_evidence(qa.get("evidence", []))
            if ev:
                conv.questions.append(Question(qa["question"], ev, int(qa["category"])))
        conv.now = max(b.timestamp for b in conv.batches) + timedelta(days=1)
        convs.append(conv)
    return convs


@dataclass
class PersonaQuery:
    context: str
    gold: str  # persona id


def load_dulemon(path: Path, context_turns: int = 2) -> tuple[dict[str, str], list[PersonaQuery]]:
    """Persona sentences of all sessions pooled (id → text), and for every user utterance
    tagged with a user persona: the preceding turns plus the utterance's start as the query.

    DuLeMon text is word-segmented with spaces; they are stripped (between CJK characters).
    """
    personas: dict[str, str] = {}
    queries: list[PersonaQuery] = []

    def clean(s: str) -> str:
        return re.sub(r"(?<=[^\x00-\x7f])\s+|\s+(?=[^\x00-\x7f])", "", s).strip()

    for n, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines()):
        if not line.strip():
            continue
        row = json.loads(line)
        for p in row.get("user_said_persona", []) + row.get("user_no_said_persona", []):
            tag, _, text = p.partition(":")
            personas[f"s{n}-{tag.strip()}"] = clean(text)
        turns = row.get("conversation", [])
        for i, turn in enumerate(turns):
            _, _, tag = turn.partition("\t")
            if not turn.startswith("Usr:") or not tag.strip().startswith("U"):
                continue
            before = [
                clean(t.partition("\t")[0].split(":", 1)[-1])
                for t in turns[max(0, i - context_turns) : i]
            ]
            if not before:
                continue
            queries.append(PersonaQuery("\n".join(before), f"s{n}-{tag.strip()}"))
    return personas, queries
