"""The profile as the few lines that open a context block (``core/context.py``).

Compact and budgeted: one line per group (who, family and pets, diet and health, active
goals, recent state), labels in the block's language, list items as the memory's own
sentence without its subject ("用户养了一只猫叫阿橘" → "养了一只猫叫阿橘"). Lines are added
in that order while they fit ``max_tokens``; a line that does not fit is shortened to the
items that do. Completed, abandoned and paused goals are left out: the block is about now.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from jiyi.core.models import GoalStatus
from jiyi.core.newer import CHANGED_LABEL, says_changed
from jiyi.core.profile import ProfileValue, UserProfile
from jiyi.core.text import estimate_tokens

__all__ = ["PROFILE_LABEL", "profile_lines"]

PROFILE_LABEL = {"zh": "用户档案", "en": "User profile"}
_LABELS = {
    "zh": {
        "name": "称呼",
        "language": "语言",
        "timezone": "时区",
        "city": "所在城市",
        "hometown": "家乡",
        "occupation": "职业",
        "employer": "单位",
        "school": "学校",
        "family": "家人",
        "pets": "宠物",
        "diet": "饮食",
        "allergies": "过敏",
        "health": "健康",
        "goals": "进行中的目标",
        "states": "近况",
        "by": "目标日期",
    },
    "en": {
        "name": "Name",
        "language": "Language",
        "timezone": "Timezone",
        "city": "City",
        "hometown": "Hometown",
        "occupation": "Occupation",
        "employer": "Employer",
        "school": "School",
        "family": "Family",
        "pets": "Pets",
        "diet": "Diet",
        "allergies": "Allergies",
        "health": "Health",
        "goals": "Active goals",
        "states": "Recently",
        "by": "by",
    },
}
_GROUPS: tuple[tuple[str, ...], ...] = (
    ("name", "language", "timezone", "city", "hometown", "occupation", "employer", "school"),
    ("family", "pets"),
    ("allergies", "health", "diet"),
    ("goals",),
    ("states",),
)
_SUBJECT = re.compile(r"^(?:用户的|用户|the user's |the user |user's |user )", re.IGNORECASE)


def _said(v: ProfileValue) -> str:
    """A list item: the memory's sentence without its subject, or the value set."""
    if v.set_by_user or not v.text:
        return v.value or ""
    return _SUBJECT.sub("", v.text).strip()


def _changed(v: ProfileValue, values: Sequence[ProfileValue], lang: str) -> str:
    """The label of an item a later one of the list says has changed (表哥住在青岛 beside
    表哥现在调去深圳了), as the context block labels such a hit (core/newer.py)."""
    later = [u for u in values if u.updated_at > v.updated_at]
    if not v.text or not any(u.text and says_changed(v.text, u.text) for u in later):
        return ""
    return f"（{CHANGED_LABEL['zh']}）" if lang == "zh" else f" ({CHANGED_LABEL['en']})"


def _items(p: UserProfile, name: str, lang: str) -> list[str]:
    if name == "goals":
        out = []
        for g in p.goals:
            if g.status != GoalStatus.ACTIVE:
                continue
            when = f"（{_LABELS[lang]['by']} {g.target_date:%Y-%m-%d}）" if g.target_date else ""
            if when and lang == "en":
                when = f" (by {g.target_date:%Y-%m-%d})"
            out.append(_said(g) + when)
        return out
    value = getattr(p, name)
    if isinstance(value, list):
        return [s + _changed(v, value, lang) for v in value if (s := _said(v))]
    return [value.value] if value is not None and value.value else []


def profile_lines(profile: UserProfile, lang: str, max_tokens: int) -> list[str]:
    """The profile's lines for a context block in ``lang`` (zh or en), at most
    ``max_tokens`` estimated tokens together; [] when nothing fits or the profile is empty."""
    sep, colon = ("；", "：") if lang == "zh" else ("; ", ": ")
    labels = _LABELS[lang]
    lines: list[str] = []
    used = 0
    for group in _GROUPS:
        parts: list[str] = []
        for name in group:
            items = _items(profile, name, lang)
            if not items:
                continue
            joiner = "、" if lang == "zh" else ", "
            parts.append(f"{labels[name]}{colon}{joiner.join(items)}")
        line = _fit(parts, sep, max_tokens - used)
        if line:
            lines.append(line)
            used += estimate_tokens(line) + 1
    return lines


def _fit(parts: Sequence[str], sep: str, budget: int) -> str | None:
    """``- part; part; …`` with as many leading parts as fit ``budget`` tokens."""
    kept: list[str] = []
    for part in parts:
        line = "- " + sep.join([*kept, part])
        if estimate_tokens(line) + 1 > budget:
            break
        kept.append(part)
    return "- " + sep.join(kept) if kept else None
