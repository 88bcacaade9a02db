"""Person words: the user's own family and pets versus everyone else.

One list per side and language, read by :mod:`.subject` (whose clause is it?). Kin are the
relations of :mod:`.lexicon` (``RELATIONS_ZH`` / ``RELATIONS_EN``, the words every relative
rule keys on) and pets; a clause said of them can hold a fact of the user's household. Others
are people of the user's circle who are not family (朋友, 同事, "a friend of mine", "my
boss"): what is said of them is theirs. Chinese words are simplified; callers simplify first
(traditional 鄰居 / 老闆 read as 邻居 / 老板).

A new word for a non-family person goes here once, and every reader of subjects (the rule
extractor's "someone else" skip, retraction, the typed swap) knows it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Literal

from jiyi.core.extraction.lexicon import PETS_EN, PETS_ZH, RELATIONS_EN, RELATIONS_ZH, word_set

__all__ = [
    "ADJ_EN",
    "ANYONE_EN",
    "ANYONE_ZH",
    "CIRCLES_ZH",
    "ELDERS_ZH",
    "KIN_EN",
    "KIN_ZH",
    "NEARBY_ZH",
    "OTHERS_EN",
    "OTHERS_ZH",
    "PARTNERS_EN",
    "PARTNERS_ZH",
    "SURNAMES_ZH",
    "person_kind",
    "words_re",
]

KIN_ZH = frozenset(RELATIONS_ZH) | frozenset(PETS_ZH)
KIN_EN = frozenset(RELATIONS_EN) | frozenset(PETS_EN)

# People who are not family. "ex" is no relative any more; a partner is (RELATIONS_EN).
OTHERS_ZH = word_set(
    """
    朋友 同事 老板 领导 同学 室友 邻居 客户 闺蜜 发小 哥们 网友 前任 上司 下属 组长 经理 舍友
    学长 学姐 学弟 学妹 队友 老师 同桌 房东 合伙人 搭档 老乡 战友 师兄 师姐 师弟 师妹 导师 教练
    班主任 主管 总监 老总 HR hr 前男友 前女友 前夫 前妻 前度
    站长 店长 厂长 队长 班长 科长 处长 所长 院长 校长 村长 主任
    """
)
OTHERS_EN = word_set(
    """
    friend colleague boss coworker co-worker roommate room-mate neighbor neighbour classmate
    client customer buddy bestie pal mate bff ex manager teammate landlord landlady teacher
    supervisor tenant housemate flatmate workmate coach
    """
)
# Words before an English non-family word that keep it one person: "my best friend".
ADJ_EN = word_set("best old new close good former work gym school college uni church")
# After a relative's "'s" / 的, a partner of theirs is no relative of the user's: "my sister's
# boyfriend works at Apple", 我妹的男友对花生过敏 (as OTHERS_*: "my brother's roommate").
PARTNERS_ZH = word_set("男朋友 女朋友 男友 女友")
PARTNERS_EN = word_set("boyfriend girlfriend in-laws")
# Nobody in particular, or everybody: what they do is no fact of the user's.
ANYONE_ZH = word_set("大家 别人 有人 有个人 某人")
ANYONE_EN = word_set("someone somebody everyone everybody people") | {"a lot of people"}
# 我们公司的同事 / 咱们班主任 / 我大学室友 / 我老同学: the circle (or the time) the person is
# known from, between "我们" and the person.
CIRCLES_ZH = word_set(
    "公司 单位 部门 班 组 学校 小区 团队 大学 高中 初中 小学 中学 研究生 以前 之前 前 老 新 好"
)
# 隔壁 / 楼上 / 我楼下的 (邻居): neighbours named by where they live.
NEARBY_ZH = word_set("隔壁 楼上 楼下 对门 对面 隔篱 隔篱屋")  # 隔籬 (Cantonese): next door
# 王阿姨 / 李叔叔: an elder called by surname is a neighbour or an acquaintance, not kin.
ELDERS_ZH = word_set("阿姨 叔叔 大爷 大妈 奶奶 爷爷 伯伯 婶 婶婶")
# 小王 / 老李: an acquaintance called by surname.
SURNAMES_ZH = "王李张刘陈杨赵黄周吴徐孙马朱胡郭何林罗高郑梁谢宋唐"


def person_kind(word: str) -> Literal["kin", "other"] | None:
    """Is ``word`` a relative or pet of the user's (``kin``), someone else (``other``), or no
    person word at all? Case-insensitive; Chinese in simplified script."""
    low = word.strip().lower()
    if low in KIN_ZH or low in KIN_EN:
        return "kin"
    if low in OTHERS_ZH or low in OTHERS_EN or low in ANYONE_ZH or low in ANYONE_EN:
        return "other"
    return None


def words_re(words: Iterable[str], plural: bool = False) -> str:
    """A regex alternation of ``words``, longest first; English words end on a word boundary
    (with an optional plural ``s`` when ``plural``), Chinese ones cannot."""
    out = []
    for w in sorted(words, key=len, reverse=True):
        if w.isascii():
            out.append(rf"{re.escape(w)}{'(?:e?s)?' if plural else ''}\b")
        else:
            out.append(re.escape(w))
    return "|".join(out)
