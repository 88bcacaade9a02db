"""A new title at the same employer, or a new employer for the same job: the other work slot
stays in the new memory.

在永辉超市当理货员, then 店长把我提成值班主管了: the rules read the new title alone
(用户的工作是值班主管), and superseding the old memory split its employer off as a memory of
its own (用户在永辉超市工作), which then answered "我在超市做什么岗位" before the title did. A
promotion, or a title set right with the old one named (我是副科长不是科员), says the
employer is the same; the old memory is said again with the new title in the old one's
place, its employer kept as a part (nothing to split off). A title said with a new job or
employer (跳槽, "left", "new job") keeps the old behaviour: the employer may have changed.
A new employer for a memory that also held the job (在圆通做快递员 → 现在跑京东) is said the
same way (在京东做快递员): the job would have been split off as still the user's anyway, and
one memory answers "我在哪家快递公司" with both. A business of one's own takes the job along
(decide._split_off), so it is left as it is.
"""

from __future__ import annotations

import re

from jiyi.core.extraction.en_common import NUM_WORD, number
from jiyi.core.models import Candidate, MemoryItem
from jiyi.core.slots import PART_TEXTS, PARTS, same_value
from jiyi.core.text import as_said, to_simplified

__all__ = ["promoted", "renamed_kept"]

_ROLE, _EMPLOYER = "work.role", "work.employer"
_PROMOTION = re.compile(
    r"提拔|提成|提为|提升为|升为|升成|升职|升任|晋升|被提|升上|转正|当上|(?:起|开始)(?:是|当|做)|"
    r"\bpromot|\bbump(?:ed)? (?:me )?up\b|\bmoved (?:me )?up\b|\bmade me\b|"
    r"\b(?:was|got|been) made\b|"
    r"\bstepped up to\b",
    re.IGNORECASE,
)
_NEW_JOB = re.compile(
    r"跳槽|辞职|离职|换工作|新工作|新公司|入职|去了|\bleft\b|\bquit\b|\bnew job\b|\bjoined\b|"
    r"\bhired\b|\bstarted at\b",
    re.IGNORECASE,
)
# A change of job said as such (not only of employer): the title may change with it.
_JOB_CHANGED = re.compile(
    r"跳槽|换工作|换了工作|换了份工作|新工作|转行|改行|\bnew job\b|\bcareer change\b|\bjob hop",
    re.IGNORECASE,
)


# A relative's or pet's attribute that changes while their name stays.
_NAMED_ATTR = re.compile(r"^(?P<who>(?:family|pet)\.[a-z_]+)\.(?:age|grade|school|breed)$")


def renamed_kept(c: Candidate, target: MemoryItem) -> Candidate:
    """``c`` (a new age, grade, school or breed of a relative or pet) as ``target`` said with
    the new value, when ``target`` says that value beside the name (User's son Theo is 6 →
    "he turned seven": User's son Theo is seven); ``c`` itself otherwise. The name would
    have been split off as a memory of its own, and then answered "how old is Theo?"."""
    m = _NAMED_ATTR.match(c.topic or "")
    parts = dict(target.metadata.get(PARTS) or {})
    if not m or target.topic != c.topic or f"{m['who']}.name" not in parts or not c.value:
        return c
    if (c.metadata.get(PARTS) or {}).get(f"{m['who']}.name") or not target.value:
        return c
    old = str(target.value)
    content = to_simplified(target.content)
    at = content.lower().rfind(old.lower())
    around = (content[at - 1 : at] if at > 0 else "") + content[at + len(old) : at + len(old) + 1]
    if at < 0 or re.search(r"[A-Za-z0-9]", around):  # (3 of "3rd grade": part of a word)
        return c
    said = c.quote or c.content
    new = as_said(said, str(c.value))
    if new.isdigit() and new not in said:  # "he turned seven": the user's word for 7
        words = [w for w in re.findall(rf"\b(?:{NUM_WORD})\b", said, re.I) if number(w) == new]
        new = words[0] if words else new
    told = target.content[:at] + new + target.content[at + len(old) :]
    meta = {**target.metadata, **c.metadata, PARTS: parts}
    return c.model_copy(update={"content": told, "metadata": meta})


def promoted(c: Candidate, target: MemoryItem) -> Candidate:
    """``c`` (a new title or employer superseding ``target``) as ``target`` said with the new
    value in the old one's place, when the other work slot stays (see the module doc); ``c``
    itself otherwise."""
    parts = dict(target.metadata.get(PARTS) or {})
    if c.topic not in (_ROLE, _EMPLOYER) or not c.value or target.topic not in (_ROLE, _EMPLOYER):
        return c
    other = _EMPLOYER if c.topic == _ROLE else _ROLE
    if other not in (target.topic, *parts) or (c.metadata.get(PARTS) or {}).get(other):
        return c
    old = parts.get(c.topic) if target.topic != c.topic else target.value
    said = c.quote or c.content
    if (
        not old
        or same_value(str(old), str(c.value))  # (the slot kept its value: 从运营专员变成运营经理
        # said in the employer's slot)
        or str(c.value).startswith("not ")
        or str(c.metadata.get("rule", "")).endswith(("employer.own", "employer.quit"))
    ):
        return c
    plain = to_simplified(said)
    if c.topic == _EMPLOYER and _JOB_CHANGED.search(plain):
        # 我跳槽到市一院了: a new job, whose title may follow; the role keeps its own memory
        return c
    if c.topic == _ROLE and (
        _NEW_JOB.search(plain)
        or not (_PROMOTION.search(plain) or (c.is_correction and to_simplified(str(old)) in plain))
    ):
        return c
    at = to_simplified(target.content).lower().find(to_simplified(str(old)).lower())
    if at < 0:
        return c
    new = as_said(said, c.value)
    content = target.content[:at] + new + target.content[at + len(str(old)) :]
    if target.topic == c.topic:
        meta = {**target.metadata, **c.metadata, PARTS: parts}
        return c.model_copy(update={"content": content, "metadata": meta})
    texts = {**(target.metadata.get(PART_TEXTS) or {}), c.topic: c.content}
    meta = {**target.metadata, **c.metadata, PARTS: {**parts, c.topic: c.value}, PART_TEXTS: texts}
    return c.model_copy(
        update={"topic": target.topic, "value": target.value, "content": content, "metadata": meta}
    )
