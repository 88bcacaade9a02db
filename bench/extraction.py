"""Extraction quality and cost: rules vs LLM vs rules+LLM on the labelled zh/en utterances.

Run (with a model served by ``bash scripts/llm_model.sh serve``)::

    set -a; . /tmp/jiyi-llm/env; set +a
    .venv/bin/python bench/extraction.py --limit 40      # 40 zh + 40 en, evenly spread

Endpoint: JIYI_LLM_BASE_URL / JIYI_LLM_MODEL / JIYI_LLM_API_KEY, else the JIYI_TEST_LLM_*
pair. Writes bench/results/extraction_llm.json and prints a table.

Modes: ``rules`` (RuleExtractor), ``llm`` (LLMExtractor without rule backfill — the model
alone, behind the pre-filter and the grounding gate), ``rules+llm`` (LLMExtractor with
``rules_first``: rules handle what they can place, the LLM only the rest, plus backfill).
Utterances are sent ``--batch`` user turns per call, as a session flush would.

Scoring per utterance, on (kind, topic area) — the first segment of the topic, the LLM's own
topic when the rules assign none; a forget request counts as ("forget", ""):
  precision / recall  over expected vs predicted items;
  junk stored         predicted items on utterances that expect none (assistant/system text,
                      chit-chat, questions, other people) / all predicted items;
  gate junk rate      LLM proposals the grounding gate dropped / LLM proposals;
  prompt tokens/turn  server-reported prompt tokens / utterances;
  latency/turn        wall time / utterances.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from datetime import datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from rich.console import Console
from rich.table import Table

from jiyi.core.extraction import RuleExtractor
from jiyi.core.models import Candidate, Extraction, Message
from jiyi.core.ports import Extractor
from jiyi.llm import ChatClient, LLMExtractor

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data"
OUT = ROOT / "bench" / "results" / "extraction_llm.json"
NOW = datetime(2024, 5, 15, 14, 30, tzinfo=ZoneInfo("Asia/Shanghai"))


def load(lang: str, limit: int | None) -> list[dict[str, Any]]:
    with (DATA / f"extraction_{lang}.jsonl").open(encoding="utf-8") as fh:
        rows = [json.loads(line) for line in fh if line.strip()]
    if limit and limit < len(rows):
        step = len(rows) / limit  # evenly spread, so every category is sampled
        rows = [rows[int(i * step)] for i in range(limit)]
    return rows


def area(c: Candidate) -> str:
    topic = c.topic or str(c.metadata.get("llm_topic") or "")
    return topic.split(".", 1)[0]


def predicted(ex: Extraction, msg_id: str) -> list[tuple[str, str]]:
    items = [(c.kind.value, area(c)) for c in ex.candidates if msg_id in c.source_message_ids]
    items += [("forget", "")] * sum(1 for f in ex.forget if f.source_message_id == msg_id)
    return items


def run_mode(ext: Extractor, rows: list[dict[str, Any]], batch: int) -> dict[str, Any]:
    tp = fp = fn = junk_items = 0
    started = time.perf_counter()
    for start in range(0, len(rows), batch):
        chunk = rows[start : start + batch]
        msgs = [
            Message(role=r["role"], content=r["text"], id=f"r{start + i}")
            for i, r in enumerate(chunk)
        ]
        ex = ext.extract(msgs, now=NOW)
        for msg, row in zip(msgs, chunk, strict=True):
            assert msg.id is not None
            got = predicted(ex, msg.id)
            want = [(e["kind"], e["topic"].split(".", 1)[0]) for e in row["expect"]]
            want += [("forget", "")] if row["forget"] else []
            if not want:
                junk_items += len(got)
            for item in want:
                if item in got:
                    got.remove(item)
                    tp += 1
                else:
                    fn += 1
            fp += len(got)
    elapsed = time.perf_counter() - started
    n = len(rows)
    out: dict[str, Any] = {
        "utterances": n,
        "precision": round(tp / max(1, tp + fp), 3),
        "recall": round(tp / max(1, tp + fn), 3),
        "junk_stored": round(junk_items / max(1, tp + fp), 3),
        "tp": tp,
        "fp": fp,
        "fn": fn,
        "latency_ms_per_turn": round(1000 * elapsed / n, 1),
    }
    if isinstance(ext, LLMExtractor):
        s = ext.stats
        out |= {
            "llm_calls": s.calls,
            "repairs": s.repairs,
            "fallbacks": s.fallbacks,
            "trivial_filtered": s.trivial,
            "proposed": s.proposed,
            "gate_dropped": s.junk,
            "gate_junk_rate": round(s.junk_rate, 3),
            "backfilled": s.backfilled,
            "prompt_tokens_per_turn": round(s.prompt_tokens / n, 1),
            "completion_tokens_per_turn": round(s.completion_tokens / n, 1),
        }
    else:
        out |= {"llm_calls": 0, "prompt_tokens_per_turn": 0.0, "gate_junk_rate": 0.0}
    return out


def client_from_env(timeout: float) -> ChatClient:
    env = dict(os.environ)
    if not env.get("JIYI_LLM_BASE_URL") and env.get("JIYI_TEST_LLM_BASE_URL"):
        env["JIYI_LLM_BASE_URL"] = env["JIYI_TEST_LLM_BASE_URL"]
        env["JIYI_LLM_MODEL"] = env.get("JIYI_TEST_LLM_MODEL", "")
    env.setdefault("JIYI_LLM_TIMEOUT", str(timeout))
    client = ChatClient.from_env(env, tenant="bench")
    if client is None:
        sys.exit("no endpoint: set JIYI_LLM_BASE_URL (or JIYI_TEST_LLM_BASE_URL)")
    return client


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--limit", type=int, default=None, help="utterances per language")
    ap.add_argument("--batch", type=int, default=4, help="utterances per LLM call")
    ap.add_argument("--modes", default="rules,llm,rules+llm")
    ap.add_argument("--timeout", type=float, default=180.0)
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args()

    modes = args.modes.split(",")
    client = client_from_env(args.timeout) if any("llm" in m for m in modes) else None
    report: dict[str, Any] = {
        "model": client.model if client else None,
        "batch": args.batch,
        "limit": args.limit,
        "results": {},
    }
    console = Console()
    for lang in ("zh", "en"):
        rows = load(lang, args.limit)
        for mode in modes:
            ext: Extractor
            if mode == "rules":
                ext = RuleExtractor()
            elif mode == "llm":
                assert client is not None
                ext = LLMExtractor(client, batch_turns=args.batch, backfill=False)
            else:
                assert client is not None
                ext = LLMExtractor(client, batch_turns=args.batch, rules_first=True)
            console.print(f"[dim]{lang} / {mode}: {len(rows)} utterances…[/dim]")
            report["results"][f"{lang}/{mode}"] = run_mode(ext, rows, args.batch)

    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    table = Table(title=f"extraction (model={report['model']}, batch={args.batch})")
    for col in (
        "set/mode",
        "n",
        "P",
        "R",
        "junk stored",
        "gate junk",
        "calls",
        "prompt tok/turn",
        "ms/turn",
    ):
        table.add_column(col, justify="right" if col != "set/mode" else "left")
    for key, r in report["results"].items():
        table.add_row(
            key,
            str(r["utterances"]),
            f"{r['precision']:.2f}",
            f"{r['recall']:.2f}",
            f"{r['junk_stored']:.2f}",
            f"{r['gate_junk_rate']:.2f}",
            str(r["llm_calls"]),
            f"{r['prompt_tokens_per_turn']:.0f}",
            f"{r['latency_ms_per_turn']:.0f}",
        )
    console.print(table)
    console.print(
        f"written to {args.out.relative_to(ROOT) if args.out.is_relative_to(ROOT) else args.out}"
    )


if __name__ == "__main__":
    main()
