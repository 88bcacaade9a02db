"""Task state in the pure core: what a key and a state may be, which tasks a query is about,
and the lines they take in a context block.

Which active tasks join the context for a query (:func:`match_tasks`), in this order:

1. **Words.** A content word of the query (jieba for Chinese, whole words otherwise, no
   stopwords, no bare numbers, no "resume" words, no words every task could carry such as
   "plan", "form" or "step") is a word of the task — of its key
   (``expense_report`` reads as "expense report") or of its state's keys and text values:
   "继续上次的报销单" finds a task whose state says "三月差旅报销单". Chinese also counts
   two-character runs (without function characters such as 我 的 了): jieba cuts
   "帮我继续填报销" into 填报 + 销, but its 报销 still finds the reimbursement form.
2. **Meaning.** Otherwise the query and the task's words are compared by the embedder;
   a calibrated relevance of at least ``min_semantic`` (the same floor a memory without a
   keyword match needs) lets the task in: "continue the expense report" finds
   ``{"form": "差旅报销单"}``.
3. **A bare resume request.** "继续上次的" / "where were we" — resume words and nothing
   else to go by — names no task: the most recently updated active task is the one meant.
   ("继续上次的报销单" with no reimbursement task matches nothing: it names another task.)

Matches come best first: more shared words, then meaning, then the most recent update.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping, Sequence
from typing import Any

from jiyi.core.inputs import check_id, text_problem
from jiyi.core.text import query_terms
from jiyi.core.users import TaskState
from jiyi.errors import InvalidInputError

__all__ = [
    "MAX_TASK_KEY_CHARS",
    "MAX_TASK_STATE_BYTES",
    "check_task_key",
    "check_task_state",
    "content_terms",
    "match_tasks",
    "task_line",
    "task_text",
]

MAX_TASK_KEY_CHARS = 200
#: A task's state as stored (UTF-8 JSON): working state, not a document store.
MAX_TASK_STATE_BYTES = 64 * 1024
MAX_TEXT_CHARS = 400  # of a task's words, for matching (E5 reads 512 tokens at most)
MAX_LINE_CHARS = 300  # of a task's state in a context line
_MAX_DEPTH = 32

# "Continue what we were doing": words that ask to resume, but name no task.
_RESUME = re.compile(
    r"继续|接着|上次|上回|之前|刚才|没做完|没弄完|没填完|回到|"
    r"\b(?:continue|resume|pick(?:ing)? up|left off|where (?:were|was) we|carry on|"
    r"get back to|last time|unfinished)\b",
    re.IGNORECASE,
)
_RESUME_TERMS = frozenset(
    "继续 接着 上次 上回 之前 刚才 回到 continue resume pick picking left off carry get back "
    "last time unfinished where were".split()
)
# Words any task's key or state may carry: sharing one says nothing about which task.
_GENERIC_TERMS = frozenset(
    "plan plans form forms draft task tasks list report step steps status state note notes "
    "todo data info item items progress page stage type name value id key "
    "任务 计划 步骤 状态 进度 草稿 表格 清单 事项".split()
)
_KEY_SEPARATORS = re.compile(r"[_\-.:#]+")
_CJK_RUN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff]{2,}")
# Characters that make a two-character run say nothing about a task ("我的", "个菜", "了吗").
_FUNCTION_CHARS = frozenset(
    "我你他她它们的地得了着过吗呢吧啊呀么个这那些是在有和与就都也还再把被给让帮请一"
)


# -- input rules ----------------------------------------------------------------------------


def check_task_key(value: object) -> str:
    """A task key: an id of 1-200 characters without control characters and without "/",
    so it is one segment of ``/v1/users/{id}/tasks/{key}`` (InvalidInputError, ``key``)."""
    key = check_id(value, "key")
    assert key is not None
    if len(key) > MAX_TASK_KEY_CHARS:
        raise InvalidInputError(f"key is longer than {MAX_TASK_KEY_CHARS} characters", field="key")
    if "/" in key:
        raise InvalidInputError("key must not contain '/'", field="key")
    return key


def check_task_state(value: object) -> str:
    """The state as the JSON text to store. Refused (InvalidInputError, ``field`` "state"
    or the path inside it, e.g. "state.items[2]"): anything but an object, non-string
    object keys, NaN or infinite numbers, text with NUL or lone surrogates (PostgreSQL's
    jsonb cannot hold them), nesting deeper than 32, or more than 64 KiB as JSON."""
    if not isinstance(value, dict):
        raise InvalidInputError("state must be a JSON object", field="state")
    _check_json(value, "state", 0)
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    if len(text.encode("utf-8")) > MAX_TASK_STATE_BYTES:
        raise InvalidInputError(
            f"state is larger than {MAX_TASK_STATE_BYTES // 1024} KiB as JSON", field="state"
        )
    return text


def _check_json(value: object, path: str, depth: int) -> None:
    if depth > _MAX_DEPTH:
        raise InvalidInputError(f"{path} is nested deeper than {_MAX_DEPTH} levels", field=path)
    if isinstance(value, dict):
        for k, v in value.items():
            if not isinstance(k, str):
                raise InvalidInputError(f"{path} has a key that is not a string", field=path)
            _check_text(k, path)
            _check_json(v, f"{path}.{k}", depth + 1)
    elif isinstance(value, list | tuple):
        for i, v in enumerate(value):
            _check_json(v, f"{path}[{i}]", depth + 1)
    elif isinstance(value, str):
        _check_text(value, path)
    elif isinstance(value, float):
        if not math.isfinite(value):
            raise InvalidInputError(f"{path} must be a finite number", field=path)
    elif value is not None and not isinstance(value, bool | int):
        raise InvalidInputError(
            f"{path} must be JSON (object, array, string, number, true, false or null), "
            f"not {type(value).__name__}",
            field=path,
        )


def _check_text(value: str, path: str) -> None:
    why = text_problem(value)
    if why is not None:
        raise InvalidInputError(f"{path} {why}", field=path)


# -- matching -------------------------------------------------------------------------------


def task_text(task: TaskState) -> str:
    """The words a task is found by: its key (``_ - . : #`` read as spaces), then the keys
    and text values of its state, depth first, at most 400 characters."""
    parts = [_KEY_SEPARATORS.sub(" ", task.key).strip()]
    _words(task.state, parts)
    return " ".join(p for p in parts if p)[:MAX_TEXT_CHARS]


def _words(value: Any, out: list[str]) -> None:
    if isinstance(value, dict):
        for k, v in value.items():
            out.append(_KEY_SEPARATORS.sub(" ", k))
            _words(v, out)
    elif isinstance(value, list):
        for v in value:
            _words(v, out)
    elif isinstance(value, str):
        out.append(value)


def content_terms(text: str) -> set[str]:
    """The words of ``text`` a task match counts (rule 1): content words, and for Chinese
    the two-character runs without a function character."""
    skip = _RESUME_TERMS | _GENERIC_TERMS
    words = {t for t in query_terms(text) if not t.isdigit() and t not in skip}
    for run in _CJK_RUN.findall(text):
        for i in range(len(run) - 1):
            pair = run[i : i + 2]
            if not _FUNCTION_CHARS.intersection(pair) and pair not in skip:
                words.add(pair)
    return words


def match_tasks(
    query: str,
    tasks: Sequence[TaskState],
    *,
    semantic: Mapping[str, float] | None = None,
    min_semantic: float = 0.7,
) -> list[TaskState]:
    """The tasks ``query`` is about, best first (the rules in the module docstring).

    Args:
        tasks: the user's active tasks, most recently updated first.
        semantic: calibrated relevance (0..1) of the query to each task, by key; None
            when no embedder was asked (words and resume requests still match).
        min_semantic: the relevance a task without a shared word needs.
    """
    words = content_terms(query)
    scored: list[tuple[float, int, TaskState]] = []
    for order, task in enumerate(tasks):
        shared = len(words & content_terms(task_text(task)))
        relevance = (semantic or {}).get(task.key, 0.0)
        if shared:
            scored.append((1.0 + shared, order, task))
        elif relevance >= min_semantic:
            scored.append((relevance, order, task))
    if not scored and tasks and not words and _RESUME.search(query):
        return [tasks[0]]
    scored.sort(key=lambda s: (-s[0], s[1]))
    return [task for _, _, task in scored]


# -- context lines --------------------------------------------------------------------------


def task_line(task: TaskState, lang: str) -> str:
    """One context line: the key, the version, and the state as compact JSON (cut at 300
    characters, marked "…")."""
    state = json.dumps(task.state, ensure_ascii=False, separators=(", ", ": "))
    if len(state) > MAX_LINE_CHARS:
        state = state[: MAX_LINE_CHARS - 1] + "…"
    updated = task.updated_at.strftime("%Y-%m-%d")
    if lang == "zh":
        return f"- {task.key}（第{task.version}版，更新于{updated}）：{state}"
    return f"- {task.key} (version {task.version}, updated {updated}): {state}"
