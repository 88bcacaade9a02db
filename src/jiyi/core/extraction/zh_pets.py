"""Chinese rules for the user's pets: introduced, described, aged and renamed.

"我养了一只橘猫，叫胖虎": the pet introduced in a message is one memory however many clauses
describe it, and a clause without its own subject ("三岁了", "它现在叫年糕") is about the pet
named last (``ctx.extra["pet"]``). Also holds the name and age patterns the family rules in
:mod:`jiyi.core.extraction.zh_people` share.
"""

from __future__ import annotations

import re

from jiyi.core.extraction.hit import Context, Hit
from jiyi.core.extraction.lexicon import PET_SPECIES, PETS_ZH
from jiyi.core.extraction.zh_common import NUM, PET_WORD, name_value, pet_key, third_person_zh
from jiyi.core.models import MemoryKind
from jiyi.core.text import to_simplified

__all__ = ["AGE", "NAME_VERB", "new_name", "pet", "pet_continuation", "rename_said", "renamed"]

F = MemoryKind.FACT
_PET = rf"(?:(?![有养只了的个条是叫在])[\u4e00-\u9fff]){{0,3}}?(?:{PET_WORD})"
NAME_VERB = (
    r"(?:的名字(?:其实|现在)?是|(?:的名字)?(?:现在|其实|本来)?(?:改名|也|是|都)?(?:叫做|叫|名叫|名字叫|名字是|"
    r"改名为|改叫|改名叫|就叫))"
)
_AGE_LEAD = (
    r"过完生日|过了生日|生日过后|今年|已经|现在|刚|刚刚|快|才|都|是|其实|下个月|下周|明天|月底|"
    r"年底|马上|上周|上个?月|上星期|上礼拜|前天|昨天|前几天|这个?月|这周|"
    # 大概一岁 / 起码三岁: how sure the age is (大概 is no name)
    r"大概|大约|差不多|起码|至少|估计|可能|应该|少说也?"
)
AGE = (
    rf"(?:{_AGE_LEAD})*(?:满)?"
    rf"(?P<n>{NUM})(?:周)?(?P<u>岁|个月)"
    r"(?:半|多)?(?:大)?(?:了|啦|吧|咯|哦)?"
)


_WHEN_GOT = (
    r"前两天|前几天|最近|昨天|前天|上周|上个?月|上礼拜|上星期|今天|刚刚?|后来|而家|现在|去年"
)


def _introduce(word: str, name: str | None, c: str, ctx: Context) -> list[Hit]:
    """A pet introduced in this message is one memory, however many clauses describe it
    ("我养了一只橘猫，叫胖虎"): its name slot when it has a name, else its breed or species."""
    key = f"pet.{pet_key(word)}"
    if name:
        hit = Hit(F, f"{key}.name", "pet.intro", value=name_value(name))
    elif word not in PET_SPECIES:
        hit = Hit(F, f"{key}.breed", "pet.intro", value=word)
    else:
        hit = Hit(F, key, "pet.intro", value="yes")
    hit.content = third_person_zh(c)
    ctx.extra["pet_intro"], ctx.extra["pet_intro_text"] = hit.topic, hit.content
    ctx.extra["pet_intro_value"] = hit.value or "yes"
    if name and word not in PET_SPECIES:  # 有只柯基叫豆豆: the breed is a slot of the named pet
        noun = next((k for k, v in PETS_ZH.items() if v == key.split(".")[1]), "宠物")
        # each slot's own text, kept when another part is replaced; the memory still reads
        # the whole clause (fold_parts)
        hit.content = f"用户的{noun}叫{name}"
        return [
            hit,
            Hit(F, f"{key}.breed", "pet.intro", value=word, content=f"用户的{noun}是{word}"),
        ]
    return [hit]


