"""The entry point :func:`match_zh` for Chinese clauses, which tracks the clause's subject;
the time-bound rules (goals, plans, states, past events) are in
:mod:`jiyi.core.extraction.zh_timebound`.

The subject of a clause is the user unless it names someone (我女儿…, 我家狗…); a clause
without a subject of its own continues the last one named ("我女儿叫朵朵，今年六岁"), and a
clause that only gives a new value continues the slot the clause before said no longer holds
("我已经不在字节了，现在在快手").
"""

from __future__ import annotations

import re
from collections.abc import Callable

from jiyi.core._timebase import cn_number
from jiyi.core.extraction.hit import Context, Hit
from jiyi.core.extraction.learning import language
from jiyi.core.extraction.lexicon import DRINK_RE, DRINKS
from jiyi.core.extraction.plans import plan_change
from jiyi.core.extraction.profile import profile_zh
from jiyi.core.extraction.services import service
from jiyi.core.extraction.things import app, car, team
from jiyi.core.extraction.zh_common import (
    CHANGE_RE,
    PET_WORD,
    REL,
    drop_when_lead,
    normalise_zh,
    pet_key,
    third_person_zh,
)
from jiyi.core.extraction.zh_continue import continuation
from jiyi.core.extraction.zh_facts import education, identity, location, marital, regimen, traits
from jiyi.core.extraction.zh_habits import habit, habit_change
from jiyi.core.extraction.zh_health import allergy, condition, intolerance, medication
from jiyi.core.extraction.zh_open import open_work_zh
from jiyi.core.extraction.zh_people import (
    aged_after_birthday,
    family,
    new_name,
    pet,
    pet_continuation,
    renamed,
)
from jiyi.core.extraction.zh_pets import rename_said
from jiyi.core.extraction.zh_tastes import avoid, drink, dropped, preference
from jiyi.core.extraction.zh_timebound import exam_switch, past_event, plan, state
from jiyi.core.extraction.zh_work import work
from jiyi.core.models import MemoryKind
from jiyi.core.timewords import find_time_window

__all__ = ["match_zh", "third_person_zh"]

F, S = MemoryKind.FACT, MemoryKind.STATE


_FACTS: tuple[Callable[[str, Context], list[Hit]], ...] = (
    profile_zh,
    family,
    pet,
    renamed,
    allergy,
    intolerance,
    regimen,
    medication,
    condition,
    identity,
    traits,
    marital,
    education,
    service,
    language,
    work,
    location,
    car,
    app,
    team,
)
_RULES: tuple[Callable[[str, Context], list[Hit]], ...] = (
    *_FACTS,
    drink,
    avoid,
    preference,
    dropped,
    habit_change,
    state,
    habit,
    exam_switch,
    plan,
    past_event,
)

