"""Retrieval benchmark: LoCoMo (English) or DuLeMon (Chinese), jiyi vs. BM25-only vs. dense-only.

The same command as ``jiyi bench retrieval``; prints the tables and writes
bench/results/retrieval_<dataset>.json. Run from the repository root:

    python bench/retrieval.py --dataset locomo ../shared/data/locomo/locomo_dev.json
    python bench/retrieval.py --dataset dulemon ../shared/data/dulemon/samples.jsonl
"""

import typer

from jiyi.cli.bench import retrieval

if __name__ == "__main__":
    typer.run(retrieval)
