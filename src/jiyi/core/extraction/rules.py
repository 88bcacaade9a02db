"""The offline rule extractor: zh/en messages in, memory candidates out.

Per user message the pipeline is::

    redact PII → drop click logs / chit-chat → split into clauses → per clause:
    forget request? → strip fillers and correction markers → skip questions, requests and
    other people → zh slot rules, then en slot rules → one Candidate per hit
    → within the message, the last hit per topic wins

Content style: one short sentence in the third person, in the language of the rule that
matched — "用户对花生过敏", "User is allergic to peanuts" — so a context block never has
to guess who "I" is. ``quote`` keeps the user's own (redacted) clause.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import datetime

from jiyi.core.extraction.en import match_en, third_person_en
from jiyi.core.extraction.en_people import mentioned_en
from jiyi.core.extraction.forget import match_forget
from jiyi.core.extraction.hit import Context, Hit
from jiyi.core.extraction.importance import score_importance
from jiyi.core.extraction.infer import bare_replacement, bare_value
from jiyi.core.extraction.lexicon import HEDGE_RE, PETS_EN
from jiyi.core.extraction.merge import add_hit, fold_apposition, in_script, script_of
from jiyi.core.extraction.segment import (
    is_chitchat,
    is_passive,
    is_request_or_question,
    is_third_party,
    split_clauses,
)
from jiyi.core.extraction.topics import clean_value
from jiyi.core.extraction.zh import match_zh
from jiyi.core.extraction.zh_common import third_person_zh
from jiyi.core.extraction.zh_people import mentioned_zh
from jiyi.core.models import (
    Candidate,
    Extraction,
    ForgetRequest,
    MemoryKind,
    Message,
    Skipped,
)
from jiyi.core.pii import redact_pii
from jiyi.core.slots import normalize_value
from jiyi.core.text import has_cjk, is_traditional, to_simplified
from jiyi.core.timewords import find_date

__all__ = ["RuleExtractor"]

CONFIDENCE_STATED = 0.9
CONFIDENCE_HEDGED = 0.6

_CORRECTION_ZH = re.compile(
    r"^(?:其实|实际上|事实上|更正一下|更正|纠正一下|纠正|(?:刚才|刚刚|之前|上面|前面)?(?:我)?(?:说|打|写|记|输|发|讲|算|看|填|选)"
    r"(?:错|岔|混|串)(?:字)?了?|不对|我改主意了|改主意了|我是说|我的意思是|应该是|准确地说|确切地说|哦不|不是不是|"
    r"不好意思|抱歉|而是|口误|笔误|搞错了|弄错了|我搞错了|我弄错了|修改一下|改一下)[，,：:\s]*"
)
# Markers that say the last value was wrong (a bare value after them is a correction); "其实 /
# actually" alone also open remarks that correct nothing.
_STRONG_MARKER = re.compile(
    r"说错|记错|打错|写错|讲错|算错|填错|说岔|记混|搞混|说串|不对|更正|纠正|我是说|我的意思是|应该是|口误|笔误|搞错|弄错|哦不|"
    r"\b(?:sorry|oops|whoops|i meant|correction|my bad|my mistake|i misspoke|typo|scratch that|"
    r"update|"
    r"i mean|make that|i mixed (?:it|that) up)\b",
    re.IGNORECASE,
)
_CORRECTION_EN = re.compile(
    r"^(?:actually|(?:quick |small |one |a |minor )?(?:correction|update)|sorry|oops|whoops|wait|"
    r"no wait|"
    r"i meant|i mean|what i meant (?:is|was)|fix|edit|"
    r"to be clear|let me correct (?:that|myself)|scratch that|i(?:'ve| have)? changed my mind|"
    r"changed my mind|update|on second thought|my bad|my mistake|i misspoke|typo|i mistyped|"
    r"to correct myself|i was wrong|i got (?:that|it) wrong|i made a mistake|let me rephrase|"
    r"no,? sorry|not quite|i should say|i should have said)\b"
    r"(?: (?:earlier|before|above|there|in my last message))?[,:\s-]*",
    re.IGNORECASE,
)
_FILLER_ZH = re.compile(
    r"^(?:嗯+|啊|哦|噢|对了|还有|另外|顺便说一下|顺便说下|顺便提一下|顺便提下|顺便说|顺便|话说|然后|而且|"
    r"并且|所以|因为|不过|但是|可是|补充一下|补充|另外说一下|"
    r"(?:但|可|而|就)(?=我|他|她|它|最近|现在|后来)|"
    r"哈哈+|说真的|老实说|讲真|说实话|跟你说|告诉你|"
    # interjections before what is said: 哎呀我都30了 / 唉，我家猫改名了
    r"(?:哎呀|哎哟|哎|唉|哇|诶|欸|呃|额|嗨|天哪|天啊|啊呀)+(?=[，,！!。\s~～]|我))[，,：:！!\s~～]*"
)
# Short words like "no" or "ok" are fillers only before a comma ("no more X" is content).
_FILLER_EN = re.compile(
    r"^(?:(?:btw|by the way|also|and|so|but|plus|um+|uh+|fyi|just so you know|for the record|since|"
    r"because|cause|'cause|as|given that|"
    r"and also|anyway|these days|nowadays|lately|right now|quick background|some background|"
    r"background|long story short|turns out|fun fact|for context|basically|anyway|in short|"
    r"a bit about me|about me|\w+-wise)\b[,:\s]*|"
    r"(?:oh|well|hey|ok|okay|yeah|yes|no|lol|haha|honestly|tbh|ugh|ah|aw|whoa|wow|"
    r"(?:big|good|great|some|fun|exciting|sad|quick|small) (?:news|update)|heads up|"
    r"to be honest|hmm+)\s*[,:!]\s*)",
    re.IGNORECASE,
)
# "请记住 / remember that" only frames the statement that follows.
_REMEMBER = re.compile(
    r"^(?:请|你|麻烦)?(?:帮我)?(?:记住|记一下|记下来|记下|记着|记好了?)[：:，,\s]*|"
    r"^(?:please\s+)?(?:remember|note|keep in mind|make a note)(?:\s+that)?[:,\s]+",
    re.IGNORECASE,
)


# Asides at the end of an English clause: "i'm 29 btw", "born in 1987 if that helps".
_TRAILING_EN = re.compile(
    r"(?:,?\s+(?:btw|lol|haha|fyi|if that helps|just so you know|by the way|though|tbh|honestly|"
    r"to be honest|if that matters|for what it's worth|fwiw|i guess|anyway|"
    r"if you need to know|for context)[.!]*)+$",
    re.IGNORECASE,
)
# A clause that makes the rest of the message conditional, and hedges that take back a wish.
_HYPOTHETICAL = re.compile(
    r"^(?:如果|要是|假如|假设|万一|倘若)|^(?:if|in case|suppose|supposing)\b", re.IGNORECASE
)
_DOUBT = re.compile(r"(?:应该|估计|大概)?不(?:太)?可能|\b(?:probably not|never going to happen)\b")
# A clause that names the user (or their family) again after one about someone else.
_SELF = re.compile(r"^(?:我|咱|i\b|i'm|i've|my\b|we\b|our\b)", re.IGNORECASE)
# "我其实是…" / "我女儿其实叫果果": the marker sits after the subject.
_INNER_MARKER_ZH = re.compile(r"^(?P<s>我[^，,其实际事应]{0,5}?)(?:其实|实际上|事实上|应该是)")
# "…才对 / …才是对的": the value before it is the right one (a correction)
_RIGHT_TAIL_ZH = re.compile(r"(?:才对|才是对的|才是|就对了)(?:啦|哦|呀|的)?$")
# A tail naming the wrong value: "我妹妹叫李静不是李婷", "I was born in 1986 not 1987".
_NOT_TAIL_ZH = re.compile(r"(?<=[\u4e00-\u9fff\w])[，,]?(?:而)?不是(?P<y>[^，,。不]{1,12})$")
_NOT_TAIL_EN = re.compile(
    r"(?P<pre>\S)(?:,\s*|\s+)(?:not|instead of|rather than)\s+(?P<y>[\w'. -]{1,30})$", re.I
)
# Words before "not" that make it an ordinary negation ("I'm really not a morning person").
_AUX_EN = frozenset(
    "do does did am is are was were can could will would should have has had 'm 're i i'm i'd "
    "really honestly just definitely rather probably certainly absolutely usually still also "
    "actually so very quite simply truly maybe perhaps almost".split()
)


# A clause that only names the wrong value: "不是小丽", "not 1987", "刚才说成围棋了".
_WRONG = re.compile(
    r"^(?:而)?不是(?P<y>.*)$|^not\s+(?P<z>.*)$|"
    r"^(?:刚才|之前|上次|我)?(?:说成|写成|打成|说错成|记成)(?:了)?(?P<w>.+?)了?$",
    re.IGNORECASE,
)


_NO_VALUE = re.compile(r"|(?:那|这)[儿里边]?|[Tt]here|[Hh]ere|it|that")
_ORDER = re.compile(
    r"\b(?:that's|thats|that is) (?:my|what i) (?:usual|order|go-to|always get|usually get|"
    r"always order|usually order)\b|\bmy (?:usual|standard|regular) order\b|"
    r"^(?:my )?(?:usual|order|go-to)\s*:",
    re.IGNORECASE,
)


def _not_tail(text: str) -> tuple[str, str | None]:
    """Split off a tail that names the value being replaced."""
    m = _NOT_TAIL_ZH.search(text)
    if m and m.start() >= 2:  # 是叫豆浆不是豆花啦: the particle is not part of the value
        return text[: m.start()].strip(), re.sub(
            r"[了啦呀啊哦吧呢嘛哈]+$", "", m.group("y")
        ).strip()
    m = _NOT_TAIL_EN.search(text)
    if m:
        before = text[: m.start("pre") + 1]
        last = before.split()[-1].lower() if before.split() else ""
        if last not in _AUX_EN and not last.endswith(("n't", "'m", "'re")):
            return before.strip(), m.group("y").strip()
    return text, None


def _prepare(clause: str) -> tuple[str, bool, str | None]:
    """Strip fillers, "remember that" and correction markers; report whether one was a
    correction marker, and the value a "…, not Y" tail says was wrong."""
    text = clause.replace("’", "'").replace("‘", "'").strip()
    corrected = False
    prev = None
    while prev != text:
        prev = text
        for pattern in (_FILLER_ZH, _FILLER_EN, _REMEMBER):
            text = pattern.sub("", text, count=1).strip()
        for pattern in (_CORRECTION_ZH, _CORRECTION_EN, _INNER_MARKER_ZH):
            stripped = pattern.sub(r"\g<s>" if pattern is _INNER_MARKER_ZH else "", text, count=1)
            stripped = stripped.strip()
            corrected = corrected or stripped != text
            text = stripped
    text = _TRAILING_EN.sub("", text).strip()
    if (right := _RIGHT_TAIL_ZH.search(text)) and right.start() >= 2:
        text, corrected = text[: right.start()].strip(), True
    text, replaces = _not_tail(text)
    return text, corrected or replaces is not None, replaces


def _full_year(value: str, now: datetime) -> str:
    """88 / 八八 / '91 → 1988 / 1988 / 1991; a four-digit year as it is."""
    digits = normalize_value(value).lstrip("'")
    if not re.fullmatch(r"\d{2}", digits):
        return value
    century = 2000 if int(digits) <= now.year % 100 else 1900
    return str(century + int(digits))


