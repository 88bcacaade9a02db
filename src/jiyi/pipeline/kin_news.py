"""A relative's news, stored as a description of them, changes the one fact of theirs it is news of.

"my son's company transfer him to the Sydney office already, he moved last month" after "My
son lives in Melbourne"; 我老公喺港鐵揸咗十幾年車都厭晒，而家轉咗去九巴 after 我老公喺港鐵做車長:
the rules keep such a message as something said about the relative (``family.son.about``) or
in a slot of theirs it is not about (a move read as a job), and the old city or employer stayed
active beside it. Here a candidate of one relative that says a change — a move, a new job or
a new school, by its verb — and names a value of the kind one stored fact of that same
relative holds (a place for where they live, a school or grade for where they study), other
than the stored value, is said again in that fact's slot: decided like any other correction
(same slot, new words: SUPERSEDE with history). A change of job needs no value of a kind: the
verb of leaving or joining is enough, with one stored job or employer of theirs.

Never by similarity, never for a visit, a trip, a plan or a wish, never across relatives
(the sister's move leaves the brother's city), and nothing when more than one stored fact of
that relative could be meant.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from jiyi.core.extraction.lexicon_places import is_place_zh
from jiyi.core.models import Candidate, MemoryItem, MemoryKind, Message, Scope
from jiyi.core.ports import MemoryStore
from jiyi.core.text import has_cjk, to_simplified
from jiyi.pipeline.decide import ACTIVE_MEMORIES
from jiyi.pipeline.restate import restated

__all__ = ["kin_news"]

I_ = re.IGNORECASE
_HOME = frozenset({"home", "city"})
_SCHOOL = frozenset({"school", "grade"})
_JOB = frozenset({"job", "employer"})

# The verbs of each kind of change (simplified Chinese, English).
_MOVED = re.compile(
    r"搬|迁|接到|接去|接过去|调到|调去|调过去|落户|定居|安顿|安家|扎根|常住|住到|住过去|"
    # ("transferred to the Olympia depot" says where one works, not where one lives)
    r"\b(?:moved|relocated|shifted|packed up|"
    r"gone (?:back )?to|went back to|settled|living in|lives in|now in|"
    r"(?:'s|is) in [A-Z][\w ]+ now|"
    r"collected (?:the )?keys|moved in)\b",
    I_,
)
_SCHOOLED = re.compile(
    r"转学|转到|转去|转了|升|跳级|跳一级|考上|考进|录取|插班|"
    r"\b(?:transferr(?:ed|ing)|moved (?:him|her|them|the \w+ \w+|the \w+)? ?(?:up )?to|"
    r"promot(?:ed|ing)|entered|enter|got into|got in|pulled \w+ out|put (?:him|her) in|"
    r"started at|starts at|now in|moved up)\b",
    I_,
)
_JOB_CHANGED = re.compile(
    r"辞|跳槽|离职|不干了|不做了|转行|改行|换了?工作|挖走|挖去|报到|入职|上岗|当上|考上|"
    r"转(?:了|咗)?去|现在在|现在去|而家喺|去了",
    I_,
)
_JOB_CHANGED_EN = re.compile(
    r"\b(?:quit|left|leaving|joined|joins|starts? at|started at|started (?:a|as|with)|"
    r"resumed|became|becomes|got out of|handed (?:his|her|their) notice|headhunted|"
    r"hired|poached|took (?:a|the) job|new job|switched to|now works?|"
    r"(?:is|'s) (?:now )?(?:driving|working|teaching|doing) .* now|now (?:at|with))\b",
    I_,
)
# A visit, a trip, a plan or a wish: nothing has changed yet, or only for a while.
_NOT_YET = re.compile(
    r"出差|旅游|旅行|玩|探亲|看望|看我|开会|度假|培训|想|打算|准备|计划|考虑|如果|要是|的话|"
    r"下个月|明年|可能|也许|暂时|几天|一周|一个星期|这周|这个星期|今天|退休后|退休以后|等.{1,6}以后|"
    # not done (没辞职, 还在小学教书), or asked of the user (叫我搬返佛山)
    r"没有?(?:辞|跳|换|搬|转)|还在|仍在|叫我|让我|要我|喊我|劝我|催我|说要|要搬|要去|要调|"
    r"\b(?:trip|visit(?:ing|ed)?|conference|holiday|vacation|for the weekend|for a week|"
    r"for a few|thinking|might|maybe|wants?|planning|plans?|considering|if|would|next month|"
    r"next year|temporar\w*|this week|today|tonight|right now|at the moment|once|someday|"
    r"one day|keeps? (?:saying|talking)|talk(?:s|ing) about|always says|been saying|still|"
    r"hasn't|didn't|never (?:left|moved)|not (?:leaving|moving)|asks? me|wants? me|"
    r"told me to)\b",
    I_,
)
# Someone of the relative's (a friend, a colleague), or someone the relative moved (我哥把她
# 接到北京): their news, not the relative's.
_THEIRS = re.compile(
    r"(?:的|'s |s )(?:最铁的|最好的|好|一个|个|best |old |close )?(?:同事|朋友|同学|闺蜜|兄弟|"
    r"邻居|室友|发小|mate|friend|colleague|coworker|co-worker|neighbou?r|roommate|flatmate|pal|"
    r"buddy)|把(?:他|她|它|我)|[他她](?:妈|爸|哥|姐|弟|妹)",
    I_,
)
# A place where English puts one: after "to", "in", "into" or "at" ("moved to Sydney").
_PLACE_EN = re.compile(
    r"\b(?:to|in|into|at)\s+(?:the\s+)?(?P<p>[A-Z][\w'.-]+(?: [A-Z][\w'.-]+){0,2})"
)
_SCHOOL_WORDS = re.compile(
    r"学校|小学|中学|国小|国中|高中|大学|学院|幼儿园|年级|大班|中班|小班|初[一二三]|高[一二三]|"
    r"\b(?:school|primary|elementary|junior|college|university|academy|grade|class|year|JSS\d|"
    r"SS\d|P\d)\b",
    I_,
)


def _relative(topic: str) -> tuple[str, str] | None:
    parts = topic.split(".")
    if len(parts) != 3 or parts[0] != "family":
        return None
    return parts[1], parts[2]


def _family(attribute: str) -> str:
    """``home`` / ``school`` / ``job`` for the attributes of those kinds; else as it is."""
    if attribute in _HOME:
        return "home"
    return "school" if attribute in _SCHOOL else "job" if attribute in _JOB else attribute


def _places(text: str) -> list[str]:
    """The places ``text`` names (simplified, for Chinese; as written, for English)."""
    if has_cjk(text):
        found = []
        for m in re.finditer(r"[\u4e00-\u9fff]{2,6}", text):
            run = m.group(0)
            found += [
                run[i:j]
                for i in range(len(run))
                for j in range(i + 2, min(len(run), i + 5) + 1)
                if is_place_zh(run[i:j])
            ]
        return found
    return [m["p"] for m in _PLACE_EN.finditer(text)]


def _fits(kind: str, c: Candidate, said: str, old: MemoryItem) -> bool:
    """Does ``c`` (whose message says ``said``) tell a new value of ``old``'s kind?"""
    old_text = to_simplified(old.content).lower()
    text = c.content or ""
    if kind in _HOME:
        if not _MOVED.search(said):
            return False
        places = [p for p in _places(text) if p.lower() not in old_text]
        return bool(places)
    if kind in _SCHOOL:
        return bool(_SCHOOLED.search(said)) and bool(_SCHOOL_WORDS.search(text))
    if _MOVED.search(said):
        return False  # a move, not a new job
    return bool(_JOB_CHANGED.search(said) if has_cjk(said) else _JOB_CHANGED_EN.search(said))