def _pet_attributes(key: str, rest: str, ctx: Context) -> list[Hit]:
    noun = next((k for k, v in PETS_ZH.items() if v == key.split(".")[1]), "宠物")
    rest = re.sub(r"^(?:狗|犬|猫)(?=[A-Za-z])", "", rest)  # 贵宾狗Lucky: the breed, then the name
    if m := re.match(
        rf"^(?:它|牠|佢)?(?:现在|已经)?{NAME_VERB}(?:它|牠|佢|他|她)?(?P<x>[^，,不]+)", rest
    ):
        name = name_value(m.group("x"))
        return [Hit(F, f"{key}.name", "pet.name", value=name, content=f"用户的{noun}叫{name}")]
    if re.match(r"^(?:它|牠)?(?:已经)?(?:不(?:再)?叫.+|改名了|改了名字?|换了名字?)(?:了)?$", rest):
        ctx.extra["slot"] = f"{key}.name"  # 我家猫改名了，现在叫年糕
        return []
    if m := re.match(rf"^(?:它|牠)?{AGE}$", rest):
        age = m.group("n") + ("个月" if m.group("u") == "个月" else "")
        return [Hit(F, f"{key}.age", "pet.age", value=age, content=f"用户的{noun}{age}岁")]
    named = re.match(rf"^(?P<name>[\u4e00-\u9fff]{{2,3}}?|[A-Za-z]{{2,12}})(?:{AGE})$", rest)
    if named and not re.match(rf"^(?:{_AGE_LEAD}|[\d一二两三四五六七八九十])", rest):
        # 我家柴犬阿福今年三岁: the pet's name said beside it, then its age
        name, age = named["name"], named["n"] + ("个月" if named["u"] == "个月" else "")
        return [
            Hit(F, f"{key}.name", "pet.name", value=name, content=f"用户的{noun}叫{name}"),
            Hit(F, f"{key}.age", "pet.age", value=age, content=f"用户的{noun}{name}{age}岁"),
        ]
    m = re.match(
        rf"^(?:它|牠)?(?:其实|实际上|本来就|本来)*是(?:只|一只|条|一条|个)?(?P<x>{_PET})(?:啦|呀|哦)?$",
        rest,
    )
    if m and m.group("x") not in PET_SPECIES:
        breed = m.group("x")
        return [Hit(F, f"{key}.breed", "pet.breed", value=breed, content=f"用户的{noun}是{breed}")]
    return []


# 豆豆其实是只柯基: a breed said of a name alone; whose pet it is the write path decides from
# the user's stored pets (pipeline/subjects.py).
_NAMED_BREED = re.compile(
    rf"^(?:我们家|我家|家里)?(?P<n>[\u4e00-\u9fff]{{2,3}}?|[A-Za-z]{{2,12}})(?:其实|实际上|本来就|本来)?"
    rf"是(?:一)?(?:只|条)?(?P<b>{PET_WORD})(?:而?不是(?:一)?(?:只|条)?{PET_WORD})?(?:啦|呀|哦)?$"
)


def _named_breed(c: str) -> list[Hit]:
    b = _NAMED_BREED.match(c)
    if not b or b.group("b") in PET_SPECIES or re.match(r"^[我你他她它这那谁]", b.group("n")):
        return []
    name, breed = b.group("n"), b.group("b")
    return [Hit(F, "pet.pet.breed", "pet.named_breed", value=breed, subject=name,
                correction=True, content=f"{name}是{breed}")]  # fmt: skip


# What is renamed besides pets: a company, school, shop, street, group chat or account.
_RENAMED_THING = re.compile(
    r"(?:公司|单位|集团|学校|学院|大学|中学|小学|医院|店|馆|厂|群|号|名|路|街|巷|小区|村|镇|区|县|市|"
    r"站|队|团|部|app|App|APP)$"
)


# Who gave the pet its new name (the user, the kids, a spouse): not what the clause is about.
_GIVER = (
    r"(?:我们|我|咱们|家里人|大家|孩子们|小孩|孩子|"
    r"我?(?:儿子|女儿|闺女|老婆|老公|媳妇|爸爸|妈妈|爸|妈)(?:们)?)"
)


