"""Chinese slot rules for the user's schooling: stage (读大三), school, major (学土木, 转专业,
从土木转到计算机), said now or of the past. Re-exported by :mod:`.zh_facts`.

Each rule looks at one clause and returns the hits it recognises, or [] to let the next rule
try; a major said right after the stage (我在南京大学读大一，学土木) is read with it.
"""

from __future__ import annotations

import re

from jiyi.core.extraction.hit import Context, Hit
from jiyi.core.extraction.lexicon_places import MAJOR_RE_ZH, is_place_zh
from jiyi.core.extraction.topics import clean_value
from jiyi.core.extraction.zh_common import ADV
from jiyi.core.models import MemoryKind

__all__ = ["education"]

# Majors typed by their Latin letters in a Chinese sentence (转去读 CS 了)
_MAJOR_LATIN = frozenset("CS IT EE CE ME MBA MPH LAW ECON FINANCE ACCOUNTING NURSING".split())

F = MemoryKind.FACT


_STAGE_ZH = (
    r"大[一二三四五]|研[一二三]|高[一二三]|初[一二三]|博[一二三四五]|[一二三四五六]年级|博士|研究生|"
    r"硕士|研究所|大学|高中|初中|本科|大专|专科|博士后|E?MBA|MPA|MFA|在职研究生"
)


# A school's name (湖南师大, 北京理工, 山师附中, 实验小学, 清华): where one is admitted to study.
# A school by its kind (实验小学, 小太阳幼稚园, 文山国小附幼) and a year or class in it
_SCHOOL_WORDS = (
    r"[^，,在读上念]{1,10}?(?:小学|中学|幼儿园|幼稚园|国小|国中|附幼|附小|附中|一中|二中|三中|"
    r"[一二三四五六七八九十]{1,3}中|高中|初中|学校)"
)
_YEAR_IN = r"[一二三四五六]年级|初[一二三]|高[一二三]|[大中小]班|国[一二三]|小[一二三四五六]"
_SCHOOL_NAME = re.compile(
    r"(?:大学|学院|师大|理工|工大|农大|医大|财大|交大|中学|附中|高中|一中|二中|小学|"
    r"职校|技校|中专|大专|[^\s]{1,4}大|[一二三四五六七八九十]{1,3}中|国中|高职)$"
)


