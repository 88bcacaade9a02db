"""The offline rule extractor: zh/en messages in, memory candidates out.

Per user message the pipeline is::

    redact PII → drop click logs / chit-chat → split into clauses → per clause:
    forget request? → strip fillers and correction markers (:mod:`.markers`) → skip
    questions, requests and other people → zh slot rules, then en slot rules → one
    Candidate per hit → within the message, the last hit per topic wins

Content style: one short sentence in the third person, in the language of the rule that
matched — "用户对花生过敏", "User is allergic to peanuts" — so a context block never has
to guess who "I" is. ``quote`` keeps the user's own (redacted) clause.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import datetime

from jiyi.core.doses import with_doses
from jiyi.core.extraction.candidate import make_candidate
from jiyi.core.extraction.clause_hits import _PASSING, clause_hits
from jiyi.core.extraction.contrast import words_of
from jiyi.core.extraction.en import match_en
from jiyi.core.extraction.en_common import as_read_en
from jiyi.core.extraction.en_people import mentioned_en
from jiyi.core.extraction.en_years import WRONG_BEFORE
from jiyi.core.extraction.forget import match_forget
from jiyi.core.extraction.hit import Context
from jiyi.core.extraction.kept import kept
from jiyi.core.extraction.kin_segments import read_as_relative
from jiyi.core.extraction.lexicon import PETS_EN
from jiyi.core.extraction.markers import DOUBT as _DOUBT
from jiyi.core.extraction.markers import EMPHASIS as _EMPHASIS
from jiyi.core.extraction.markers import HYPOTHETICAL as _HYPOTHETICAL
from jiyi.core.extraction.markers import MEANT_NEXT as _MEANT_NEXT
from jiyi.core.extraction.markers import MEANT_TO as _MEANT_TO
from jiyi.core.extraction.markers import NO_VALUE as _NO_VALUE
from jiyi.core.extraction.markers import ORDER as _ORDER
from jiyi.core.extraction.markers import STRONG_MARKER as _STRONG_MARKER
from jiyi.core.extraction.markers import TOLD_BEFORE as _TOLD_BEFORE
from jiyi.core.extraction.markers import WISH_ZH, WISHED_ON, told_wrong_zh
from jiyi.core.extraction.markers import WRONG as _WRONG
from jiyi.core.extraction.markers import prepare as _prepare
from jiyi.core.extraction.merge import (
    add_hit,
    drop_bare_echoes,
    fold_apposition,
    fold_parts,
    fold_relative_about,
    in_script,
    script_of,
)
from jiyi.core.extraction.segment import (
    is_chitchat,
    is_passive,
    is_request_or_question,
    split_clauses,
)
from jiyi.core.extraction.subject import (
    BOSS_GONE,
    DONE_TO_ME,
    LANDLORD,
    SAID_OF_ME,
    SOMEONE_ELSE,
    TIME_THEN_PRONOUN,
    YOU_SAID,
    Who,
    named_first,
    read_subject,
)
from jiyi.core.extraction.topics import clean_value, is_name
from jiyi.core.extraction.zh import match_zh
from jiyi.core.extraction.zh_common import normalise_zh
from jiyi.core.extraction.zh_people import mentioned_zh
from jiyi.core.extraction.zh_pets import breed_said_wrong
from jiyi.core.models import (
    Candidate,
    Extraction,
    ForgetRequest,
    Message,
    Skipped,
)
from jiyi.core.pii import redact_pii
from jiyi.core.text import has_cjk, is_traditional, to_simplified
from jiyi.core.timewords import find_date

__all__ = ["RuleExtractor"]


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

    def _kin_swap(
        self, msg: Message, text: str, now: datetime, found: dict[str, Candidate]
    ) -> None:
        """A message about one relative read again with the user's own rules, the user in
        the relative's place (:func:`.kin_segments.read_as_relative`)."""

        def reread(said: str) -> list[Candidate]:
            out = Extraction()
            self._message(msg.model_copy(update={"content": said}), now, out, again=True)
            return out.candidates

        read_as_relative(text, found, reread)

    def _message(
        self, msg: Message, now: datetime, out: Extraction, *, again: bool = False
    ) -> None:
        text = redact_pii(msg.content)[0].strip()
        # Rules match simplified Chinese; what a traditional-Chinese user said is turned back
        # into their script (content and quote) when the candidates are built.
        trad = is_traditional(text)
        script = script_of(text) if trad else {}
        text = as_read_en(to_simplified(text))
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
        ctx = Context(ref=observed, kin_swap=again)
        if _ORDER.search(text):  # "Espresso, double shot, no sugar - that's my usual"
            ctx.extra["order"] = "1"
        found: dict[str, Candidate] = {}
        forgot = False
        correcting = False
        pending: str | None = None
        strong = False
        frame = ""  # what a clause said before the value it took back (我老家 | 不是成都)
        spoken = 0  # clauses with content so far
        other = hypothetical = wishing = by_name = False
        clauses = split_clauses(text)
        for i, raw in enumerate(clauses):
            clause, marker, replaces = _prepare(raw)
            # "It's 1988, not 1987": the clause after names what this one corrects
            after = _prepare(clauses[i + 1]) if i + 1 < len(clauses) else ("", False, None)
            ahead = _WRONG.match(after[0]) if after[0] else None
            then = _prepare(clauses[i + 2])[0] if i + 2 < len(clauses) else ""  # 查了，不是X，是Y:
            ahead = None if re.match(r"^(?:而|只|其实)?是", then) else ahead  # Y, not 查了
            # "It's 1979, actually": a marker alone after the value marks this clause
            marker = marker or (not after[0] and after[1])
            correcting = correcting or marker
            if marker:
                ctx.extra["marked"] = "1"  # rules may read a statement as setting a value right
            if WRONG_BEFORE.search(raw):  # "did i say 1986 earlier??" (a question): its 1988
                ctx.extra["year_wrong"] = "1"
            strong = strong or bool(_STRONG_MARKER.search(raw))
            if not clause or is_chitchat(clause):
                # 要是周二下雨，(网球就改到周四): weather talk, but still the condition
                hypothetical = hypothetical or bool(_HYPOTHETICAL.match(clause))
                continue
            spoken_before, spoken = spoken, spoken + 1
            ctx.follows = spoken_before > 0
            is_forget, target = match_forget(clause)
            if is_forget:
                out.forget.append(ForgetRequest(text=raw, target=target, source_message_id=msg.id))
                forgot = True
                continue
            told = _TOLD_BEFORE.match(clause)
            meant = i + 1 < len(clauses) and _MEANT_NEXT.match(clauses[i + 1].strip())
            if told and meant:
                # "I told you I work for Royal Caribbean, I meant Celebrity": what was said
                # before is named as the wrong value, the next clause gives the right one
                before = [h.value for h in match_en(told["rest"], ctx) if h.value]
                if before:
                    pending, correcting = before[0], True
                    continue
            if wrong_before := told_wrong_zh(clause, not after[0] and after[1]):
                pending, correcting = wrong_before, True  # 我上次说我32是骗你的，其实是35
                breed_said_wrong(clause, ctx)  # 之前说阿福是柴犬其实不对: 阿福's breed next
                continue
            if (you := YOU_SAID.match(clause)) and (rest := clause[you.end() :].strip()):
                # 刚才你说我儿子三年级，不对，他已经四年级了: the assistant's words name whom
                # the next clauses are about; their value is the wrong one, nothing is kept
                _ = match_zh(rest, ctx) if has_cjk(rest) else match_en(rest, ctx)
                correcting = True
                continue
            wrong = _WRONG.match(clause)
            # (唔係對貓毛敏感，係對塵蟎: Cantonese 係 is 是)
            nxt = normalise_zh(to_simplified(after[0])) if has_cjk(after[0]) else after[0]
            if (
                not wrong
                and re.match(r"^(?:原来|其实)?我(?:不是|唔系|唔係)", clause)
                and re.match(r"^(?:而|只|其实)?是", nxt)
            ):
                # 我不是对花生过敏，是对芝麻: "not X, Y"
                wrong = _WRONG.match(clause[clause.index("我") + 1 :])
            # "…, not a heeler at all": the emphasis is no part of the value said wrong
            z = _EMPHASIS.sub("", wrong.group("z") or "") if wrong else ""
            if wrong and len(z.split()) > 3:
                wrong = None  # "Not a big fan of sushi": a statement, not "…, not Y"
            if wrong and re.search(r"\b(?:any ?more|now)$", wrong.group("z") or "", re.I):
                wrong = None  # "so not vegetarian anymore": something stopped, not "…, not Y"
            if wrong:
                # "…叫小美，不是小丽": the clause before was a correction, of 小丽.
                said = clean_value(wrong.group("y") or z or wrong.group("w") or "")
                said = re.sub(r"^(?:a|an|the|my)\s+|^(?:在|住在)(?=..)", "", said, flags=re.I)
                # (不是对猫毛敏感: the allergen is the value said wrong)
                said = re.sub(r"^(?:对|對)(.+?)(?:过敏|過敏|敏感)$", r"\1过敏", said)
                # 查了，不是花生过敏，是腰果过敏: the right value comes next, 查了 is not set right
                forward = bool(re.match(r"^(?:而|只|其实|应该)?是", nxt))
                for cand in () if forward else found.values():
                    cand.is_correction = True
                    cand.replaces = cand.replaces or said or None
                pending = None if found and not forward else (said or None)  # 不是成都，是绵阳
                correcting = correcting or pending is not None
                continue
            who = read_subject(clause)
            by_name = named_first(clause) or (by_name and who is Who.UNSAID)  # 小红辞职了，…
            if who is Who.HE_SHE:  # 九月开学她就升六年级了: the pronoun first, as the rules read it
                clause = TIME_THEN_PRONOUN.sub(r"\g<p>\g<t>", clause, count=1)
            family_pronoun = bool(ctx.extra or ctx.name_en) and who is Who.HE_SHE
            # "Sorry, he's a malamute, not a husky": only a pet is a breed
            breed = re.match(
                r"^(?:he|she)(?:'s| is) (?:actually |mostly |mainly |really )*(?:an? )?(.+?)"
                r"(?: mix| cross| mutt)?$",
                clause,
                re.I,
            )
            family_pronoun = family_pronoun or bool(
                breed and breed.group(1).lower() in PETS_EN and (correcting or replaces or ahead)
            )
            if said_when := find_date(clause, observed):  # 我朋友下周结婚，我要去当伴娘: 下周
                ctx.extra["last_date"], ctx.extra["last_dated"] = said_when[1], clause
            if _HYPOTHETICAL.match(clause):
                hypothetical = True  # "如果可以的话，我也想养只猫": what follows is not a plan
                continue
            if who in SOMEONE_ELSE and LANDLORD.match(clause):
                continue  # 房东要把房子收回去卖，现在住沙鹿了: the landlord's act, the user's move
            if who in SOMEONE_ELSE and BOSS_GONE.match(clause):
                continue  # 老板跑路，这周开始去华丰鞋业上班: the boss's end, the user's new job
            if who in SOMEONE_ELSE and not family_pronoun and SAID_OF_ME.match(clause):
                other = False  # 老板说我SQL写得好，下个月转去做…: what follows is the user's
                continue
            if who in SOMEONE_ELSE and not family_pronoun and not DONE_TO_ME.match(clause):
                other = True  # "我闺蜜最近在减肥，每天只吃沙拉": both clauses are hers
                continue
            if other and who not in (Who.USER, Who.FAMILY):
                continue  # until a clause names the user (or their family) again
            other = False
            if is_request_or_question(clause):
                # "帮我女儿挑个生日礼物吧，她下个月满八岁": the request names who "她" is
                lang = "zh" if has_cjk(clause) else "en"
                hits = (mentioned_zh if lang == "zh" else mentioned_en)(clause, ctx)
                for hit in hits:
                    found[hit.topic] = make_candidate(hit, raw, clause, lang, msg, observed, False)
                continue
            wished, wishing = wishing and bool(WISHED_ON.match(clause)), bool(WISH_ZH.match(clause))
            if hypothetical or wished or _DOUBT.search(clause) or _MEANT_TO.search(clause):
                continue
            first = not found and spoken_before == 0  # "其实是1990年": the value is all it says
            lang, hits, replaces = clause_hits(
                clause,
                ctx,
                who,
                pending=pending,
                frame=frame,
                replaces=replaces,
                ahead=ahead,
                strong=strong,
                correcting=correcting,
                first=first,
            )
            frame = ""
            if by_name:  # (what a named person did, and the clauses after without a subject)
                hits = [h for h in hits if (h.topic or "").startswith(("family.", "pet."))]
            for hit in hits:
                if kept(hit, clause, text):
                    continue  # 朋友介绍我去新濠…推咗 / 出差在上海这几天: the job and home stay
                if hit.value is not None and _NO_VALUE.fullmatch(hit.value.strip()):
                    continue  # "我住在那边" with nothing named before: no value to keep
                if (hit.topic or "").endswith(".name") and not is_name(hit.value or ""):
                    continue  # 其实我女儿的名字是她爷爷取的: about the name, not a new one
                cand = make_candidate(
                    hit, raw, clause, lang, msg, observed, correcting or hit.correction
                )
                cand.replaces = replaces or (pending and words_of(pending, clause))
                cand.is_correction = cand.is_correction or bool(pending)
                add_hit(found, hit, cand, clause, raw, lang)
            if pending and any(h.rule.startswith("bare.") or h.kind not in _PASSING for h in hits):
                # "…not cats, it's dust mites. explains a lot" / 不是正山小种了 换成老白茶了 养胃:
                # the value given, what follows is no value of its own
                pending = None
            if not hits and replaces:
                # 原来我不是对海鲜过敏，是对尘螨过敏: the clause said only what was wrong; the
                # right value comes next
                pending, correcting, frame = _EMPHASIS.sub("", replaces), True, clause
        drop_bare_echoes(found)
        fold_apposition(found)
        fold_parts(found)
        with_doses(found, clauses)  # 吃二甲双胍，一次五百毫克: the dose is the memory's
        fold_relative_about(found, lang="zh" if has_cjk(text) else "en")
        if not again:
            self._kin_swap(msg, text, now, found)
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