def _candidate(
    hit: Hit, quote: str, clause: str, lang: str, msg: Message, observed: datetime, correction: bool
) -> Candidate:
    content = hit.content or (third_person_zh(clause) if lang == "zh" else third_person_en(clause))
    expires = None
    if hit.ttl is not None:
        # Events count from their own day (when in the future); states from when said.
        base = (
            hit.when
            if hit.kind is MemoryKind.EVENT and hit.when and hit.when > observed
            else (observed)
        )
        expires = base + hit.ttl
    metadata = {"rule": hit.rule, "lang": lang, "polarity": hit.polarity, "object": hit.obj}
    # Keyed slots (pref.茶, health.allergy.花生) hold a polarity; others say their value.
    value = hit.value if hit.value is not None else hit.polarity
    if hit.topic == "identity.birth_year" and value:
        value = _full_year(value, observed)  # 88年的 = 1988: one value, however it is said
    if hit.rule == "bare.replaces":  # admitted as a correction; its slot is resolved on write
        content = third_person_zh(clause) if lang == "zh" else third_person_en(clause)
    return Candidate(
        kind=hit.kind,
        topic=hit.topic or None,
        value=value,
        content=content,
        # What was understood counts too: "Peanuts make me break out" is an allergy.
        # (a rule that reads the clause as how today is going weighs the whole message)
        importance=max(
            score_importance(
                f"{quote} {content}" + (f" {msg.content}" if hit.rule.endswith(".today") else ""),
                hit.kind,
            ),
            0.6 if hit.rule == "bare.replaces" else 0.0,
        ),
        confidence=CONFIDENCE_HEDGED if HEDGE_RE.search(quote) else CONFIDENCE_STATED,
        quote=quote,
        source_message_ids=[msg.id] if msg.id else [],
        role="user",
        is_correction=correction,
        valid_from=hit.when,
        expires_at=expires,
        observed_at=observed,
        metadata={k: v for k, v in metadata.items() if v is not None},
    )


