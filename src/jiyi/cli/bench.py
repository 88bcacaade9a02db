"""``jiyi bench retrieval``: run a retrieval benchmark, print its table, write its JSON.

``bench/retrieval.py`` runs the same command as a script; :func:`print_retrieval` is the one
place that turns a results dict of :mod:`jiyi.evaluation.runner` into tables.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
)
from rich.table import Table

from jiyi.cli.options import JsonOpt, echo_json, one_line_errors
from jiyi.cli.output import make_console, make_table

# LoCoMo's question categories (Maharana et al., 2024); 5 (adversarial) is reported apart.
LOCOMO_CATEGORIES = {
    1: "multi-hop",
    2: "temporal",
    3: "open-domain",
    4: "single-hop",
    5: "adversarial",
}
RESULTS_DIR = Path("bench") / "results"


class Dataset(StrEnum):
    LOCOMO = "locomo"
    DULEMON = "dulemon"


bench_app = typer.Typer(
    help="Retrieval-quality benchmarks (outside the unit tests).", no_args_is_help=True
)


def _pct(value: float | None) -> str:
    return "–" if value is None else f"{100 * value:.1f}"


def _ms(value: float) -> str:
    return f"{value:.1f}"


def _best(rows: Mapping[str, Mapping[str, float | None]], col: str, name: str) -> bool:
    vals = [v for r in rows.values() if (v := r[col]) is not None]
    return bool(vals) and rows[name][col] == max(vals)


def _numbers_table(
    title: str,
    rows: Mapping[str, Mapping[str, float | None]],
    higher_is_better: set[str],
    fmt: Mapping[str, Callable[[Any], str]],
) -> Table:
    """One row per config; the best value of each recall column in bold."""
    cols = list(next(iter(rows.values())))
    table = make_table(title=title)
    table.add_column("config")
    for c in cols:
        table.add_column(c, justify="right")
    for name, row in rows.items():
        cells = []
        for c in cols:
            text = fmt.get(c, _pct)(row[c])
            cells.append(
                f"[bold]{text}[/]" if c in higher_is_better and _best(rows, c, name) else text
            )
        table.add_row(name, *cells)
    return table


def print_retrieval(console: Console, results: Mapping[str, Any]) -> None:
    """Print a results dict of run_locomo / run_dulemon as rich tables (recall in %)."""
    configs: Mapping[str, Any] = results["configs"]
    if results.get("dataset") == "dulemon":
        rows = {
            name: {
                **{f"R{k}": c["recall"][k] for k in c["recall"]},
                "p50 ms": c["search_ms_p50"],
                "p95 ms": c["search_ms_p95"],
            }
            for name, c in configs.items()
        }
        recall_cols = {c for c in next(iter(rows.values())) if c.startswith("R@")}
        console.print(
            _numbers_table(
                "DuLeMon persona recall (%), search latency",
                rows,
                recall_cols,
                {"p50 ms": _ms, "p95 ms": _ms},
            )
        )
        console.print(
            f"{results['personas']} persona sentences, {results['queries']} queries; "
            f"ingest {results['ingest_messages_per_s']} msgs/s"
        )
        return

    def rec(c: Mapping[str, Any], group: str, k: str) -> float | None:
        value: float | None = c["recall"].get(group, {}).get(k)
        return value

    main = {
        name: {
            "R@5": rec(c, "all_1_4", "@5"),
            "R@10": rec(c, "all_1_4", "@10"),
            "R@25": rec(c, "all_1_4", "@25"),
            "session R@10": c["session_recall@10"],
            "p50 ms": c["search_ms_p50"],
            "p95 ms": c["search_ms_p95"],
        }
        for name, c in configs.items()
    }
    console.print(
        _numbers_table(
            "LoCoMo evidence recall (%), categories 1–4",
            main,
            {"R@5", "R@10", "R@25", "session R@10"},
            {"p50 ms": _ms, "p95 ms": _ms},
        )
    )

    first = next(iter(configs.values()))
    counts: Mapping[str, int] = first.get("questions", {})
    # Categories as rows: five categories × three configs stays within 80 columns.
    by_cat = make_table(title="recall by category (%): @5/@10/@25")
    by_cat.add_column("category", no_wrap=True)
    by_cat.add_column("n", justify="right")
    for name in configs:
        by_cat.add_column(name, justify="right", no_wrap=True)
    for cat, label in LOCOMO_CATEGORIES.items():
        if cat == 5:
            by_cat.add_section()  # adversarial: reported apart, not in the 1–4 numbers
        by_cat.add_row(
            f"{cat} {label}",
            str(counts.get(f"cat{cat}", "")),
            *(
                "/".join(_pct(rec(c, f"cat{cat}", k)) for k in ("@5", "@10", "@25"))
                for c in configs.values()
            ),
        )
    console.print(by_cat)
    extra = f"ingest {results['ingest_messages_per_s']} msgs/s ({results['messages']} messages)"
    if "mean_context_tokens" in results:
        extra += (
            f"; mean context block {results['mean_context_tokens']} tokens ({next(iter(configs))})"
        )
    console.print(extra)


def run_retrieval(dataset: Dataset, data: Path) -> dict[str, Any]:
    """Run the benchmark with a progress bar on stderr."""
    from jiyi.evaluation.runner import run_dulemon, run_locomo

    bar = Progress(
        TextColumn("{task.description:<12}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=make_console(stderr=True),
    )
    tasks: dict[str, TaskID] = {}

    def progress(stage: str, done: int, total: int) -> None:
        if stage not in tasks:
            label = stage if stage == "ingest" else f"search {stage}"
            tasks[stage] = bar.add_task(label, total=total)
        bar.update(tasks[stage], completed=done)

    with bar:
        if dataset is Dataset.LOCOMO:
            return run_locomo(data, progress=progress)
        return run_dulemon(data, progress=progress)


@bench_app.command()
def retrieval(
    dataset: Annotated[
        Dataset,
        typer.Option(
            "--dataset", "-d", help="locomo (English, LoCoMo JSON) or dulemon (Chinese, JSONL)."
        ),
    ],
    data: Annotated[
        Path, typer.Argument(metavar="PATH", exists=True, dir_okay=False, help="The dataset file.")
    ],
    out: Annotated[
        Path | None,
        typer.Option(
            "--out",
            "-o",
            dir_okay=False,
            show_default=False,
            help="Where to write the JSON (default: bench/results/retrieval_<dataset>.json).",
        ),
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """Recall@k and latency of jiyi's fused ranking vs. BM25-only and dense-only."""
    with one_line_errors():
        results = run_retrieval(dataset, data)
    out = out or RESULTS_DIR / f"retrieval_{dataset.value}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(results, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    if as_json:
        echo_json(results)
        return
    console = make_console()
    print_retrieval(console, results)
    console.print(f"written to {out}", style="dim", markup=False)