# A lead that frames a statement about the user without changing it: 上个月我搬到了西安.
_LEAD = re.compile(
    r"^(?:我(?=(?:辞职|离职|退休|毕业|结婚|生完孩子|过完生日)))?(?P<pre>(?:过完生日|过了生日|过了年|过完(?:年|暑假|寒假|春节)(?:以后|后)?就?|"
    r"(?:[一二三四五六七八九十]{1,2}|\d{1,2})?月?份?开学(?:以后|后)?就?|毕业(?:以)?后|结婚(?:以)?后|生完孩子(?:以)?后|"
    r"辞职(?:以)?后|离职(?:以)?后|"
    r"退休(?:以)?后|这几年|这些年|从小|"
    r"小时候|以前|后来|如今|现在|目前|说实话|老实说|本来|原来|另外|对了|其实|所以|但是?|不过|"
    r"从(?:[下这本今]个?(?:月|周|星期|礼拜|年)|今天|明天|[一二三四五六七八九十]{1,2}月)(?:份)?(?:起|开始)|"
    # 上周三 / 这礼拜天; a day after 天 / 月 / 年 is no weekday (前天三十九岁了)
    r"[上下这今去前明本][个]?(?:(?:周|星期|礼拜)[一二三四五六日天末]?|月|年|天)(?:起|开始)?|昨天|前天|刚才|刚刚|"
    r"最近)+)"
    r"(?P<rest>.+)$"
)
# A name then its new age after a lead (过完年豆豆就四岁啦): the name is the subject.
_NAMED_AGE = re.compile(
    r"^[\u4e00-\u9fff]{2,3}?(?:就|都|也|已经)*[\d一二三四五六七八九十两]{1,3}岁"
)
# A clause that goes on about the user without naming them: 今年31岁 / 是一名护士 / 对虾过敏.
_ELIDED = re.compile(
    r"^(?:今年|已经|是|在|对|有|住|姓|属|来自|从小在|做|当|现在|目前|平时|一直)"
    r"|^[\d一二三四五六七八九十]{1,3}岁$"  # 26岁，UI设计师: an age in a self-introduction
    r"|^(?:满|都|已经|正式|就)[\d一二两三四五六七八九十]{1,3}岁"  # 刚过完生日，正式三十三岁了
    r"|^[\d一二两三四五六七八九十]{1,3}岁(?:了|啦|咯|喽)"
)
# A clause that ends on a relative (挺羡慕我哥的 / 说起我妈): who a subjectless clause after is of.
_KIN_LAST = re.compile(rf"(?P<who>我(?:的|家)?(?:{REL}))(?:的|呢|啊|呀)?$")
# A pet's birthday (给狗子过了生日 / 猫咪今天生日): an age said alone after it is the pet's.
_PET_BIRTHDAY = re.compile(rf"(?P<pet>{PET_WORD})(?:的|过了?|过完|庆祝了?)?\S{{0,3}}生日")
# 奶糖上周过生日了 (a name's birthday): an age said alone after it is the name's
_BIRTHDAY_WHEN = r"(?:上周|上星期|上礼拜|昨天|前天|今天|前几天|这周|上个月)"
_BIRTHDAY_HAD = r"(?:刚|才|刚刚)?(?:过了?|过完了?)?生日"
_NAMED_BIRTHDAY = re.compile(
    rf"^(?P<who>(?![我他她它今明昨上下这前])[\u4e00-\u9fff]{{2,3}}?){_BIRTHDAY_WHEN}?{_BIRTHDAY_HAD}"
)
# The user's own birthday, then the age alone: 上礼拜生日，29了
_MY_BIRTHDAY = re.compile(rf"^(?:我)?{_BIRTHDAY_WHEN}{_BIRTHDAY_HAD}(?:了|啦)?$")
_MY_AGE = re.compile(r"^(?:满|都|已经|正式|就)?[1-9]\d(?:岁)?(?:了|啦|咯|喽)$")
# An age said alone (满四岁啦): whose, the clauses before tell
_BARE_AGE = re.compile(
    r"^(?:满|都|已经|正式|就)?[\d一二两三四五六七八九十]{1,3}(?:周)?岁(?:了|啦|咯|喽)?"
)
# The user's own facts, which a clause with no subject after a relative's does not state.
_OWN_FACT = re.compile(r"^(?:identity|education|work|location|birthday|goal)\.")
_FOUND_BY = re.compile(
    r"^(?:(?:去|带它去|到)?(?:宠物)?医院)?(?:兽医|医生|大夫|检查|化验|体检|检测|过敏原检测|报告|结果)"
    r"[^，,说我]{0,8}?(?:说|显示|查出来?|确诊)(?:了)?(?=我|它|牠)"
)
_JOB_LEFT = re.compile(
    r"^我?(?:已经|刚|上个?月|上个?(?:礼拜|星期|周)|去年|今年|终于|总算)*"
    r"(?:跳槽|换(?:了)?(?:个|份|家)?(?:工作|公司|单位|厂|东家)|离职|辞职)了?"
    r"[喔哦噢啦咯呀啊耶]*$"
)
# 提了 / 我升职了 / 终于提拔了: a new title, named in the clause after
_PROMOTED = re.compile(
    r"^我?(?:又|终于|刚|被)*(?:提了|提拔了|升了|升职了|晋升了|提干了)(?:啦|了)?$"
)
_NAME_WRONG = re.compile(
    r"^(?P<who>(?:我的?|我家的?)?[\u4e00-\u9fff]{1,3}?)的名字(?:我)?(?:刚才|之前)?"
    r"(?:打|写|说|记|搞|弄)错了$"
)
_NAME_NEXT = re.compile(r"^(?:应该|其实)?(?:是|叫)(?P<v>[^，,]{1,6}?)(?:才对)?$")
_RENAME_ONLY = re.compile(r"(?:换|改|起|取)(?:了)?(?:个|一个)?(?:新)?名字")


# Someone takes the user along (老拉我去 / 总叫我一起): the other's doing, not the user's routine.
_TAKEN_ALONG = re.compile(
    r"(?:老|总|总是|经常|常常|常|天天|都|也)*(?:拉|叫|带|约|喊|逼|催)着?我(?:去|一起|陪)"
)


def _match_rules(
    clause: str, ctx: Context, rules: tuple[Callable[[str, Context], list[Hit]], ...]
) -> list[Hit]:
    for rule in rules:
        if hits := rule(clause, ctx):
            return hits
    return []


