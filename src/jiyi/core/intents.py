"""Which slots a query asks about, from its words alone (zh + en, no model).

"我现在住在哪个城市" asks for ``location.home``; "what's my cat's name" for ``pet``. A memory
whose slot answers the question is worth more than a raw message that merely sounds alike:
E5 puts "我住在哪里" closer to the outdated episode "我住在北京" than to the fact
"用户住在上海", and closer to unrelated short facts than to the answer. The cues below name
the attributes of jiyi's own slot schema (jiyi.core.extraction), not any data set.
"""

from __future__ import annotations

import re

from jiyi.core.extraction.lexicon import PETS_EN, PETS_ZH, RELATIONS_EN, RELATIONS_ZH
from jiyi.core.slots import GENERIC_SUBJECTS
from jiyi.core.text import to_simplified

__all__ = ["kin_synonyms", "query_slots", "slot_matches"]

_I = re.IGNORECASE
# (cue, slot prefixes it asks about). A prefix matches a topic equal to it or below it.
_CUES: tuple[tuple[re.Pattern[str], tuple[str, ...]], ...] = tuple(
    (re.compile(p, _I), prefixes)
    for p, prefixes in (
        (
            # ("do for a living" asks for a job, not a home)
            r"住|搬家|搬到|搬去|哪个城市|什么城市|家在|"
            r"\b(?:live|(?<!for a )living|lives|moved|move|based|reside|city)\b",
            ("location.home",),
        ),
        (
            r"老家|家乡|故乡|哪里人|哪儿人|\b(?:hometown|grew up|grow up|originally from|"
            r"where .* from)\b",
            ("location.hometown",),
        ),
        (
            r"职业|做什么工作|什么工作|干什么的|做什么的|岗位|职位|职务|头衔|职称|\b(?:job|occupation|"
            r"profession|career|do for a living|job title|role|rank|position)\b",
            ("work.role",),
        ),
        (
            r"公司|单位|哪家|在哪上班|在哪里上班|在哪工作|在哪里工作|老板|跳槽|\b(?:employer|company|"
            r"where do i work|who do i work for|firm)\b",
            ("work.employer", "location.work"),
        ),
        (
            r"工作|上班|办公室|干活|打工|返工|返工|\b(?:work|works|working|office|commute)\b",
            ("work", "location.work"),
        ),
        (r"名字|叫什么|称呼|怎么叫|\b(?:name|named|called)\b", ("identity.name", "name")),
        (r"生日|\b(?:birthday|bday)\b", ("birthday",)),
        (
            r"出生|哪年|哪一年|几几年|\b(?:born|birth year|what year)\b",
            ("identity.birth_year", "identity.generation"),
        ),
        (r"几岁|多大|年龄|\b(?:how old|age)\b", ("identity.age", "age")),
        (
            r"猫|狗|宠物|兔|鹦鹉|仓鼠|鱼|龟|\b(?:cat|cats|dog|dogs|pet|pets|puppy|kitten|bunny|rabbit|"
            r"hamster|parrot|fish|turtle)\b",
            ("pet",),
        ),
        (
            r"女儿|儿子|老婆|老公|妻子|丈夫|孩子|娃|妈|爸|父亲|母亲|家人|奶奶|爷爷|外婆|外公|姥姥|"
            r"哥|姐|弟|妹|\b(?:daughter|son|wife|husband|kid|kids|child|children|mom|mum|mother|"
            r"dad|father|sister|brother|family|grandma|grandpa|grandmother|grandfather|spouse|"
            r"partner)\b",
            ("family",),
        ),
        (
            r"过敏|病|药|身体|健康|忌口|\b(?:allerg\w*|medic\w*|health|condition|diabet\w*)\b",
            ("health", "family"),
        ),
        # 我能吃辣吗 / "can I eat shrimp": an allergy, or a taste (不吃辣 is a dislike)
        (
            r"能吃|能不能吃|不能吃|\b(?:can i eat|safe to eat)\b",
            ("health", "family", "pref", "diet"),
        ),
        (
            r"咖啡|茶|奶茶|饮料|喝什么|怎么喝|\b(?:coffee|tea|latte|drink|drinks|milk|sugar|"
            r"order at)\b",
            ("diet",),
        ),
        (r"吃素|素食|饮食|\b(?:vegetarian|vegan|diet)\b", ("diet", "pref", "health")),
        (
            r"爱好|兴趣|消遣|运动|\b(?:hobby|hobbies|interest\w*|sport|sports|pastime|for fun|"
            r"free time|spare time|leisure)\b",
            ("pref", "habit"),  # a sport is as often said as a habit (每周游泳) as a like
        ),
        # Asking to recommend or pick something is asking which tastes to respect.
        (
            r"喜欢|讨厌|偏好|最爱|推荐|挑|选|\b(?:like|likes|love|hate|prefer|favou?rite|enjoy|"
            r"into|recommend\w*|suggest\w*|pick|choose)\b",
            ("pref", "favorite", "diet"),
        ),
        (
            r"学校|年级|读书|上学|大学|专业|几年级|初[一二三]|高[一二三]|\b(?:school|grade|college|"
            r"university|major|study|studying)\b",
            ("education", "family"),
        ),
        (r"习惯|每天|平时|经常|\b(?:routine|habit|habits|usually|every day|daily)\b", ("habit",)),
        (
            r"计划|打算|目标|安排|行程|出差|旅行|旅游|\b(?:plan|plans|planning|goal|goals|schedule|"
            r"trips?|travel\w*|flying|flights?|vacation|holiday)\b",
            ("goal", "plan"),
        ),
        (r"最近|近况|状态|怎么样了|\b(?:lately|recently|these days|how am i)\b", ("state",)),
        (r"结婚|单身|离婚|对象|\b(?:married|single|divorced|engaged)\b", ("family.marital",)),
    )
)
# Asking about a relative or a pet, "name" / "age" / "school" are theirs, not the user's.
_SUBJECT_AREAS = ("family", "pet")
_USER_ONLY = ("identity", "name", "age", "birthday", "education")


