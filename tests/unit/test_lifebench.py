"""The LifeBench loader and benchmark run, on a tiny user written here."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from jiyi.cli.bench import print_retrieval
from jiyi.cli.output import make_console
from jiyi.embedders import HashingEmbedder
from jiyi.evaluation.lifebench import load_lifebench, load_lifebench_user
from jiyi.evaluation.runner import run_lifebench


def _write(root: Path, name: str, data: dict[str, list[dict[str, Any]]], qa: list[Any]) -> Path:
    user = root / name
    (user / "phone_data").mkdir(parents=True)
    (user / "QA").mkdir()
    for kind, rows in data.items():
        (user / "phone_data" / f"{kind}.json").write_text(
            json.dumps(rows, ensure_ascii=False), encoding="utf-8"
        )
    (user / "QA" / "QA_clean.json").write_text(json.dumps(qa, ensure_ascii=False), "utf-8")
    return user


SMS = {
    "type": "sms",
    "message_content": "明天下午三点在老地方见，记得带上烘焙模具。",
    "contactName": "林秀英",
    "contact_phone_number": "+8613912345678",
    "datetime": "2025-03-15 14:42:00",
    "message_type": "接收",
    "phone_id": "271",
}
DATA: dict[str, list[dict[str, Any]]] = {
    "sms": [SMS, SMS, {**SMS, "message_type": "发送", "phone_id": "272",
                       "message_content": "好的妈，我带上模具。"}],
    "call": [{"type": "call", "contactName": "林秀英", "datetime": "2025-03-14 08:35:00",
              "datetime_end": "2025-03-14 08:42:30", "direction": 1, "call_result": "接通",
              "phone_id": 15}],
    "calendar": [{"type": "calendar", "title": "体检", "description": "年度体检，空腹",
                  "start_time": "2025-03-24 09:00:00", "end_time": "2025-03-24 11:00:00",
                  "datetime": "2025-03-02 20:00:00", "phone_id": "3",
                  "summarized_info": "宋雅静设定了一个日程"}],
    "note": [{"type": "note", "title": "采购清单", "content": "黄油、低筋面粉",
              "datetime": "2025-03-10 10:30:00", "phone_id": 0,
              "summarized_info": "宋雅静记录了采购清单"}],
    "contact": [{"name": "林秀英", "relation": "母亲", "nickname": "老妈",
                 "phoneNumber": "13805901234", "phone_id": "1"}],
}  # fmt: skip
QA = [
    {"question": "3月15日妈妈约我几点见面？", "question_type": "Information Extraction",
     "evidence": [{"type": "sms", "id": 271}, {"type": "sms", "id": "999"}]},
    {"question": "体检安排在哪天？", "question_type": "Temporal and Knowledge Updating",
     "evidence": [{"type": "calendar", "id": "3"}]},
    {"question": "6月6日小美说的第一句话是什么？", "question_type": "Unanswerable",
     "evidence": []},
]  # fmt: skip


def test_records_are_rendered_as_a_phone_would_show_them(tmp_path: Path) -> None:
    user = load_lifebench_user(_write(tmp_path, "songyajing", DATA, QA))
    by_id = {r.id: r for r in user.records}
    assert user.owner == "宋雅静"
    received = by_id["sms:271"]
    assert received.content.startswith("[短信 2025-03-15 周六 14:42] 来自 林秀英（母亲）: 明天")
    assert received.speaker == "林秀英" and received.timestamp.hour == 14
    sent = by_id["sms:272"]
    assert "发给 林秀英（母亲）" in sent.content and sent.speaker == "宋雅静"
    assert by_id["call:15"].content == (
        "[通话 2025-03-14 周五 08:35–08:42，7分30秒] 打给 林秀英（母亲），接通"
    )
    # The appointment shows the day it is for; the record's time is when it was written.
    cal = by_id["calendar:3"]
    assert cal.content.startswith("[日程 2025-03-24 周一 09:00–11:00] 体检")
    assert cal.timestamp.day == 2
    assert all("设定了" not in r.content for r in user.records)  # annotations left out
    assert all("13805901234" not in r.content for r in user.records)


def test_duplicated_ids_are_one_record_and_missing_evidence_is_dropped(tmp_path: Path) -> None:
    user = load_lifebench_user(_write(tmp_path, "u", DATA, QA))
    assert [r.id for r in user.records].count("sms:271") == 1
    first = user.questions[0]
    assert first.evidence == ["sms:271"] and first.missing == 1
    assert user.questions[2].evidence == []
    assert user.now is not None and (user.now.month, user.now.day) == (3, 15)


def test_a_directory_of_users_loads_each(tmp_path: Path) -> None:
    _write(tmp_path, "a", DATA, QA)
    _write(tmp_path, "b", DATA, QA)
    assert [u.user_id for u in load_lifebench(tmp_path)] == ["a", "b"]


def test_run_reports_types_users_and_unanswerable_apart(tmp_path: Path) -> None:
    _write(tmp_path / "data", "a", DATA, QA)
    res = run_lifebench(tmp_path / "data", embedder=HashingEmbedder())
    assert set(res["configs"]) == {"jiyi", "bm25_only", "dense_only"}
    jiyi = res["configs"]["jiyi"]
    assert jiyi["questions"]["all"] == 2
    assert jiyi["questions"]["a/Information Extraction"] == 1
    assert "Unanswerable" not in jiyi["recall"]
    assert jiyi["unanswerable"]["questions"] == 1
    assert set(jiyi["recall"]["all"]) == {"@1", "@5", "@10", "@25"}
    assert res["evidence_missing_from_data"] == 1


def test_the_table_shows_every_config_type_and_user(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _write(tmp_path / "data", "a", DATA, QA)
    res = run_lifebench(tmp_path / "data", embedder=HashingEmbedder())
    print_retrieval(make_console(), res)
    out = capsys.readouterr().out
    for text in ("jiyi", "bm25_only", "dense_only", "Information Extraction", "a/all"):
        assert text in out
    assert "Unanswerable" in out


def test_a_kept_store_per_user_is_reused_or_completed(tmp_path: Path) -> None:
    _write(tmp_path / "data", "a", DATA, QA)
    _write(tmp_path / "data", "b", DATA, QA)
    stores = tmp_path / "stores"
    first = run_lifebench(tmp_path / "data", embedder=HashingEmbedder(), store_path=stores)
    assert sorted(p.name for p in stores.glob("*.db")) == ["a.db", "b.db"]
    assert first["ingest_messages_per_s"] is not None
    again = run_lifebench(tmp_path / "data", embedder=HashingEmbedder(), store_path=stores)
    assert again["ingest_messages_per_s"] is None  # nothing left to ingest
    assert again["configs"]["jiyi"]["recall"] == first["configs"]["jiyi"]["recall"]
