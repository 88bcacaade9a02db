"""A relative who is the subject of a later sentence, not of the message's first words.

:func:`jiyi.core.extraction.kin_swap.swap_subject` reads a message about one relative only
when the relative opens it. News of a relative is often told after something else: "Mum
called this morning, apparently my brother is now based in Eldoret", 我爸打电话来骂了半小时，
说我哥把工作辞了，跑回老家开烧烤店了. Here each later stretch of the message that starts
after a clause ends (a comma, a full stop, a dash) and runs to the end of its sentence is
tried as a message of its own; the first one that is about one relative from its first words
is the one read again with the user's rules (as the whole message would have been).

What was said before that stretch is only the lead-in; a stretch said as someone's words
about the relative (说 / 听说 / 据说 before it) is that relative's news all the same. Pure.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

from jiyi.core.extraction.kin_swap import Swap, merge_swapped, swap_subject
from jiyi.core.models import Candidate
from jiyi.core.text import has_cjk

__all__ = ["read_as_relative", "swap_later"]

# Where a later stretch may start: after the mark that ends a clause.
_STARTS = {
    "zh": re.compile(r"[，,。！!？?；;～~…—]+\s*"),
    "en": re.compile(r"(?:[,.!?;:]+|\s[—–-]+)\s+"),
}
# Where a sentence ends: the stretch stops there (a comma goes on with the same news).
_ENDS = {"zh": re.compile(r"[。！!？?；;\n]"), "en": re.compile(r"[.!?;\n](?:\s|$)")}
# 说 / 听说 / 据说 / 他说: someone's words, and what they tell follows
_TOLD_ZH = re.compile(r"^(?:(?:他|她|还)?(?:听)?说|据说|听讲|讲)(?=我|咱)")


def _stretches(text: str, lang: str) -> Iterator[str]:
    for mark in _STARTS[lang].finditer(text):
        start = mark.end()
        end = _ENDS[lang].search(text, start)
        said = text[start : end.start() if end else len(text)].strip()
        if said:
            yield _TOLD_ZH.sub("", said) if lang == "zh" else said


def swap_later(text: str, lang: str) -> tuple[str, Swap] | None:
    """(the stretch, its swap) for the first later stretch of ``text`` about one relative
    from its first words (see the module doc), or None."""
    for said in _stretches(text, lang):
        swap = swap_subject(said, lang)
        if swap is not None:
            return said, swap
    return None


def read_as_relative(
    text: str, found: dict[str, Candidate], reread: Callable[[str], list[Candidate]]
) -> None:
    """A message about one relative ("我姐一家年初就搬到北京去了") read again with the user's
    own rules (``reread``), the user in the relative's place (:mod:`.kin_swap`): the slots
    they find that the relatives' rules did not place (or only carried over) are merged into
    ``found`` as the relative's, and the vague "about" memory and any slot misread as the
    user's dropped. The whole message first; when that adds nothing, the first later stretch
    about one relative ("Mum called this morning, apparently my brother is now based in
    Eldoret": the call holds no fact)."""
    lang = "zh" if has_cjk(text) else "en"
    for told, swap in ((text, swap_subject(text, lang)), swap_later(text, lang) or (text, None)):
        if swap is None:
            continue
        before = dict(found)
        merge_swapped(found, reread(swap.text), swap, lang, told)
        if found != before:
            return