def education(c: str, ctx: Context) -> list[Hit]:
    admitted = re.match(
        r"^(?:我)?(?:中考|高考|考研|小升初)?(?:已经|终于|顺利|刚|刚刚|也)*(?:被(?P<x>[^，,被]{2,10}?)(?:录取|录了|录上)|"
        r"考(?:上|进|到)了?(?P<y>[^，,被]{2,10}?))(?:了|啦|耶|🎉)*$",
        c,
    )
    school = clean_value(admitted["x"] or admitted["y"]) if admitted else ""
    if school and _SCHOOL_NAME.search(school) and not re.search(r"公司|单位", school):
        # 被湖南师大录取了 / 考上北京理工了: the school the user goes to now
        return [Hit(F, "education.school", "school.admitted", value=school, correction=True,
                    content=f"用户在{school}上学")]  # fmt: skip
    if dept := re.search(
        r"我(?:马上|就|也|都)*(?:是|成了?)(?P<x>[^，,我是]{2,8}?(?:系|学院))的人了$", c
    ):
        # 下学期开始我就是资工系的人了: the department the user is in now (a transfer)
        return [Hit(F, "education.major", "major.department", value=dept["x"], correction=True,
                    content=f"用户读{dept['x']}")]  # fmt: skip
    if m := re.search(
        rf"我(?:马上|就|也|都)*(?:是|成了?)(?P<x>{_STAGE_ZH})(?:的人|的学生|学生|生)了$", c
    ):
        # 暑假一过我就是高二的人了: the year the user is in now
        stage = m["x"]
        return [Hit(F, "education.stage", "school.stage", value=stage, correction=True,
                    content=f"用户在读{stage}")]  # fmt: skip
    m = re.match(
        r"^(?:我)?(?:读研|读博|读本科|本科|大学|上大学|读大学|研究生|硕士|博士)(?:的)?时候(?:学的是|读的是|学|读|念的是|念)"
        r"(?P<x>[^，,]{2,10}?)(?:专业)?$",
        c,
    )
    if m:  # 我读研的时候学的是心理学: the major, not a stage the user is at now
        return [Hit(F, "education.major", "major.past", value=clean_value(m.group("x")))]
    m = re.match(
        rf"^(?:我)?{ADV}在(?P<s>[^，,在]{{2,10}}?)(?:读|上|念)(?P<x>{_STAGE_ZH})(?:了)?$", c
    )
    if m and not re.search(r"[\d一二三四五六]年级$", m.group("x")):  # 我在复旦读大三
        ctx.extra["stage_zh"] = m.group("x")
        return [
            Hit(F, "education.stage", "school.stage", value=m.group("x")),
            Hit(F, "education.school", "school", value=clean_value(m.group("s"))),
        ]
    m = re.match(
        rf"^(?:我)?{ADV}在(?P<s>[^，,在]{{2,10}}?)(?:读|念|学|上)(?P<x>[^，,在]{{1,8}}?)系$", c
    ) or re.match(  # 我念高医医学系二年级: the school, its department and the year
        rf"^(?:我)?{ADV}(?:读|念)(?P<s>[^，,在]{{2,6}}?)(?P<x>[^，,在]{{2,6}}?)系"
        r"(?P<g>[一二三四五六七]年级|大[一二三四五])$",
        c,
    )
    studied = re.match(
        rf"^(?:我)?{ADV}在(?P<s>[^，,在]{{2,10}}?)(?:读|念|学)(?P<x>[^，,在]{{2,8}}?)专业$", c
    )
    if studied:  # 我在武汉读护理专业: the major (the city is where the school is)
        return [Hit(F, "education.major", "major", value=studied["x"])]
    studying = re.match(
        rf"^(?:我)?{ADV}(?:正)?在(?:读|念|学)(?P<x>[^，,在的]{{2,8}}?)专业(?:的)?$", c
    )
    if studying:  # 我在读计算机专业: the major
        return [Hit(F, "education.major", "major", value=studying["x"])]
    uni = re.match(
        rf"^(?:我)?{ADV}在(?P<s>[^，,在]{{1,10}}?(?:大学|大|学院))(?:读|念|学)"
        r"(?P<x>[^，,在的]{2,8})$",
        c,
    ) or re.match(  # 我在 Monash 读会计 / 我在复旦读会计: a school by its name alone
        rf"^(?:我)?{ADV}在 ?(?P<s>[A-Za-z][A-Za-z .&'-]{{1,20}}?|[\u4e00-\u9fff]{{2,4}}) ?"
        r"(?:读|念|学) ?(?P<x>[^，,在的\s]{2,8})$",
        c,
    )
    if uni and (
        is_place_zh(uni["s"])
        # (the name alone: 我在明德小学上学 is no major 上学 at 明德小)
        or (not uni["s"].endswith(("大学", "大", "学院")) and not MAJOR_RE_ZH.fullmatch(uni["x"]))
        or (  # (a name that is a school says so: 我在国家行政学院读管理)
            not uni["s"].endswith(("大学", "学院"))
            and re.search(
                r"公司|单位|家|厂|店|网上|线上|医院|机构|班上|群里|学校|那边|这边", uni["s"]
            )
        )
    ):
        uni = None  # 我在上海读会计 / 我在公司学英语: where, not a school
    if uni and MAJOR_RE_ZH.search(uni["x"]):  # 我喺中大讀會計: the university and the major
        return [
            Hit(F, "education.school", "school", value=uni["s"], content=f"用户在{uni['s']}上学"),
            Hit(F, "education.major", "major", value=uni["x"], content=f"用户读{uni['x']}专业"),
        ]
    # (我女儿)读实验小学三年级 / 在阳光幼儿园上中班: the school, and the year in it
    at = re.match(
        rf"^(?:我)?{ADV}(?:(?:读|上|念)(?P<s>{_SCHOOL_WORDS})(?P<g>{_YEAR_IN})?|"
        rf"在(?P<t>{_SCHOOL_WORDS})(?:读|上|念)(?P<h>{_YEAR_IN}))(?:了)?$",
        c,
    )
    if at:
        school, year = at["s"] or at["t"], at["g"] or at["h"]
        hits = [
            Hit(F, "education.school", "school.in", value=school, content=f"用户在{school}上学")
        ]
        if year:
            hits.append(Hit(F, "education.stage", "school.year", value=year,
                            content=f"用户在读{year}"))  # fmt: skip
        return hits
    # 我在自考中医学专业 / 在函授读会计专业: the major of a self-study or part-time degree
    self_study = re.match(
        rf"^(?:我)?{ADV}在(?:自考|函授|成考|专升本|网课|夜大|电大)(?:读|念|学)?(?P<x>[^，,在]{{2,8}}?)专业$",
        c,
    )
    if self_study:
        return [Hit(F, "education.major", "major", value=self_study["x"])]
    if m:  # 我在台大读电机系: the school, and the department is the major
        return [
            Hit(F, "education.school", "school", value=clean_value(m.group("s"))),
            Hit(F, "education.major", "major.department", value=clean_value(m.group("x"))),
        ]
    m = re.match(
        r"^(?:我)?(?:现在)?在(?P<x>.+?)(?:读书|上学|读大学|读研|读博|念书|读本科|上大学|读高中|(?:读|念|攻读)(?:硕士|"
        r"博士|研究生|研究所|本科|大学|MBA)|"
        r"上高中|读初中|念研究所|读研究生|做博后|交换)",
        c,
    ) or re.match(
        r"^我是(?P<x>[^，,的]{2,10}?)(?:的)?(?:学生|本科生|毕业的|毕业生|校友)$|^我(?:毕业于|毕业自)(?P<y>.+)$",
        c,
    )
    if m:
        school = clean_value(m.group("x") or m.group("y"))
        if re.fullmatch(_STAGE_ZH, school):  # 我是高二的学生: a year of school, not a school
            return [Hit(F, "education.stage", "school.stage", value=school,
                        content=f"用户在读{school}")]  # fmt: skip
        if not re.match(r"^(?:大学|高中|初中|小学)$", school):
            return [Hit(F, "education.school", "school", value=school)]
    m = re.match(
        rf"^(?:我)?{ADV}(?:是)?(?:正)?(?:在)?(?:读|上|念|升|升到|升上|在读)?(?:了)?(?P<x>{_STAGE_ZH})"
        r"(?:了|的学生|学生|在读|生)?$",
        c,
    ) or re.match(
        r"^(?:我)?(?:现在)?(?:正)?(?:在)?(?:读|念)(?P<x>研究所|大学|高中|博士|硕士|博|研|本科)", c
    )
    if m:  # one wording per value, the way it is asked about (读几年级): 用户在读高三
        stage = {"博": "博士", "研": "研究生"}.get(m.group("x"), m.group("x"))
        ctx.extra["stage_zh"] = stage
        return [Hit(F, "education.stage", "school.stage", value=stage, content=f"用户在读{stage}")]
    m = re.match(
        # (我大一下学期就)转专业了 / 這學期轉系成功了
        r"^(?:我)?(?:(?:这|上|下|本)学[期其]|[^，,转]{0,8}?(?:就|已经|终于)|[^，,转]{0,4}?)?(?:已经)?转(?:了)?(?:专业|系)(?:了)?(?:成功)?(?:了|啦)?"
        r"(?:(?:到|去|成)了?(?P<x>.+?)(?:专业)?)?$",
        c,
    )
    swap = re.match(
        r"^(?:我)?(?:已经|(?:下|这|本)学期(?:开始|起)?)*从(?P<a>[^，,]{2,8}?)(?:专业)?"
        r"(?:转到|转去|转成|换到|换成)了?(?P<x>[^，,]{2,8}?)(?:专业)?(?:了|啦)?$",
        c,
    )
    dept = re.match(
        r"^(?:我)?(?:现在|目前|改|转)*(?:读|念|学|在)(?P<x>[\u4e00-\u9fff]{2,6}?系)$", c
    )
    if dept and ctx.extra.get("slot") == "education.major":  # (轉系了，)現在讀資管系
        return [Hit(F, "education.major", "major.switch", value=dept["x"], correction=True)]
    if swap and all(MAJOR_RE_ZH.search(v) or v.endswith("系") for v in (swap["a"], swap["x"])):
        # 从土木转到计算机了: a major swapped for another
        return [Hit(F, "education.major", "major.switch", value=swap["x"], correction=True)]
    moved = re.match(
        r"^(?:(?:现在|今年|这学期|下学期|已经)*我)?(?:现在|今年|这学期|已经)*"
        r"转(?:了)?(?:去)?(?:读|念|学) ?"
        r"(?P<x>[\u4e00-\u9fff]{2,6}?|[A-Za-z]{2,5}) ?(?:专业|系)?(?:了)?$",
        c,
    )
    if moved and (
        MAJOR_RE_ZH.search(moved["x"]) or moved["x"].upper() in _MAJOR_LATIN
    ):  # 我而家转咗去读护理: the new major
        return [Hit(F, "education.major", "major.switch", value=moved["x"], correction=True,
                    content=f"用户现在读{moved['x']}")]  # fmt: skip
    plain = re.match(r"^(?:我)?(?:学|读|念)(?:的是)?(?P<x>[\u4e00-\u9fff]{2,6}?)(?:专业)?$", c)
    if plain and MAJOR_RE_ZH.search(plain["x"]) and ctx.extra.get("stage_zh"):
        # 我在南京大学读大一，学土木: the major, after the stage
        return [Hit(F, "education.major", "major", value=plain["x"])]
    if m:  # 我转专业了，(现在读金融): the major that follows is the new one
        ctx.extra["slot"] = "education.major"
        value = clean_value(m.group("x") or "")
        return (
            [Hit(F, "education.major", "major.switch", value=value, correction=True)]
            if value
            else []
        )
    m = re.match(
        r"^(?:我)?(?:的)?(?:本科|大学|研究生|硕士|博士|读研|读博)?(?:的)?(?:专业|研究方向|方向)(?:是|读的是|学的是)(?P<x>.+)$|"
        r"^(?:我)?(?:现在|目前)?(?:本科|大学|研究生|硕士|博士)?(?:是)?(?:学|读|念)的(?:是)?(?P<y>.+?)(?:专业)?$|"
        r"^我是(?P<z>.+?)专业的$|"
        r"^(?:我)?(?:的)?(?:本科|大学|研究生|硕士|博士)(?:是|读的是|学的是)(?P<w>[^，,]{2,8}?)专业(?:的)?$",
        c,
    )
    if m:
        major = clean_value(m.group("x") or m.group("y") or m.group("z") or m.group("w"))
        if major and (
            m.group("x")
            or m.group("z")
            or m.group("w")
            or MAJOR_RE_ZH.search(major)
            or "专业" in c
            or ctx.extra.get("slot") == "education.major"  # (转专业了，)现在学的是汉语言文学
        ):
            return [Hit(F, "education.major", "major", value=re.sub(r"专业$", "", major))]
    m = re.match(
        r"^(?:我)?(?:是)?(?:学|读|念)(?P<x>[\u4e00-\u9fffA-Za-z]{2,8}?)(?:专业)?(?:的|出身)$", c
    )
    if m and len(c) <= 12:  # 学金融的 / 念資工的
        return [Hit(F, "education.major", "major", value=m.group("x"))]
    m = re.match(
        r"^(?:我)?(?:本科|大学|研究生|硕士|博士)(?:是|时)?(?:学|读|念)(?P<x>[\u4e00-\u9fffA-Za-z]{2,8}?)"
        r"(?:专业)?$",
        c,
    )
    if m and MAJOR_RE_ZH.search(m.group("x")):  # 我本科学的是会计 (的是 read away): the major
        return [Hit(F, "education.major", "major.stage", value=m.group("x"))]
    m = re.match(
        r"^(?:我)?(?:的)?(?:高中|初中|小学|大学|本科|研究生|硕士|博士)(?:是|也是)?在"
        r"(?P<s>[^，,在]{2,10}?)(?:读|上|念)(?:的)?$|"
        r"^(?:我)?(?:是)?在(?P<t>[^，,在]{2,10}?)(?:读|上|念)的(?:高中|初中|小学|大学|本科|研究生)$",
        c,
    )
    if m:  # 我高中是在衡水读的: where the user went to school
        return [
            Hit(
                F,
                "education.school",
                "school.where",
                value=clean_value(m.group("s") or m.group("t")),
            )
        ]
    return []
