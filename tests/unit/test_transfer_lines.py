"""The JSON Lines layout of an export, read and written without a server: what a file from
another tool may look like (CRLF line ends, a byte-order mark, blank lines) reads the same;
what is not valid (NaN, a second line for an object section, a record of a section the
header does not count, an empty file) is refused naming the line, and nothing is written."""

from __future__ import annotations

import json

import pytest

from jiyi import Memory
from jiyi.errors import InvalidInputError
from jiyi.transfer_lines import dump_lines, is_lines, read_lines


def exported(mem: Memory) -> list[str]:
    mem.add("我住在杭州，养了一只猫叫阿橘", user_id="u1")
    mem.tasks.put("u1", "报销", {"step": 2})
    mem.switch.set("u1", "paused")
    mem.switch.set("u1", "on")
    return list(dump_lines(mem.export("u1")))


def test_line_ends_a_bom_and_blank_lines_read_the_same(mem: Memory) -> None:
    lines = exported(mem)
    want = read_lines("".join(lines))
    assert is_lines("".join(lines)) and not is_lines(mem.export("u1").model_dump_json())
    windows = "\ufeff" + "\r\n".join(line.rstrip("\n") for line in lines) + "\r\n\r\n"
    assert is_lines(windows.encode("utf-8"))
    for variant in (windows, windows.encode("utf-8"), "\n\n".join(lines)):
        got = read_lines(variant)
        assert got.model_dump(mode="json") == want.model_dump(mode="json")
    assert want.sections["switch"].state.memory.value == "on"  # an object section: one record
    assert [t.key for t in want.sections["tasks"]] == ["报销"]


def test_what_is_not_valid_names_its_line(mem: Memory) -> None:
    lines = exported(mem)
    header = json.loads(lines[0])
    switch_line = next(
        n for n, line in enumerate(lines) if n and json.loads(line)["section"] == "switch"
    )
    task_line = next(n for n, line in enumerate(lines) if '"section":"tasks"' in line)
    nan = lines[task_line].replace('"step":2', '"step":NaN')
    assert nan != lines[task_line]
    cases: list[tuple[str, str]] = [
        ("".join([*lines, lines[switch_line]]), f"lines.{len(lines) + 1}.section"),
        ("".join([lines[0], '{"section": "tasks", "record": {}, "extra": 1}\n']), "lines.2.extra"),
        ("".join([lines[0], "[1, 2]\n"]), "lines.2"),
        (json.dumps({**header, "counts": {"switch": 2}}) + "\n", "lines.1.counts.switch"),
        (json.dumps({**header, "counts": {"tasks": -1}}) + "\n", "lines.1.counts.tasks"),
        ("\n\n", "lines.1"),
    ]
    cases.append(
        ("".join([*lines[:task_line], nan, *lines[task_line + 1 :]]), f"lines.{task_line + 1}")
    )
    no_tasks = [*lines[:task_line], *lines[task_line + 1 :]]  # cut off: one task short
    cases.append(("".join(no_tasks), f"lines.{len(no_tasks) + 1}"))
    for text, field in cases:
        with pytest.raises(InvalidInputError) as err:
            read_lines(text)
        assert err.value.field == field, text[:200]
        assert "nothing was written" in err.value.message
        # Through the facade the same, and nothing reaches the store.
        with pytest.raises(InvalidInputError):
            mem.import_(text, "u2", remap=True)
    assert mem.list(user_id="u2") == [] and mem.tasks.list("u2") == []