def rename_said(c: str) -> str:
    """A rename said with who did it put as the pet's own: 孩子们给它改叫可乐了 → 它改叫可乐了,
    仓鼠的名字我儿子改成了芝麻 → 我家仓鼠改名叫芝麻. Read as it was, the first was a fact
    about the children and the second nothing."""
    c = re.sub(rf"^{_GIVER}(?:已经|后来|刚|就|都|非要|硬是)*给(?=(?:它|牠)(?:改|换|取|起))", "", c)
    m = re.match(
        rf"^(?P<p>(?![把将])[\u4e00-\u9fffA-Za-z]{{1,6}}?)的名字(?:被)?{_GIVER}?(?:给)?(?:已经|后来|刚|就)*"
        r"(?:改成了?|改为|改叫|换成了?)(?P<x>[^，,了]{1,8})(?:了|啦)?$",
        c,
    )
    if not m or re.match(r"^[我你他她]", m["p"]):
        return c
    head = f"我家{m['p']}" if m["p"] in PETS_ZH else m["p"]
    return f"{head}改名叫{m['x']}"


# 之前说阿福是柴犬其实不对啦, (兽医说它是米克斯): the breed was wrong, the new one follows
_BREED_WRONG = re.compile(
    rf"^(?:我)?(?:之前|以前|上次)?(?:说|讲)?(?:的)?(?:我家)?(?P<n>[\u4e00-\u9fff]{{2,3}}?|[A-Za-z]{{2,12}})"
    rf"是(?:一)?(?:只|条)?(?:{PET_WORD})(?:其实|好像|是)?(?:不对|错了|说错了|搞错了|弄错了)(?:啦|了|喔|哦)?$"
)
_IT_BREED = re.compile(
    rf"^(?:它|牠)(?:其实|实际上)?是(?:一)?(?:只|条)?(?P<b>{PET_WORD})(?:啦|呀|哦|喔)?$"
)


def breed_said_wrong(c: str, ctx: Context) -> bool:
    """Whether ``c`` says a named pet's breed was wrong (之前说阿福是柴犬其实不对); its name is
    kept for the clause that gives the breed (它是米克斯)."""
    if wrong := _BREED_WRONG.match(to_simplified(c)):
        ctx.extra["breed_of"] = wrong["n"]
    return wrong is not None