def match_zh(clause: str, ctx: Context) -> list[Hit]:
    """The hits of the first rule that recognises ``clause``; [] if none does."""
    for m in DRINK_RE.finditer(clause):
        category, is_type = DRINKS[m.group(0).lower()]
        # A type (冷萃) sets the category but keeps the user's own word for it (咖啡).
        if not is_type:
            ctx.drink_word = m.group(0)
        elif ctx.drink != category:
            ctx.drink_word = None
        ctx.drink = category
    clause = aged_after_birthday(rename_said(normalise_zh(clause)), ctx)
    # 兽医看了牙说我家狗其实都五岁了 / 医生说我对青霉素过敏: a finding about the user or
    # theirs, said by whoever found it; read as it was, 医生说我对青霉素 became the allergen
    clause = _FOUND_BY.sub("", clause)
    if place := ctx.extra.get("place_zh"):  # 我老家成都的，现在也还住在那: 那 is 成都
        # (公司把我调到无锡了，)这周已经搬过去住了: moved to the place just named
        clause = re.sub(
            r"搬(?:过去|过来|去那[儿里边]?|到那[儿里边]?)(?=住|了|$)", f"搬到{place}", clause
        )
        clause = re.sub(
            r"(?<=[住在待])(?:那|这)[儿里边]?(?=$|工作|上班|上学|读书|住|生活|定居|安家)",
            place,
            clause,
        )
    if not clause.startswith("我") and _TAKEN_ALONG.search(clause):
        return []  # (表妹)周末老拉我去吃火锅: what someone else does with the user, no fact
    if wrong_name := _NAME_WRONG.match(clause):  # 老婆的名字我打错了，(是王芬): the name next
        ctx.extra["name_of"] = wrong_name.group("who")
        return []
    if (named_who := ctx.extra.pop("name_of", None)) and (named_as := _NAME_NEXT.match(clause)):
        whose = named_who if named_who.startswith("我") else f"我{named_who}"
        named = _match_rules(f"{whose}叫{named_as.group('v')}", ctx, _FACTS)
        for h in named:
            h.correction = True
        if named:
            return named
    open_slot = ctx.extra.get("slot")
    hits = new_name(clause, ctx)
    if not hits and _RENAME_ONLY.search(clause):
        return []  # 孩子们非要给泰迪换个名字: the name follows
    hits = hits or plan_change(clause, ctx) or continuation(clause, ctx)
    bare = re.sub(r"^(?:现在|今年)", "", clause)
    who = ctx.extra.get("birthday_of")
    if not hits and who and (_BARE_AGE.match(bare) or (who == "我" and _MY_AGE.match(bare))):
        hits = _match_rules(who + bare, ctx, _FACTS)  # 奶糖上周过生日了，现在三岁啦
    if bday := _NAMED_BIRTHDAY.match(clause):
        ctx.extra["birthday_of"] = bday.group("who")
    elif _MY_BIRTHDAY.match(clause):
        ctx.extra["birthday_of"] = "我"  # 上礼拜生日，29了: the user's own age
    if not hits and not clause.startswith("我"):
        hits = pet_continuation(clause, ctx)
        subject = ctx.extra.get("family_zh")
        if not hits and subject and not re.match(rf"^(?:{REL})", clause):  # 女儿叫…: a new subject
            inherited = subject + re.sub(r"^(?:她|他)(?!们)", "", clause)
            hits = family(inherited, ctx)
            describes = re.match(
                r"^(?:在|是|有|最近|现在|平时|一直|也|都|很|特别|比较|刚|已经|还|住|每天|经常|总是)",
                clause,
            )
            if hits and hits[0].topic.endswith(".about") and ("我" in clause or not describes):
                hits = []  # about the user again, or too little to say
            about = ctx.extra.get("family_about")
            if (
                hits
                and about
                and not hits[0].topic.endswith(".about")
                and about.startswith(hits[0].topic.rsplit(".", 1)[0] + ".")
            ):  # 我妹妹毕业了，已经回长沙工作了: one memory, the attribute with what led to it
                hits[0].drop = about
                said = third_person_zh(inherited).removeprefix("用户的")
                hits[0].content = f"{ctx.extra.get('family_about_text', '')}，{said}"
    if (
        not hits
        and ctx.extra.get("slot", "").startswith("pet.")
        and re.search("叫(?:它|牠)", clause)
    ):
        hits = renamed(clause, ctx)  # (给狗改名了，)孩子们非要叫它团子: the pet's new name
    if not hits:
        if clause.startswith("我") and not re.match(r"^我(?:们)?(?:家|的)", clause):
            ctx.extra.pop("family_zh", None)
            ctx.extra.pop("pet", None)
        hits = _match_rules(clause, ctx, _FACTS)
    if not hits and (lead := _LEAD.match(clause)):
        rest = lead.group("rest")
        hits = _match_rules(rest if rest.startswith("我") else "我" + rest, ctx, _FACTS)
        if not hits and _NAMED_AGE.match(rest):  # 过完年豆豆就四岁啦: a name, not the user
            hits = _match_rules(rest, ctx, _FACTS)
    window = find_time_window(clause, ctx.ref)
    if not hits and window and not window.recent and clause.startswith("我"):
        # 我三月份刚从字节离职: the fact, without the time it was said to happen
        hits = _match_rules(clause.replace(window.expression, "", 1), ctx, _FACTS)
        hits = [h for h in hits if not h.topic.endswith(".about")]  # the time was the point
    if (
        all(h.topic.endswith(".about") for h in hits)
        and (undated := drop_when_lead(clause)) != clause
    ):
        # 我们家年初搬到佛山了 / 我爸前阵子调到天津了: the fact, without when it happened
        hits = [
            h for h in _match_rules(undated, ctx, _FACTS) if not h.topic.endswith(".about")
        ] or hits
    if birthday := _PET_BIRTHDAY.search(clause):
        ctx.extra["pet"] = pet_key(birthday.group("pet"))
    if not hits and _BARE_AGE.match(clause) and ctx.extra.get("pet"):
        hits = _match_rules("它" + clause, ctx, _FACTS)  # 给狗子过了生日，满四岁啦: the dog's
    if not hits and _ELIDED.match(clause) and not ctx.extra.get("family_zh"):
        hits = _match_rules("我" + clause, ctx, _FACTS)  # 本人姓赵，今年三十二岁
        # 椰子不是三岁 是四岁 / 小虎上个月走了 十四岁: a child's or a pet's age said alone, not
        # the user's (who says their own age with 我)
        hits = [
            h for h in hits if h.topic != "identity.age" or (cn_number(h.value or "") or 99) >= 16
        ]
    if not hits:
        hits = _match_rules(clause, ctx, _RULES[len(_FACTS) :])
    if not hits and not ctx.extra.get("family_zh") and not ctx.kin_swap:
        hits = open_work_zh(clause)  # 我在菜市场卖猪肉: the user's trade (never a relative's)
    if (
        all(h.kind == MemoryKind.EVENT for h in hits)  # (上个礼拜终于换了工作: news, then what)
        and _JOB_LEFT.search(clause)
        and not re.search(r"想|要|打算|准备|吗", clause)
    ):
        ctx.extra["slot"] = "work.employer"  # 我跳槽了，现在在大疆: the employer comes next
    if not hits and _PROMOTED.match(clause):
        ctx.extra["slot"] = "work.role"  # 提了，党政办副主任: the title comes next
    change = bool(CHANGE_RE.search(clause))
    mine = clause.startswith("我") and not re.match(rf"^我(?:的|家)?(?:{REL})", clause)
    expecting_text = ctx.extra.get("expecting_text", "")
    if ctx.extra.get("family_zh") and not clause.startswith("我") and "把我" not in clause:
        # 我老婆今年考上公务员了，不在医院干了: a change with no subject of its own, said
        # after a relative's clause, is the relative's; read as the user's, it retired the
        # user's own job (held-out set h). Without a rule for the relative, nothing.
        # 我弟在德国读博，学机械的: nor is a fact with no subject at all the user's.
        own = _OWN_FACT if "我" not in clause else None
        hits = [
            h
            for h in hits
            if h.topic.startswith(("family.", "pet."))
            or (
                not (h.correction or change or (h.value or "").startswith("not "))
                and not (own and own.match(h.topic))
            )
        ]
    if hits and ctx.extra.get("slot") == open_slot:
        # a slot left open waits only over clauses that say nothing (快递不干了，太累，…)
        ctx.extra.pop("slot", None)
    for h in hits:
        h.correction = h.correction or change
        h.content = h.content or third_person_zh(clause)
        if h.value and h.value.startswith("not "):
            ctx.extra["slot"] = h.topic  # 我不住北京了，(搬到)上海了
        elif h.topic.startswith("location.") and h.value:
            ctx.extra["place_zh"] = h.value
        if h.kind is S:
            ctx.extra["temporary"] = "1"
        if h.topic.startswith("family.") and h.topic.endswith(".about"):
            ctx.extra["family_about"], ctx.extra["family_about_text"] = h.topic, h.content or ""
        if h.topic.endswith("pregnancy"):
            expecting = ctx.extra.get("expecting", "")
            if h.topic == "health.pregnancy" and expecting.startswith("family.") and not mine:
                # 我太太怀孕了，预产期在十二月: her due date, not the user's pregnancy
                h.topic, h.content = expecting, f"{expecting_text}，{clause}"
            ctx.extra["expecting"] = h.topic
            ctx.extra["expecting_text"] = h.content or ""
    if not hits and (kin := _KIN_LAST.search(clause)):
        # 我挺羡慕我哥的，在香港做会计…: the clauses after, with no subject, say his
        ctx.extra["family_zh"] = kin["who"]
    return hits
