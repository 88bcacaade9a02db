"""LLM extraction through any OpenAI-compatible endpoint, gated so it cannot add junk.

Per batch of messages the pipeline is::

    redact PII → pre-filter trivial turns (chit-chat, click logs, bare questions: no call)
    → one chat call per batch_turns messages → validate against ExtractionResponse
    → on invalid output ONE repair call → grounding gate → Candidates / ForgetRequests
    → on any failure: the fallback (rule) extractor for that batch, counted

The grounding gate is the point: a memory is kept only if its ``quote`` occurs (after light
normalisation) in a USER message of the batch and its content shares a content word with that
quote. Memories drawn from assistant or system text, invented quotes, and contents the quote
does not support are dropped and counted as junk. Forget requests must also be grounded and
contain a forget verb, since acting on a hallucinated one deletes real memories.

Topics: the LLM's topic is kept in ``metadata["llm_topic"]`` but never used to supersede —
a small model that labels an allergy ``identity.name`` would otherwise overwrite the user's
name. The candidate's ``topic`` comes from the rule extractor run on the quote (so LLM and
rule memories reconcile with each other), else it is None and only duplicates (NOOP) and
flagged corrections update stored memories.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from datetime import datetime

from pydantic import ValidationError

from jiyi.core.extraction import RuleExtractor
from jiyi.core.models import (
    Extraction,
    Message,
    Skipped,
)
from jiyi.core.pii import redact_pii
from jiyi.core.ports import Extractor
from jiyi.errors import ExtractionError
from jiyi.llm.client import ChatClient
from jiyi.llm.gate import GateResult, ground, is_trivial, lang_of
from jiyi.llm.prompts.extract import (
    ExtractionResponse,
    Lang,
    Turn,
    build_messages,
    build_repair_messages,
    response_format,
)
from jiyi.llm.rollup import makers
from jiyi.pipeline.maintain import StepOptions

__all__ = ["GateResult", "LLMExtractor", "LLMStats", "ground", "is_trivial"]

log = logging.getLogger(__name__)

ASSISTANT_CONTEXT_CHARS = 300  # assistant turns are context only; keep them cheap
MAX_QUERIES = 3


@dataclass
class LLMStats:
    """What the extractor did, cumulatively (read with :meth:`LLMExtractor.stats`)."""

    batches: int = 0
    calls: int = 0  # chat calls, repairs included
    repairs: int = 0
    fallbacks: int = 0  # batches handed to the fallback extractor
    trivial: int = 0  # user turns the pre-filter kept away from the LLM
    proposed: int = 0  # memories the LLM proposed
    kept: int = 0  # memories that passed the gate
    junk: int = 0  # memories the gate dropped
    backfilled: int = 0  # candidates the fallback added for turns the LLM left empty
    prompt_tokens: int = 0
    completion_tokens: int = 0

    @property
    def junk_rate(self) -> float:
        return self.junk / self.proposed if self.proposed else 0.0


_RULES = RuleExtractor()


class LLMExtractor:
    """Extractor on an OpenAI-compatible chat model, with rules as the safety net.

    Implements the :class:`~jiyi.core.ports.Extractor` protocol. It never raises for
    ordinary failures (timeout, dead endpoint, invalid JSON after one repair): the batch is
    handed to ``fallback`` and counted in :attr:`stats`. Only with ``fallback=None`` does it
    raise :class:`~jiyi.errors.ExtractionError` (the caller then falls back itself).

    Args:
        client: the chat client (its ``tenant`` labels the token metrics).
        fallback: extractor for batches the LLM cannot handle (default: rules).
        batch_turns: at most this many messages per chat call.
        rules_first: send only the user turns the fallback finds nothing in (cheapest: the
            LLM covers what the rules cannot place).
        backfill: when the LLM keeps nothing for a user turn it was sent, take what the
            fallback finds in that turn (a small model misses plain statements the rules
            know; the rules' precision makes this nearly free of junk).
    """

    name = "llm"

    def __init__(
        self,
        client: ChatClient,
        *,
        fallback: Extractor | None = None,
        batch_turns: int = 8,
        rules_first: bool = False,
        backfill: bool = True,
    ) -> None:
        if batch_turns < 1:
            raise ValueError("batch_turns must be at least 1")
        self.client = client
        self.fallback: Extractor | None = RuleExtractor() if fallback is None else fallback
        self.batch_turns = batch_turns
        self.rules_first = rules_first
        self.backfill = backfill
        self._stats = LLMStats()
        self._lock = threading.Lock()

    def makers(self) -> StepOptions:
        """The LLM makers of reflections and weekly roll-ups on this extractor's client
        (the lifecycle uses them when maintaining a tenant with an LLM configured)."""
        return makers(self.client)

    @classmethod
    def without_fallback(
        cls, client: ChatClient, *, batch_turns: int = 8, rules_first: bool = False
    ) -> LLMExtractor:
        """An extractor that raises ExtractionError instead of falling back (and neither
        backfills nor pre-sorts with rules)."""
        ext = cls(client, batch_turns=batch_turns, backfill=False)
        ext.fallback = None
        ext.rules_first = rules_first
        return ext

    @property
    def stats(self) -> LLMStats:
        """A copy of the counters."""
        with self._lock:
            return LLMStats(**asdict(self._stats))

    def _count(self, **deltas: int) -> None:
        with self._lock:
            for k, v in deltas.items():
                setattr(self._stats, k, getattr(self._stats, k) + v)

    def extract(self, messages: Sequence[Message], *, now: datetime) -> Extraction:
        """Candidates, forget requests, skipped turns and queries for ``messages``.

        Every user message yields a candidate, a forget request or a :class:`Skipped`
        (``chit_chat``, ``question``, ``passive_behavior``, ``empty``, ``no_personal_info``,
        or the gate's ``ungrounded`` / ``unsupported`` / ``assistant_text`` for dropped
        LLM memories). ``queries`` are for the last user message.

        Raises:
            ExtractionError: only when ``fallback`` is None and the LLM failed.
        """
        msgs = [
            m.model_copy(
                update={
                    "content": redact_pii(m.content)[0],
                    "id": m.id or f"turn-{i}",
                }
            )
            for i, m in enumerate(messages)
        ]
        out = Extraction()
        last_user = next((m.id for m in reversed(msgs) if m.role == "user"), None)
        for start in range(0, len(msgs), self.batch_turns):
            self._batch(msgs[start : start + self.batch_turns], now, out, last_user)
        # Ids we made up for the prompt do not leave the extractor.
        made_up = {f"turn-{i}" for i, m in enumerate(messages) if not m.id}
        if made_up:
            for c in out.candidates:
                c.source_message_ids = [i for i in c.source_message_ids if i not in made_up]
            for f in out.forget:
                if f.source_message_id in made_up:
                    f.source_message_id = None
        return out

    def _batch(
        self, msgs: list[Message], now: datetime, out: Extraction, last_user: str | None
    ) -> None:
        send: list[Message] = []  # user turns worth a call
        for m in msgs:
            if m.role != "user":
                out.skipped.append(Skipped(text=m.content.strip(), reason=f"{m.role}_text"))
                continue
            why = is_trivial(m.content)
            if why is not None:
                self._count(trivial=1)
                out.skipped.append(Skipped(text=m.content.strip(), reason=why))
                if why == "question" and m.id == last_user:
                    out.queries.append(m.content.strip())
                continue
            if self.rules_first and self.fallback is not None:
                found = self.fallback.extract([m], now=now)
                if found.candidates or found.forget:
                    out.candidates += found.candidates
                    out.forget += found.forget
                    out.queries += found.queries if m.id == last_user else []
                    continue
            send.append(m)
        if not send:
            return
        self._count(batches=1)
        keep = {m.id for m in send}
        context = [m for m in msgs if m.id in keep or m.role == "assistant"]
        lang = lang_of(send)
        try:
            response = self._ask(context, lang)
        except ExtractionError as exc:
            if self.fallback is None:
                raise
            self._count(fallbacks=1)
            log.warning(
                "LLM extraction failed (%s); %d turns go to %s",
                exc.message,
                len(send),
                self.fallback.name,
            )
            found = self.fallback.extract(send, now=now)
            out.candidates += found.candidates
            out.forget += found.forget
            out.skipped += found.skipped
            out.queries += found.queries if last_user in keep else []
            return
        gate = ground(response, context, now=now, lang=lang)
        self._count(proposed=len(response.memories), kept=len(gate.candidates), junk=len(gate.junk))
        out.candidates += gate.candidates
        out.forget += gate.forget
        out.skipped += gate.junk
        used = {i for c in gate.candidates for i in c.source_message_ids}
        used |= {f.source_message_id for f in gate.forget if f.source_message_id}
        for m in send:
            if m.id in used:
                continue
            if self.backfill and self.fallback is not None:
                found = self.fallback.extract([m], now=now)
                if found.candidates or found.forget:
                    self._count(backfilled=len(found.candidates) + len(found.forget))
                    out.candidates += found.candidates
                    out.forget += found.forget
                    continue
            out.skipped.append(Skipped(text=m.content.strip(), reason="no_personal_info"))
        if last_user in keep:
            out.queries += [q.strip()[:200] for q in response.queries if q.strip()][:MAX_QUERIES]

    def _ask(self, context: list[Message], lang: Lang) -> ExtractionResponse:
        """One call, and one repair call if the reply does not validate."""
        turns = [
            Turn(
                n=i + 1,
                role="user" if m.role == "user" else "assistant",
                text=m.content if m.role == "user" else m.content[:ASSISTANT_CONTEXT_CHARS],
            )
            for i, m in enumerate(context)
        ]
        n_user = sum(1 for t in turns if t.role == "user")
        # Room for ~2 memories per user turn; a cap the client's default bounds from above.
        max_tokens = min(self.client.max_tokens * 2, 120 + 110 * n_user)
        text = self._chat(build_messages(turns, lang), max_tokens)
        try:
            return ExtractionResponse.model_validate_json(text)
        except ValidationError as exc:
            error = _short_error(exc)
        self._count(repairs=1)
        log.info("LLM reply did not validate (%s); asking for a repair", error)
        fixed = self._chat(build_repair_messages(turns, lang, text, error), max_tokens)
        try:
            return ExtractionResponse.model_validate_json(fixed)
        except ValidationError as exc:
            raise ExtractionError(
                f"LLM reply is not valid extraction JSON after one repair: {_short_error(exc)}"
            ) from exc

    def _chat(self, messages: list[dict[str, str]], max_tokens: int) -> str:
        self._count(calls=1)
        text, usage = self.client.chat(messages, response_format(), max_tokens=max_tokens)
        self._count(prompt_tokens=usage.prompt_tokens, completion_tokens=usage.completion_tokens)
        return text


def _short_error(exc: ValidationError) -> str:
    """The first few validation errors, without echoing the input back."""
    parts = []
    for err in exc.errors()[:3]:
        loc = ".".join(str(p) for p in err["loc"]) or "reply"
        parts.append(f"{loc}: {err['msg']}")
    return "; ".join(parts)
