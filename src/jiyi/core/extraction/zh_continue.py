"""The new value of a slot the clause before said was left (我从阿里离职了，现在在美团做前端 /
不在杭州了，是在宁波 / 豆豆改名了，现在叫球球): the clause after, read in that slot. Pure.
"""

from __future__ import annotations

import re

from jiyi.core.extraction.hit import Context, Hit
from jiyi.core.extraction.lexicon_places import is_place_zh
from jiyi.core.extraction.topics import clean_value
from jiyi.core.extraction.zh_common import is_role, kin_said, third_person_zh
from jiyi.core.extraction.zh_work import _is_org as _is_org_zh
from jiyi.core.extraction.zh_work import work
from jiyi.core.models import MemoryKind

__all__ = ["continuation"]

F = MemoryKind.FACT

_CONTINUE = re.compile(
    r"^(?:现在|目前|后来|如今|已经|都|其实|然后|就|改|转|也|开始)*"
    r"(?P<v>(?:在|去|改|转|转去|转行|改行|转岗)?(?:做|当|干|跑|开|送)(?=[\u4e00-\u9fffA-Za-z]{2})|"
    r"而是|是在|是|在|到了|到|去了|去|进了|考上了?|考进了?|改成|改为|换成|"
    r"换到|搬到了?|搬去了?|搬回了?|改名叫|改叫|叫|转到|转(?=[\u4e00-\u9fff]{2})|读|学|念|改读|改学)"
    r"(?P<x>[^，,不]{1,12}?)(?:专业)?(?:了|上班|工作|住|啦)?$"
)
_CONTINUE_PLAIN = re.compile(
    r"^(?:现在|目前|后来|如今|已经|都|其实|然后)*(?P<v>而是|是在|是|在|到了|到|去了|去|进了|改成|改为|"
    r"换成|换到|搬到了?|搬去了?|搬回了?|改名叫|改叫|叫|当|做|转去做|转去当|转做|改做|改当|去做|去当|"
    r"转行做|转岗做|转到|转(?=[\u4e00-\u9fff]{2})|读|学|念|改读|改学)(?P<x>[^，,不]{1,12}?)(?:专业)?"
    r"(?:了|上班|工作|住|啦)?$"
)

# What someone does for a living said with its verb: 做房仲 / 跑滴滴 / 开出租 / 送外卖.
_ROLE_VERB = re.compile(r"(?:做|当|干|跑|开|送)$")
_TEMPLATES = {
    "location.home": "用户住在{}",
    "location.work": "用户在{}工作",
    "work.employer": "用户在{}工作",
    "work.role": "用户的工作是{}",
    "education.major": "用户的专业是{}",
}


def continuation(c: str, ctx: Context) -> list[Hit]:
    """现在在快手 / 是在宁波 / 改名叫橘子了: the new value of the slot just said to be old."""
    slot = ctx.extra.get("slot")
    if slot and slot.startswith("work.") and re.search(r"(?:在|去|到|调).+(?:做|当|干)", c):
        # (我从阿里离职了，)现在在美团做前端: the whole statement, employer and role
        rest = re.sub(r"^(?:现在|目前|后来|如今|已经|然后|就)+", "", c)
        if hits := work("我现在" + rest, ctx):
            ctx.extra.pop("slot", None)
            for h in hits:
                h.correction = True
            return hits
    title = re.sub(r"^(?:现在|如今|目前|已经)*(?:是|当上了?|当了|当|做|干)?", "", c)
    if (
        slot == "work.role"
        and is_role(title)
        and re.fullmatch(r"[\u4e00-\u9fffA-Za-z]{2,10}", title)
    ):
        # (提了，)党政办副主任 / (我升职了，)现在是部门经理: the new title
        ctx.extra.pop("slot", None)
        return [Hit(F, "work.role", "role.named", value=title, correction=True,
                    content=f"用户的工作是{title}")]  # fmt: skip
    if (
        slot == "work.employer"
        and _is_org_zh(c)
        and re.fullmatch(r"[\u4e00-\u9fffA-Za-z0-9]{3,12}", c)
        and not re.search(r"现在|自己|开|做|当|在|了|还|去|到|是|被|调|那|的", c)
    ):
        # (换厂了，)外高桥造船: the new employer, named alone
        ctx.extra.pop("slot", None)
        return [Hit(F, "work.employer", "employer.named", value=c, correction=True,
                    content=f"用户在{c}工作")]  # fmt: skip
    # (我已经不在银行了，)去年考上了公务员: 去年 is when, not the verb 去
    c = re.sub(r"^(?:去年|今年|前年|上个?月|这个?月|上周|上星期|年初|年底)(?=.{2})", "", c)
    m = _CONTINUE.match(c) if slot else None
    if m and m.group("v") and len(clean_value(m.group("x"))) < 2:
        m = _CONTINUE_PLAIN.match(c)  # 转开发了: 开发 is the value, not 开 + 发
    if not slot or not m or re.search(r"什么|哪|吗", c):
        return []
    value = clean_value(m.group("x"))
    if re.match(r"^(?:到|得)", value) or re.search(r"开心|满意|舒服|辛苦|很|挺|蛮", value):
        return []  # 做到很开心 / 做得挺好: how the work goes, no new value
    ctx.extra.pop("slot", None)
    if slot.endswith(".employer"):  # 现在在比亚迪的厂里: the company, not its shop floor
        value = re.sub(r"(?<=..)(?:的|那边的?)(?:厂里|厂子|车间|店里|公司|那边)$", "", value)
        value = re.sub(r"(?<=..)(?:上班|工作|报到|打工|干活|做)$", "", value)  # 去国家电网上班
    if not value or (
        slot.endswith(".name") and not re.match(r"^(?:现在|改|已经|是)*(?:改名)?叫", c)
    ):
        return []
    verb = m.group("v") or ""
    if (
        slot == "work.employer"
        and (_ROLE_VERB.search(verb) or verb.startswith("考"))
        and not _is_org_zh(value)
    ):
        slot = "work.role"  # 我离开超商了，现在在做房仲: the job now, not a company
    if slot.startswith("family.") and slot.endswith(".employer") and is_place_zh(value):
        slot = slot.rsplit(".", 1)[0] + ".city"  # 我老公换工作了，现在在上海: where, not who
    elif slot == "work.employer" and is_place_zh(value) and not _is_org_zh(value):
        slot = "location.work"  # 我换工作了，现在在上海: the city of the work
    template = _TEMPLATES.get(slot)
    if template is None and slot.endswith(".name"):  # 豆豆改名了，现在叫球球
        kin = kin_said(ctx.extra.get("family_zh", ""))
        template = "用户的宠物叫{}" if slot.startswith("pet.") else f"用户的{kin or '家人'}叫{{}}"
    content = template.format(value) if template else None
    if content is None and slot.startswith("family.") and (who := ctx.extra.get("family_zh")):
        content = third_person_zh(who + c)  # (我老公换工作了，)现在在腾讯: his, not the user's
    generic = slot.split(".")[1] in ("pet", "child", "unknown")  # matched by reconciliation
    # a name said after 不叫X / 改名了 is the name set right, not a second child's
    named = slot.endswith(".name")
    return [Hit(F, slot, "continuation", value=value, content=content, correction=generic or named)]
