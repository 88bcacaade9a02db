"""Every ```python block of README.md runs, on the real default embedder, and its comments
hold.

Each block runs once (in its own temp dir with JIYI_HOME set, so ``Memory()`` finds its
file there) and every ``Memory.add`` call is recorded with the README line it was made
from. Then:

- a ``mem.add(...)  # ADD location.home, SUPERSEDE 北京 → 上海, DELETE (hard)`` comment is
  a list of claims about that call's events: each named event happened (with the named
  slot; for ``SUPERSEDE a → b`` the old value a and the new value b; ``history kept``: the
  superseded memory's history still has its content; ``its message too``: the deleted
  memory's source messages are gone as well);
- comment lines right after a ``print`` are the output it shows: they appear in what the
  block printed, in order (whitespace aside);
- the prose claims next to code (``# never stored as a fact``, ``# the peanut allergy is
  always included``) are checked where they appear.
"""

from __future__ import annotations

import contextlib
import io
import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from jiyi import Memory
from jiyi.core.models import Action, AddResult, MemoryKind
from jiyi.core.slots import same_value

README = Path(__file__).resolve().parents[2] / "README.md"
BLOCKS = re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), re.S)
EVENTS = "|".join(a.value for a in Action)
CLAIM = re.compile(rf"^({EVENTS})\b\s*(.*)$")


@dataclass
class Run:
    source: str
    home: Path
    output: str = ""
    # README line number (1-based, within the block) → (the Memory, what add() returned)
    adds: dict[int, tuple[Memory, AddResult]] = field(default_factory=dict)
    memories: list[Memory] = field(default_factory=list)


def _run(index: int, tmp: Path, e5: Any) -> Run:  # type: ignore[no-untyped-def]
    """Execute block ``index`` with Memory.add recorded and the default embedder shared."""
    run = Run(BLOCKS[index], tmp)
    filename = f"<README.md python block {index}>"
    real_add, real_init = Memory.add, Memory.__init__

    def add(self: Memory, *args: Any, **kw: Any) -> AddResult:
        res = real_add(self, *args, **kw)
        frame = sys._getframe(1)
        if frame.f_code.co_filename == filename:
            run.adds[frame.f_lineno] = (self, res)
        return res

    def init(self: Memory, *args: Any, **kw: Any) -> None:
        kw.setdefault("embedder", e5)  # the default embedder, loaded once per session
        real_init(self, *args, **kw)
        run.memories.append(self)

    out = io.StringIO()
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("JIYI_HOME", str(tmp))
        # The LLM block only builds a client; nothing is called.
        mp.setenv("JIYI_LLM_BASE_URL", "http://127.0.0.1:9/v1")
        mp.chdir(tmp)
        mp.setattr(Memory, "add", add)
        mp.setattr(Memory, "__init__", init)
        with contextlib.redirect_stdout(out):
            exec(compile(run.source, filename, "exec"), {"__name__": "readme"})
    run.output = out.getvalue()
    return run


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory, e5) -> Iterator[list[Run]]:  # type: ignore[no-untyped-def]
    done = [_run(i, tmp_path_factory.mktemp(f"readme{i}"), e5) for i in range(len(BLOCKS))]
    yield done
    for run in done:
        for m in run.memories:
            m.close()


def _squash(text: str) -> str:
    return " ".join(text.split())


def test_readme_has_python_blocks() -> None:
    assert len(BLOCKS) >= 2


@pytest.mark.parametrize("index", range(len(BLOCKS)))
def test_block_runs(runs: list[Run], index: int) -> None:
    run = runs[index]
    assert len(run.adds) == run.source.count("mem.add(")  # every add() ran, once
    assert run.memories  # every block opens a Memory


def _event_claims(source: str) -> list[tuple[int, str]]:
    """(line, claim) for every event named in a comment after a single-line add call."""
    found = []
    for n, line in enumerate(source.splitlines(), 1):
        code, _, comment = line.partition("#")
        if "mem.add(" not in code or not code.rstrip().endswith(")"):
            continue
        for part in comment.split(","):
            found.append((n, part.strip()))
    return found