# A move said without "live" (搬回泉州住了 / we packed up and moved to Tucson): the value's
# type (a known city after a verb of moving) names the slot. Not for plans.
_MOVE_ZH = re.compile(
    r"(?:搬|迁)(?:了)?(?:家)?(?:到|去|回|来|至)(?:了)?(?:老家)?(?P<x>[\u4e00-\u9fff]{2,4}?)"
    r"(?=住|定居|生活|安家|了|去|来|$|[，,])"
)
_MOVE_EN = re.compile(
    r"\b(?:moved|relocated|settled) (?:back |over |out |down |up |away )?(?:to|in) "
    r"(?P<x>[A-Z][a-z]+(?: [A-Z][a-z]+)?)\b"
)
_NOT_YET = re.compile(
    r"要|打算|准备|计划|想|将|下个?月|明年|下周|\b(?:will|going to|plan|next|soon|hope)\b"
)


def _moved_to(clause: str, lang: str) -> Hit | None:
    """The home a clause moves to, when a known city follows a verb of moving."""
    from jiyi.core.extraction.en_facts import is_place_en
    from jiyi.core.extraction.lexicon_places import is_place_zh

    if _NOT_YET.search(clause):
        return None
    if lang == "zh" and (m := _MOVE_ZH.search(clause)) and is_place_zh(m.group("x")):
        return Hit(MemoryKind.FACT, "location.home", "home.moved", value=m.group("x"),
                   content=f"用户住在{m.group('x')}")  # fmt: skip
    if lang == "en" and (m := _MOVE_EN.search(clause)) and is_place_en(m.group("x")):
        return Hit(MemoryKind.FACT, "location.home", "home.moved", value=m.group("x"),
                   content=f"User lives in {m.group('x')}")  # fmt: skip
    return None