def renamed(c: str, ctx: Context) -> list[Hit]:
    """它改名叫大黄了 / 奶茶现在改名叫布丁了: a pet renamed, said without naming its kind.

    People rarely rename anyone else, so a rename of "it" or of a bare name is a pet's; the
    slot is the generic ``pet.pet.name`` and the hit a correction, so reconciliation may match
    it to the one stored pet name (``pet.cat.name``)."""
    if hits := _named_breed(c):
        return hits
    if breed_said_wrong(c, ctx):
        return []
    if (it := _IT_BREED.match(c)) and it["b"] not in PET_SPECIES:
        # (之前说阿福是柴犬其实不对，)兽医说它是米克斯: the breed of the pet named before, or
        # of "it" (the slot holding the breed said wrong, or the one pet the user has)
        name = ctx.extra.pop("breed_of", None)
        text = f"{name or '用户的宠物'}是{it['b']}"
        return [Hit(F, "pet.pet.breed", "pet.named_breed", value=it["b"], subject=name,
                    correction=bool(name), content=text)]  # fmt: skip
    slot = ctx.extra.get("slot", "")
    if (
        slot.startswith("pet.")
        and slot.endswith(".name")
        and (
            call := re.match(
                r"^(?:[\u4e00-\u9fff]{1,4}?)?(?:现在|都|就|非要|要|想|一直)*(?<![不没别])叫(?:它|牠)?"
                r"(?P<x>[\u4e00-\u9fffA-Za-z]{1,6}?)(?:了|啦)?$",
                c,
            )
        )
    ):  # (给狗改名了，)孩子们非要叫它团子: the new name
        ctx.extra.pop("slot", None)
        name, was = name_value(call["x"]), ctx.extra.pop("rename_of", None)
        return [Hit(F, slot, "pet.renamed", value=name, correction=True, subject=was,
                    content=f"用户的宠物{was or ''}改名叫{name}")]  # fmt: skip
    if said := re.match(r"^(?P<old>[\u4e00-\u9fffA-Za-z]{1,6}?)这(?:个)?名字", c):
        ctx.extra["pet_old"] = said.group("old")  # 旺财这名字太土了，(给它改名叫Lucky了)
        return []
    # 我们给它改名叫Lucky了: who renamed it does not matter, "it" is the pet
    c = re.sub(
        r"^(?:我们|我|咱们|家里人|大家|孩子们)?(?:已经|后来|刚|就)*给(?=它|牠|狗|猫|狗狗|猫咪)",
        "",
        c,
    )
    if (
        bare := re.match(
            r"^(?:它|牠|(?P<old>[\u4e00-\u9fffA-Za-z]{1,6}?))(?:已经|后来)?(?:改名|改了名字?|换了名字?)(?:了|啦)$",
            c,
        )
    ) and not (bare.group("old") and re.match(r"^[我你他她]", bare.group("old"))):
        ctx.extra["slot"] = f"pet.{ctx.extra.get('pet', 'pet')}.name"  # 豆豆改名了，现在叫球球
        if (old := bare.group("old")) and old not in PETS_ZH:
            ctx.extra["rename_of"] = old  # 汤圆改名了: whose name the next clause gives
        return []
    c = re.sub(
        r"^(?:我们家|我家|家里|咱家)(?=[\u4e00-\u9fffA-Za-z]{1,6}?(?:现在|已经|后来)*改)", "", c
    )
    m = re.match(
        r"^(?:它|牠|(?P<old>[\u4e00-\u9fffA-Za-z]{1,6}?))(?:现在|已经|后来)*(?:改名|改叫|换名字|改名字|"
        r"(?<=现在)叫|(?<=后来)叫)"
        r"(?:了)?(?:叫|为|成)?(?P<x>[^，,了]{1,6})(?:了|啦)?$",
        c,
    )
    if not m or (m.group("old") and re.match(r"^[我你他她]", m.group("old"))):
        return []
    if (
        m.group("old")
        and _RENAMED_THING.search(m.group("old"))
        and not re.fullmatch(r"(.)\1", m.group("old"))  # 团团 / 豆豆 are pets' names
    ):
        return []  # 公司改名叫字节了 / 我们群改名了: places, shops and accounts are renamed too
    key = f"pet.{ctx.extra['pet']}.name" if "pet" in ctx.extra else "pet.pet.name"
    name = name_value(m.group("x"))
    old = m.group("old") or ctx.extra.get("pet_old")
    return [
        Hit(
            F,
            key,
            "pet.renamed",
            value=name,
            correction=True,
            content=f"用户的宠物{old or ''}改名叫{name}",
            subject=old if key == "pet.pet.name" else None,  # whose pet: the one named so
        )
    ]