def _check_claim(mem: Memory, res: AddResult, claim: str, previous: list[str]) -> None:
    m = CLAIM.match(claim)
    if m is None:  # prose about the claim before it ("history kept", "its message too")
        if claim.startswith("history kept"):
            (sup,) = [e for e in res.events if e.event == Action.SUPERSEDE]
            assert sup.previous is not None
            trail = mem.history(sup.previous.id)
            assert trail[-1].action == Action.SUPERSEDE and trail[-1].content
        elif claim.startswith("its message too"):
            deleted = [e.memory for e in res.events if e.event == Action.DELETE]
            assert deleted
            for d in deleted:
                episodes = mem.list(user_id=d.user_id, include_episodes=True)
                left = [
                    e for e in episodes if set(e.source_message_ids) & set(d.source_message_ids)
                ]
                assert left == [], [e.content for e in left]
        previous.append(claim)
        return
    event, rest = Action(m.group(1)), m.group(2)
    events = [e for e in res.events if e.event == event]
    assert events, f"no {event} event in {[(e.event, e.memory.topic) for e in res.events]}"
    rest = re.sub(r"\(.*?\)", "", rest).strip()  # "(hard)"
    arrow = re.match(r"^(.+?)\s*(?:→|->)\s*(.+)$", rest)
    if arrow:
        old, new = arrow.groups()
        assert any(
            e.previous is not None
            and (same_value(e.previous.value, old) or old in e.previous.content)
            and (same_value(e.memory.value, new) or new in e.memory.content)
            for e in events
        ), [(e.previous and e.previous.content, e.memory.content) for e in events]
    elif rest:
        slot = rest.split()[0]
        assert any(
            e.memory.topic == slot or (e.memory.topic or "").startswith(slot + ".") for e in events
        ), f"no {event} of {slot}: {[(e.event, e.memory.topic) for e in res.events]}"
    previous.append(claim)


@pytest.mark.parametrize("index", range(len(BLOCKS)))
def test_event_comments_hold(runs: list[Run], index: int) -> None:
    run = runs[index]
    claims = _event_claims(run.source)
    previous: list[str] = []
    for n, claim in claims:
        if not claim or not (CLAIM.match(claim) or previous):
            continue  # a plain comment, no claim about events
        mem, res = run.adds[n]
        _check_claim(mem, res, claim, previous)


def _printed_claims(source: str) -> list[str]:
    """Comment lines that directly follow a print(...) line (or each other): its output."""
    shown: list[str] = []
    lines = source.splitlines()
    for i, line in enumerate(lines):
        if not line.lstrip().startswith("# ") or i == 0:
            continue
        j = i - 1
        while j >= 0 and lines[j].lstrip().startswith("# "):
            j -= 1
        if j >= 0 and "print(" in lines[j]:
            shown.append(line.lstrip()[2:])
    return shown


@pytest.mark.parametrize("index", range(len(BLOCKS)))
def test_printed_comments_hold(runs: list[Run], index: int) -> None:
    run = runs[index]
    printed = [_squash(line) for line in run.output.splitlines()]
    at = 0
    for expected in _printed_claims(run.source):
        want = _squash(expected)
        assert want in printed[at:], f"{expected!r} not printed; got:\n{run.output}"
        at = printed.index(want, at) + 1


def _block_with(text: str) -> int:
    (index,) = [i for i, b in enumerate(BLOCKS) if text in b]
    return index


def test_assistant_words_are_never_stored_as_a_fact(runs: list[Run]) -> None:
    run = runs[_block_with("# never stored as a fact")]
    ((mem, res),) = [v for v in run.adds.values() if len(v[1].episodes) > 1]
    assistant = [e for e in res.episodes if e.role == "assistant"]
    assert assistant
    said_by_assistant = {i for e in assistant for i in e.source_message_ids}
    user = assistant[0].user_id
    for m in mem.list(user_id=user):
        assert m.kind != MemoryKind.EPISODE
        assert not set(m.source_message_ids) & said_by_assistant, m.content
        assert m.origin != "inferred"


def test_the_peanut_allergy_is_always_in_the_context(runs: list[Run]) -> None:
    run = runs[_block_with("# the peanut allergy is always included")]
    # The snippet asks for "dinner ideas", which does not mention peanuts.
    context_out = run.output[run.output.index("What you remember") :]
    assert "allergic to peanuts" in context_out


def test_first_block_remembers_session_one_in_session_two(runs: list[Run]) -> None:
    """The context printed for "帮我挑杯咖啡吧" carries the coffee preferences of session 1."""
    run = runs[_block_with("帮我挑杯咖啡吧")]
    first_context = run.output[run.output.index("关于这位用户") :]
    assert "冷萃" in first_context and "不加糖" in first_context


def test_memory_without_a_path_lives_in_jiyi_home(runs: list[Run]) -> None:
    run = runs[_block_with("$JIYI_HOME/jiyi.db")]
    assert (run.home / "jiyi.db").is_file()
    assert not (run.home / ".jiyi").exists()
