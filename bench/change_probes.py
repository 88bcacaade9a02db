"""Changes and harmless remarks told in chat, one fresh user per line, on the real default
embedder: how many changes are applied and how many background facts are lost.

    .venv/bin/python bench/change_probes.py [--out bench/results/change_probes.json]

Each line of bench/data/probes/*.txt is ``fact|fact|…|message ## old ## new``: the facts are
said one a day, the message a week later. A change (``old`` / ``new`` given) is applied when
every memory that stated ``old`` is inactive and an active memory states ``new``; a line with
``- ## -`` changes nothing. Lost: memories of the other facts the message deactivated. The
files were written by helpers from a prompt alone (no code, no other data); they are
development sets, studied while the rules were written (bench/README.md, 2026-12-03 IV).
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from rich.console import Console
from rich.table import Table

from jiyi import Memory
from jiyi.core.models import MemoryKind

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "bench" / "data" / "probes"
OUT = ROOT / "bench" / "results" / "change_probes.json"
START = datetime(2026, 10, 1, 1, 0, tzinfo=UTC)


def run_file(mem: Memory, path: Path) -> dict[str, object]:
    changes = applied = remarks = lost = 0
    failed: list[str] = []
    for k, line in enumerate(path.read_text(encoding="utf-8").splitlines()):
        if not line.strip() or line.startswith("#"):
            continue
        body, old, new = (p.strip() for p in line.split("##"))
        said = body.split("|")
        user = f"{path.stem}-{k}"
        made: dict[str, str] = {}
        for i, fact in enumerate(said[:-1]):
            res = mem.add(fact, user_id=user, timestamp=START + timedelta(days=i))
            made |= {e.memory.id: e.memory.content for e in res.events
                     if e.memory.kind != MemoryKind.EPISODE}  # fmt: skip
        mem.add(said[-1], user_id=user, timestamp=START + timedelta(days=len(said) + 7))
        active = [m for m in mem.list(user_id=user) if m.kind != MemoryKind.EPISODE]
        ids = {m.id for m in active}
        stating = [i for i, text in made.items() if old != "-" and old in text]
        lost += sum(1 for i in made if i not in ids and i not in stating)
        if new == "-":
            remarks += 1
            continue
        changes += 1
        # the new value as typed ("chicago") is found in any case ("User lives in Chicago")
        ok = (
            bool(stating)
            and not (set(stating) & ids)
            and any(new.casefold() in m.content.casefold() for m in active)
        )
        applied += ok
        if not ok:
            failed.append(said[-1])
    return {"changes": changes, "applied": applied, "remarks": remarks, "lost": lost,
            "not_applied": failed}  # fmt: skip


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args()
    started = time.perf_counter()
    rows: dict[str, dict[str, object]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        mem = Memory(path=f"{tmp}/m.db")
        for path in sorted(DATA.glob("*.txt")):
            rows[path.stem] = run_file(mem, path)
    table = Table(title="Changes told in chat (bench/data/probes)")
    for col in ("set", "changes applied", "remarks", "facts lost"):
        table.add_column(col)
    for name, r in rows.items():
        table.add_row(name, f"{r['applied']} / {r['changes']}", str(r["remarks"]), str(r["lost"]))
    Console().print(table)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    seconds = round(time.perf_counter() - started, 1)
    args.out.write_text(json.dumps({"sets": rows, "seconds": seconds}, ensure_ascii=False,
                                   indent=1), encoding="utf-8")  # fmt: skip
    print(f"{seconds} s; written to {args.out}")


if __name__ == "__main__":
    main()