def pet(c: str, ctx: Context) -> list[Hit]:
    """我养了一只布偶猫，叫雪球 / 家里有只两岁的柯基 / 我家狗今年五岁了 / 我家猫改名叫年糕了."""
    m = (
        re.match(
            rf"^(?:我们家|我家|我的|我|我养的|家里|家里的)(?:的|养的)?(?:那只|这只|一只|只|那条|条)?"
            rf"(?P<pet>{_PET})(?P<rest>.*)$",
            c,
        )
        or re.match(  # 狗狗今年四岁了: said by its owner, the pet is theirs
            r"^(?P<pet>狗狗|猫咪|猫猫|狗子|喵星人|汪星人)(?P<rest>(?:今年|现在|已经|其实|上周|上个?月|"
            r"前天|昨天|这个?月|就|刚)*满?(?:[\d一二两三四五六七八九十]+岁|"
            r"叫|是只?|是一只).*)$",
            c,
        )
        or re.match(  # 猫的名字其实叫番薯: the species alone, by its owner, before its name
            r"^(?P<pet>猫|狗)(?P<rest>的名字.*)$",
            c,
        )
        or re.match(  # 我家那只其实是拉布拉多: the pet unnamed, its breed says which
            rf"^(?:我们家|我家|家里)(?:的)?(?:那只|这只|那条|这条)"
            rf"(?P<rest>(?:其实|实际上|本来就|本来)*是(?:只|一只|条|一条)?(?P<pet>{_PET})(?:啦|呀|哦)?)$",
            c,
        )
    )
    if m and not re.match(r"^(?:毛|粮|砂|罐头|窝|笼)", m.group("rest")):
        key = f"pet.{pet_key(m.group('pet'))}"
        ctx.extra["pet"] = key.split(".")[1]
        ctx.extra.pop("family_zh", None)
        ctx.extra.pop("pet_intro", None)
        hits = _pet_attributes(key, m.group("rest"), ctx)
        if len(hits) == 1:  # 我家的狗狗叫Lucky，是只金毛: the clauses after it describe it further
            hits[0].content = hits[0].content if hits[0].rule != "pet.name" else third_person_zh(c)
            ctx.extra["pet_intro"], ctx.extra["pet_intro_text"] = (
                hits[0].topic,
                hits[0].content or third_person_zh(c),
            )
            ctx.extra["pet_intro_value"] = hits[0].value or "yes"
        return hits
    m = re.match(
        # 前两天(从收容所)领养了一只小橘猫 / 换了只英短 / 而家养咗只豆柴: when and where first
        rf"^(?:我|我们)?(?:{_WHEN_GOT})*(?:从[^，,\s]{{1,8}})?(?:家里?|家里面)?(?:新|刚|还|也|只|又)?"
        rf"(?:养了|养着|养|有|领养了|收养了|捡了|买了|抱了|换了|养咗|买咗|(?=[两三四几]只))"
        rf"(?:一只|两只|三只|一条|两条|只|条|一个|个|几只|\d只)?(?:(?P<desc>[^，,的]{{1,5}})的)?"
        rf"(?P<pet>{_PET})(?:[，,]?(?:它|牠|佢)?(?:叫|名叫|名字叫)(?P<x>.+))?$",
        c,
    )
    if not m:
        return []
    ctx.extra["pet"] = pet_key(m.group("pet"))  # 我养了一只猫，叫雪球: 雪球 is the cat
    ctx.extra.pop("family_zh", None)
    return _introduce(m.group("pet"), m.group("x"), c, ctx)


def pet_continuation(c: str, ctx: Context) -> list[Hit]:
    """A clause after one about a pet, without a subject: 叫胖虎 / 三岁了 / 它现在叫年糕."""
    if "pet" not in ctx.extra:
        return []
    hits = _pet_attributes(f"pet.{ctx.extra['pet']}", c, ctx)
    if not hits and PETS_ZH.get(c) == ctx.extra["pet"] and c not in PET_SPECIES:
        # 我養了一隻兔子叫麻糬，荷蘭侏儒兔: the breed said alone after the name
        hits = [Hit(F, f"pet.{ctx.extra['pet']}.breed", "pet.breed", value=c)]
    intro = ctx.extra.get("pet_intro")
    if not hits or not intro:
        return hits
    name = next((h for h in hits if h.topic.endswith(".name")), None)
    if name is None and intro.endswith(".name") and hits[0].topic.endswith((".age", ".breed")):
        # 我家猫叫咪咪，今年三岁: the age a slot of its own, folded into the name's memory
        # (merge.fold_parts), so "咪咪四岁了" replaces the age and the name stays
        word = next((w for w, k in PETS_ZH.items() if k == ctx.extra["pet"]), "宠物")
        for h in hits:
            h.content = f"用户的{word}{re.sub(r'^(?:它|牠)', '', c)}"
        return hits
    # Still introducing the pet: the clause enriches the one memory of the introduction.
    text = f"{ctx.extra['pet_intro_text']}，{c}"
    if name is not None:
        hit = Hit(F, name.topic, "pet.intro", value=name.value, content=text)
        hit.drop = intro if intro != name.topic else None
    else:
        hit = Hit(F, intro, "pet.intro", value=ctx.extra["pet_intro_value"], content=text)
    ctx.extra["pet_intro"], ctx.extra["pet_intro_text"] = hit.topic, text
    ctx.extra["pet_intro_value"] = hit.value or "yes"
    return [hit]