def kin_news(
    messages: Sequence[Message],
    admitted: Sequence[Candidate],
    *,
    scope: Scope,
    store: MemoryStore,
) -> list[Candidate]:
    """``admitted`` with each relative's news said in the one slot of theirs it changes (see
    the module doc)."""
    out = list(admitted)
    said_by = {m.id: m for m in messages if m.role == "user" and m.id and m.content}
    stored: list[MemoryItem] | None = None
    for c in admitted:
        who = _relative(c.topic or "")
        msg = next((said_by[i] for i in c.source_message_ids if i in said_by), None)
        if who is None or msg is None or c.kind not in (MemoryKind.FACT, MemoryKind.PREFERENCE):
            continue
        said = to_simplified(msg.content or "")
        if _NOT_YET.search(said) or _THEIRS.search(said):
            continue
        if stored is None:
            stored = [m for m in store.list(scope, ACTIVE_MEMORIES) if m.topic]
        # the relative's stored facts, each with its attribute (home, school, job, …)
        theirs = [
            (m, rel[1]) for m in stored if (rel := _relative(m.topic or "")) and rel[0] == who[0]
        ]
        if who[1] != "about" and any(m.topic == c.topic for m, _ in theirs):
            continue  # said in a slot of theirs the rules know: decided there
        # a kind said in a slot of the same kind (调到成都工作: the city one works in, which
        # replaces where one lives by the slots' own alias) is the rules' own change
        fits = [
            m
            for m, k in theirs
            if k in _HOME | _SCHOOL | _JOB
            and _family(k) != _family(who[1])
            and _fits(k, c, said, m)
        ]
        if len({m.topic for m in fits}) != 1:
            continue  # none, or more than one fact of theirs could be meant
        old = fits[0]
        if any(x.topic == old.topic for x in out if msg.id in x.source_message_ids):
            continue  # the message fills that slot itself
        new = restated(
            old,
            msg,
            content=c.content or "",
            quote=c.quote or "",
            value=None,
            metadata={**c.metadata, "rule": "kin.news", "was": c.topic},
        )
        out = [x for x in out if x is not c] + [new]  # the news, said in that slot
    return out