def _fold_relative_about(found: dict[str, Candidate], lang: str) -> None:
    """One memory per relative per message: "My husband left IBM, he's at Oracle now" is the
    employer, told with what led to it, not also a vague "about" memory of the husband."""
    for topic in [t for t in found if t.startswith("family.") and t.endswith(".about")]:
        who = topic[: -len("about")]
        said = [c for t, c in found.items() if t.startswith(who) and t != topic]
        if len(said) == 1 and not said[0].topic.startswith(who + "pref"):  # type: ignore[union-attr]
            about = found.pop(topic)
            sep = "，" if lang == "zh" else "; "
            if about.content not in said[0].content:
                said[0].content = f"{about.content}{sep}{said[0].content}"
            said[0].quote = f"{about.quote}{sep}{said[0].quote}" if about.quote else said[0].quote


class RuleExtractor:
    """Offline zh/en extractor; implements the Extractor protocol.

    Deterministic and dependency-free (no model, no network). It recognises the common
    ways people state identity, family, pets, health, preferences, goals, plans, states,
    corrections and forget requests; anything it cannot place is skipped with a reason,
    never guessed. Relative dates ("明天", "next Friday") resolve against the message
    timestamp, or ``now`` when the message has none.
    """

    name = "rules"

    def extract(self, messages: Sequence[Message], *, now: datetime) -> Extraction:
        """Candidates, forget requests and skipped messages for ``messages``.

        Every user message yields at least one candidate or forget request, or one
        :class:`Skipped` with a reason: ``assistant_text``, ``system_text``, ``empty``,
        ``passive_behavior``, ``chit_chat`` or ``no_personal_info``. ``queries`` holds the
        last user message when it asks something. Candidate text and quotes are PII-redacted.
        """
        out = Extraction()
        for msg in messages:
            self._message(msg, now, out)
        for msg in reversed(messages):
            if msg.role == "user":
                text = redact_pii(msg.content)[0].strip()
                if any(is_request_or_question(_prepare(c)[0]) for c in split_clauses(text)):
                    out.queries.append(text)
                break
        return out

    def _message(self, msg: Message, now: datetime, out: Extraction) -> None:
        text = redact_pii(msg.content)[0].strip()
        # Rules match simplified Chinese; what a traditional-Chinese user said is turned back
        # into their script (content and quote) when the candidates are built.
        trad = is_traditional(text)
        script = script_of(text) if trad else {}
        text = to_simplified(text)
        if msg.role != "user":
            out.skipped.append(Skipped(text=text, reason=f"{msg.role}_text"))
            return
        if not text:
            out.skipped.append(Skipped(text=text, reason="empty"))
            return
        if is_passive(text):
            out.skipped.append(Skipped(text=text, reason="passive_behavior"))
            return
        if is_chitchat(text):
            out.skipped.append(Skipped(text=text, reason="chit_chat"))
            return

        observed = msg.timestamp or now
        ctx = Context(ref=observed)
        if _ORDER.search(text):  # "Espresso, double shot, no sugar - that's my usual"
            ctx.extra["order"] = "1"
        found: dict[str, Candidate] = {}
        forgot = False
        correcting = False
        pending: str | None = None
        strong = False
        spoken = 0  # clauses with content so far
        other = hypothetical = False
        clauses = split_clauses(text)
        for i, raw in enumerate(clauses):
            clause, marker, replaces = _prepare(raw)
            # "It's 1988, not 1987": the clause after names what this one corrects
            ahead = _WRONG.match(_prepare(clauses[i + 1])[0]) if i + 1 < len(clauses) else None
            correcting = correcting or marker
            if marker:
                ctx.extra["marked"] = "1"  # rules may read a statement as setting a value right
            strong = strong or bool(_STRONG_MARKER.search(raw))
            if not clause or is_chitchat(clause):
                continue
            spoken_before, spoken = spoken, spoken + 1
            is_forget, target = match_forget(clause)
            if is_forget:
                out.forget.append(ForgetRequest(text=raw, target=target, source_message_id=msg.id))
                forgot = True
                continue
            wrong = _WRONG.match(clause)
            if wrong and wrong.group("z") and len(wrong.group("z").split()) > 3:
                wrong = None  # "Not a big fan of sushi": a statement, not "…, not Y"
            if wrong:
                # "…叫小美，不是小丽": the clause before was a correction, of 小丽.
                said = clean_value(wrong.group("y") or wrong.group("z") or wrong.group("w") or "")
                said = re.sub(r"^(?:a|an|the|my)\s+", "", said, flags=re.I)
                for cand in found.values():
                    cand.is_correction = True
                    cand.replaces = cand.replaces or said or None
                pending = None if found else (said or None)  # "不是成都，是绵阳": 绵阳 comes next
                correcting = correcting or pending is not None
                continue
            family_pronoun = bool(ctx.extra) and bool(
                re.match(r"^(?:她|他)(?!们)|^(?:he|she|he's|she's|his|her)\b", clause, re.I)
            )
            # "Sorry, he's a malamute, not a husky": only a pet is a breed
            breed = re.match(r"^(?:he|she)(?:'s| is) (?:actually )?an? (.+)$", clause, re.I)
            family_pronoun = family_pronoun or bool(
                breed and breed.group(1).lower() in PETS_EN and (correcting or replaces or ahead)
            )
            if said_when := find_date(clause, observed):  # 我朋友下周结婚，我要去当伴娘: 下周
                ctx.extra["last_date"], ctx.extra["last_dated"] = said_when[1], clause
            if _HYPOTHETICAL.match(clause):
                hypothetical = True  # "如果可以的话，我也想养只猫": what follows is not a plan
                continue
            if is_third_party(clause) and not family_pronoun:
                other = True  # "我闺蜜最近在减肥，每天只吃沙拉": both clauses are hers
                continue
            if other and not _SELF.match(clause):
                continue
            other = False
            if is_request_or_question(clause):
                # "帮我女儿挑个生日礼物吧，她下个月满八岁": the request names who "她" is
                lang = "zh" if has_cjk(clause) else "en"
                hits = (mentioned_zh if lang == "zh" else mentioned_en)(clause, ctx)
                for hit in hits:
                    found[hit.topic] = _candidate(hit, raw, clause, lang, msg, observed, False)
                continue
            if hypothetical or _DOUBT.search(clause):
                continue
            lang, hits = "zh", match_zh(clause, ctx) if has_cjk(clause) else []
            if not hits and (re.search(r"[A-Za-z]", clause) or not has_cjk(clause)):
                lang, hits = "en", match_en(clause, ctx)
            first = not found and spoken_before == 0  # "其实是1990年": the value is all it says
            if not hits and (strong or replaces or pending or ahead or (correcting and first)):
                lang = "zh" if has_cjk(clause) else "en"
                hits = bare_value(clause, lang)  # 说错了，是1990年 / I meant Lisbon
            if (
                not hits
                and (replaces or pending or ahead)
                and (named := bare_replacement(clause, lang))
            ):
                hits = [named]  # I meant cashews, not peanuts: the slot that holds "peanuts"
            if (
                all(h.kind in (MemoryKind.EVENT, MemoryKind.STATE) for h in hits)
                and not is_third_party(clause)
                and (moved := _moved_to(clause, "zh" if has_cjk(clause) else "en"))
            ):  # 今年我们一家都搬回泉州住了: where the user lives now, by the value's type
                hits = [*hits, moved]
            for hit in hits:
                if hit.value is not None and _NO_VALUE.fullmatch(hit.value.strip()):
                    continue  # "我住在那边" with nothing named before: no value to keep
                cand = _candidate(
                    hit, raw, clause, lang, msg, observed, correcting or hit.correction
                )
                cand.replaces = replaces or pending
                cand.is_correction = cand.is_correction or bool(pending)
                add_hit(found, hit, cand, clause, raw, lang)
        fold_apposition(found)
        _fold_relative_about(found, lang="zh" if has_cjk(text) else "en")
        if trad:
            for cand in found.values():
                cand.content = in_script(cand.content, script)
                cand.quote = in_script(cand.quote, script) if cand.quote else cand.quote
                cand.value = in_script(cand.value, script) if cand.value else cand.value
        out.candidates.extend(found.values())
        if not found and not forgot:
            chat = all(is_chitchat(_prepare(c)[0]) for c in split_clauses(text))
            out.skipped.append(
                Skipped(text=text, reason="chit_chat" if chat else ("no_personal_info"))
            )