# A rename said anywhere in the clause, whoever did it: 孩子们给泰迪换了个名字 / 猫的名字改了.
_RENAME_ZH = re.compile(
    rf"(?P<c>{_PET})(?:的名字|的名)(?:已经|也|后来|现在|最近)*(?:改成|换成|改为|改叫|变成|换)了?(?=[^，,]{{1,6}}$)|"
    rf"(?P<d>{_PET})(?:我们|大家|家里人|现在|都|也)*(?=(?:管它叫|叫它|喊它|管牠叫|叫牠|喊牠))|"
    rf"(?:给|把)(?:我们家|我家|家里|家里的|我的)?(?:的)?(?:那只|这只|小)?(?P<a>{_PET})"
    rf"(?:换|改|起|取|重新起|重新取)(?:了)?(?:个|一个)?(?:新)?(?:名字|名)|"
    rf"(?P<b>{_PET})(?:的名字|的名)?(?:已经|也)?(?:换|改)(?:了)?(?:个|一个)?(?:新)?(?:名字|名)|"
    # 鹦鹉的名字我们改了: who changed it said between the name and the verb
    rf"(?P<e>{_PET})的名字(?:我们|我|家里人|大家|孩子们)(?:已经|也|后来|最近)*(?:换|改)了(?=$|[，,])"
)
# …and the name it goes by now: 现在都喊它布丁了 / 大家管它叫布丁 / 改叫布丁.
_CALLED_NOW = re.compile(
    r"(?:^|[，,]|现在|后来|以后|从此)(?:我们|大家|家里人|孩子们|她|他|都|也|就|现在|改口|改)*"
    r"(?:管它叫|管牠叫|喊它|喊牠|叫它|叫牠|改叫|改名叫|喊|叫)(?:做)?(?P<x>[^，,。不它牠]{1,6}?)(?:了|啦|呢)?$"
)


def new_name(c: str, ctx: Context) -> list[Hit]:
    """A clause that renames a pet, and the name it goes by now when it says it; otherwise the
    next clause's "现在叫Y" fills the pet's name slot (``ctx.extra["slot"]``)."""
    slot = ctx.extra.get("slot")
    if (
        slot and slot.startswith("pet.") and slot.endswith(".name") and (m := _CALLED_NOW.search(c))
    ):  # (给猫换了个名字，)现在都喊它布丁了
        ctx.extra.pop("slot", None)
        name = name_value(m.group("x"))
        word = ctx.extra.get("pet_word", "宠物")
        return [Hit(F, slot, "pet.renamed", value=name, correction=slot == "pet.pet.name",
                        content=f"用户的{word}现在叫{name}")]  # fmt: skip
    m = _RENAME_ZH.search(c)
    if not m and (named := re.match(rf"^(?P<p>{_PET})(?:那个|这个|的)名字", c)):
        # 乌龟那个名字是我女儿起的，(后来她改口叫它阿呆了): the name that follows is its
        word = re.search(rf"(?:{PET_WORD})$", named["p"]).group(0)  # type: ignore[union-attr]
        ctx.extra["pet"], ctx.extra["pet_word"] = pet_key(word), word
        ctx.extra["slot"] = f"pet.{pet_key(word)}.name"
        return []
    if not m:
        return []
    said = m.group("a") or m.group("b") or m.group("c") or m.group("d") or m.group("e")
    word = re.search(rf"(?:{PET_WORD})$", said).group(0)  # type: ignore[union-attr]
    key = pet_key(word)
    ctx.extra["pet"], ctx.extra["pet_word"] = key, word
    ctx.extra["slot"] = f"pet.{key}.name"
    tail = c[m.end() :]
    if m.group("c") and tail:  # 狗狗的名字后来改成了可乐
        tail = "叫" + tail
    if n := _CALLED_NOW.search(tail):
        ctx.extra.pop("slot", None)
        name = name_value(n.group("x"))
        # a rename is a change in the world (value_changed), not a slip of the tongue
        return [Hit(F, f"pet.{key}.name", "pet.renamed", value=name, correction=key == "pet",
                    content=f"用户的{word}现在叫{name}")]  # fmt: skip
    return []