def _named_subjects(text: str) -> list[str]:
    """Slot prefixes of the pets and relatives a query names ("my dog" → pet.dog,
    "我女儿" → family.daughter): more specific than the area cues."""
    found: list[str] = []
    low = text.lower()
    for zh, en, area in ((PETS_ZH, PETS_EN, "pet"), (RELATIONS_ZH, RELATIONS_EN, "family")):
        keys = [k for w, k in zh.items() if w in text]
        # the substring test first: a word boundary search per vocabulary word is the cost
        keys += [k for w, k in en.items() if w in low and re.search(rf"\b{re.escape(w)}s?\b", low)]
        # 宠物 / "pet" / 孩子 name no particular subject: the whole area
        found += [area if k in GENERIC_SUBJECTS else f"{area}.{k}" for k in keys]
    return list(dict.fromkeys(found))


def query_slots(query: str) -> tuple[str, ...]:
    """The slot prefixes ``query`` asks about, most specific cues first; () when none.
    A named pet or relative narrows its area ("my dog's name" → ``pet.dog``, not every
    pet)."""
    text = to_simplified(query)
    found: dict[str, None] = dict.fromkeys(_named_subjects(text))
    # Only a cue that names a pet or a relative makes the question about them; an area a
    # cue adds on the side ("几年级" → education and family: a child's grade) does not, or
    # "我现在读几年级" would lose the user's own education slot to every family fact.
    about_others = bool(found)
    firsts: set[str] = set()
    for pattern, prefixes in _CUES:
        if pattern.search(text):
            about_others = about_others or prefixes[0] in _SUBJECT_AREAS
            firsts.add(prefixes[0])
            for p in prefixes:
                found.setdefault(p, None)
    if "pref" in firsts and "diet" not in firsts and "habit" in found:
        found.pop("diet", None)  # "我喜欢什么运动": a sport, not a drink the user likes
    if about_others:
        for p in list(found):
            if p.startswith(_USER_ONLY):
                del found[p]
    if "work.role" in found or "work.employer" in found:  # the specific cue wins
        found.pop("work", None)
    if "location.work" in found and not re.search(r"住|搬|家在|\b(?:live|lives|moved)\b", text, _I):
        found.pop("location.home", None)  # 我在哪个城市干活: where the work is, not the home
    if "location.home" in found and any(p.startswith("family.") for p in found):
        # "我姐姐住在哪个城市": where the relative lives (住在西安 / 调到成都), not the user
        named = [p for p in found if p.startswith("family.") and p.count(".") == 1]
        found = dict.fromkeys(
            [q for p in named for q in (f"{p}.home", f"{p}.city")]
            + [p for p in found if p not in named and p != "location.home"]
        )
    for area in ("pet", "family"):  # a named subject narrows its area
        if any(p.startswith(area + ".") for p in found):
            found.pop(area, None)
    if _BREED.search(text):
        # "What breed is Ollie?": the breed, not the name or the age said beside it
        kinds = sorted(
            {p.split(".")[1] for p in found if p.count(".") >= 1 and p.startswith("pet.")}
        )
        breeds = [f"pet.{k}.breed" for k in kinds or _PET_KINDS]
        found = dict.fromkeys([*breeds, *(p for p in found if not p.startswith("pet"))])
    return tuple(found)


_BREED = re.compile(
    r"品种|什么狗|什么猫|什么犬|\b(?:breed|breeds|what kind of (?:dog|cat|pup))\b", _I
)
_PET_KINDS = sorted({*PETS_EN.values(), *PETS_ZH.values()})


def slot_matches(topic: str | None, prefixes: tuple[str, ...]) -> bool:
    """Is ``topic`` one of ``prefixes`` or below one of them?"""
    if not topic or not prefixes:
        return False
    return any(topic == p or topic.startswith(p + ".") for p in prefixes)


# Words for the same relative: a phone's contact list says 母亲 where a question says 妈妈.
# The keyword index holds jieba tokens, so a lone 姐 matches only where jieba left 姐 a word
# of its own (我姐调到成都 → 我/姐/调到), never inside 姐夫 or 大姐.
_KIN: tuple[tuple[str, ...], ...] = (
    ("妈妈", "母亲", "老妈", "妈"),
    ("爸爸", "父亲", "老爸", "爸"),
    ("老公", "丈夫"),
    ("老婆", "妻子"),
    ("女儿", "闺女"),
    ("哥哥", "兄长", "哥"),
    ("姐姐", "姐"),
    ("妹妹", "妹"),
    ("弟弟", "弟"),
    ("爷爷", "祖父"),
    ("奶奶", "祖母"),
    ("外公", "姥爷"),
    ("外婆", "姥姥"),
    ("父母", "爸妈"),
    ("mom", "mother", "mum"),
    ("dad", "father"),
    ("husband", "hubby", "hubs"),
    ("wife", "wifey", "missus"),
    ("grandma", "grandmother", "granny", "nana", "gran"),
    ("grandpa", "grandfather", "grandad", "granddad", "gramps"),
)
_KIN_OF = {w: group for group in _KIN for w in group}


def kin_synonyms(terms: list[str]) -> list[str]:
    """Other words for the relatives ``terms`` name, not already among them."""
    out: dict[str, None] = {}
    for t in terms:
        for w in _KIN_OF.get(t, ()):
            if w not in terms:
                out.setdefault(w, None)
    return list(out)
