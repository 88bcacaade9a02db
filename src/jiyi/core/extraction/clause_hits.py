"""What one clause of a user message yields, for the clause loop of
:class:`jiyi.core.extraction.rules.RuleExtractor`: the zh slot rules, then the en ones, and
the fallbacks tried when they find nothing.

In order: 孙子九月份就上大班了 (a relative's word alone) read as the user's relative; the right
value after a wrong one (我老家不是成都，是绵阳 / 是对芝麻); the en rules; an allergy said as
"its horses" after one denied; a bare value after a correction marker (说错了，是1990年 / I meant
Lisbon); the replacement named beside a wrong value; a rename (renamed Biscuit to Waffles / 给改成
豆包了); a move read by the value's type (今年我们一家都搬回泉州住了), the mover's home.

Apart from :mod:`.rules` because that module walks the message clause by clause (forget
requests, corrections, whose clause it is, candidates); this one only turns one clause, with
what the loop knows so far, into hits.
"""

from __future__ import annotations

import re

from jiyi.core.extraction.en import match_en
from jiyi.core.extraction.hit import Context, Hit
from jiyi.core.extraction.infer import (
    bare_replacement,
    bare_value,
    called_now,
    moved_to,
    rename_first,
    renamed,
)
from jiyi.core.extraction.lexicon import RELATIONS_ZH
from jiyi.core.extraction.markers import ITS_EN as _ITS_EN
from jiyi.core.extraction.subject import SOMEONE_ELSE, Who
from jiyi.core.extraction.zh import match_zh
from jiyi.core.extraction.zh_common import normalise_zh
from jiyi.core.models import MemoryKind
from jiyi.core.text import has_cjk, to_simplified

__all__ = ["clause_hits"]


def _mover_home(moved: Hit, who: Who, ctx: Context, lang: str) -> list[Hit]:
    """Whose home a move names: the relative still the subject of a clause that names
    nobody (我妈受不了东北的冬天，去年年底搬到三亚养老了 / "my brother packed his bags and
    moved to Denver": theirs), else the user's."""
    kin = ctx.extra.get(f"family_{lang}")
    if who != Who.UNSAID or not kin or moved.topic != "location.home":
        return [moved]
    said = f"{kin}住在{moved.value}" if lang == "zh" else f"{kin} lives in {moved.value}"
    hits = match_zh(said, ctx) if lang == "zh" else match_en(said, ctx)
    return [h for h in hits if h.topic.startswith("family.")]


# A clause that opens with a relative's word alone (孙子 / 闺女 / 老公), not 我孙子
_BARE_KIN_ZH = re.compile(
    rf"^(?:{'|'.join(sorted((w for w in RELATIONS_ZH if len(w) > 1), key=len, reverse=True))})"
    r"(?!的|们)"
)
_PASSING = (MemoryKind.EVENT, MemoryKind.STATE)


def _about(hit: Hit) -> bool:
    """A free note about a relative (family.son.about), no slot of theirs."""
    return hit.topic.startswith("family.") and hit.topic.endswith(".about")


def clause_hits(
    clause: str,
    ctx: Context,
    who: Who,
    *,
    pending: str | None,
    frame: str,
    replaces: str | None,
    ahead: re.Match[str] | None,
    strong: bool,
    correcting: bool,
    first: bool,
) -> tuple[str, list[Hit], str | None]:
    """(language, hits, what they replace) for ``clause``: ``pending`` is the value said wrong
    before, ``frame`` what a clause said before the value it took back (我老家 | 不是成都),
    ``replaces`` the value the clause's marker takes back, ``ahead`` the next clause's "not X"
    (see :meth:`jiyi.core.extraction.rules.RuleExtractor.extract`); ``first``: the message's
    first clause with content, no candidate yet."""
    lang, hits = "zh", match_zh(clause, ctx) if has_cjk(clause) else []
    if _BARE_KIN_ZH.match(clause) and all(h.kind in _PASSING or _about(h) for h in hits):
        # 孙子九月份就上大班了 / 儿子这学期升初二了: a relative said without 我 is
        # still the user's (and "is in 初二" says more than a note about the son)
        kin = [h for h in match_zh("我" + clause, ctx) if h.topic.startswith("family.")]
        if any(not _about(h) for h in kin) or all(h.kind in _PASSING for h in hits):
            hits = kin or hits
    contrast = re.match(r"^(?:只|而|其实|应该)?(?:是|係|系)(?=.{2})", clause) if pending else None
    if not hits and contrast and frame:  # 我老家不是成都，是绵阳: 我老家 + 是绵阳
        hits = match_zh(frame + clause, ctx)
    if not hits and contrast:  # 不是牛奶过敏，只是乳糖不耐受: 是 + what the user has
        hits = match_zh("我" + clause[contrast.end() :], ctx)
    allergy = normalise_zh(to_simplified(str(pending))).endswith("过敏")
    if not hits and contrast and allergy and "过敏" not in clause:
        hits = match_zh("我" + clause[contrast.end() :] + "过敏", ctx)  # 是对芝麻
    if not hits and (re.search(r"[A-Za-z]", clause) or not has_cjk(clause)):
        lang, hits = "en", match_en(clause, ctx)
    if ctx.extra.pop("allergy_next", None) and (
        its := _ITS_EN.match(clause)
    ):  # "not allergic to dogs at all, its horses lol": the allergy there is
        hits = match_en(f"I'm allergic to {its['x']}", ctx) or hits
    if any(h.topic.startswith("health.allergy.") and h.value == "no" for h in hits):
        ctx.extra["allergy_next"] = "1"
    if not hits and (strong or replaces or pending or ahead or (correcting and first)):
        lang = "zh" if has_cjk(clause) else "en"
        hits = bare_value(clause, lang)  # 说错了，是1990年 / I meant Lisbon
    if not hits and (replaces or pending or ahead) and (named := bare_replacement(clause, lang)):
        hits = [named]  # I meant cashews, not peanuts: the slot that holds "peanuts"
    if not hits and (rename := renamed(clause, "zh" if has_cjk(clause) else "en")):
        hits, replaces = [rename[0]], rename[1]  # renamed Biscuit to Waffles: Biscuit's
    renamed_pet = any(h.topic.startswith("pet.") and h.topic.endswith(".name") for h in hits)
    if (
        (old_name := ctx.extra.pop("rename_old", None))
        and not renamed_pet  # (给猫改名了，)孩子们都叫它奶盖: the cat's, read already
        and (named_now := called_now(clause))
    ):
        hits, replaces = [named_now], old_name  # 汤圆改名了，后来决定叫它阿肥: 汤圆's name
    only_about = all((h.topic or "").endswith(".about") for h in hits)
    if only_about and has_cjk(clause) and (old_said := rename_first(clause)):
        ctx.extra["rename_old"] = old_said  # (我外孙嫌小翠这名儿土，)给改成豆包了
    if (
        all(h.kind in (MemoryKind.EVENT, MemoryKind.STATE) for h in hits)
        and who not in SOMEONE_ELSE
        and (moved := moved_to(clause, said_in := "zh" if has_cjk(clause) else "en"))
    ):  # 今年我们一家都搬回泉州住了: where the user lives now, by the value's type
        hits = [*hits, *_mover_home(moved, who, ctx, said_in)]
    return lang, hits, replaces
