"""Language-aware text helpers: segmentation for the keyword index, token estimates.

Chinese has no spaces, so the keyword index stores jieba's search-mode segmentation joined by
spaces; SQLite's ``unicode61`` tokenizer (and PostgreSQL's 'simple' config) then split on those
spaces. Search mode also emits the sub-words of long words (冷萃咖啡 → 冷萃 咖啡 冷萃咖啡), so a
query for 咖啡 still matches.
"""

from __future__ import annotations

import logging
import re
import threading
import unicodedata
from functools import lru_cache
from pathlib import Path
from types import ModuleType

# Entries of the caches of pure text functions the write path asks for every stored fact of
# a user (a cache smaller than a user's facts is read in a cycle and never hits).
FACTS_CACHED = 32768
_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_WORD = re.compile(r"[\w\u3400-\u4dbf\u4e00-\u9fff]+", re.UNICODE)
_jieba_lock = threading.Lock()
_jieba_ready = False

# Function words that carry no retrieval signal. Kept short on purpose: BM25's IDF already
# discounts frequent words; this list only removes words that would dominate OR-queries.
STOPWORDS_EN = frozenset(
    """a an the and or but if of to in on at by for with from as is are was were be been being
    am do does did doing have has had having i me my mine you your yours he him his she her hers
    it its we us our they them their what which who whom whose when where why how this that these
    those there here than then so such too very can could would should will shall may might must
    just about into over after before up down out off again once any all both each few more most
    other some no nor not only own same s t don now ever also yeah yes oh ok okay hey hi really
    like get got go going went know think tell told said say""".split()
)
STOPWORDS_ZH = frozenset(
    """的 了 着 过 吗 呢 吧 啊 呀 哦 嗯 么 是 在 有 和 与 及 或 也 都 就 还 又 很 太 更 最
    我 你 他 她 它
    我们 你们 他们 她们 这 那 这个 那个 这些 那些 什么 怎么 怎么样 为什么 哪 哪个 哪里 谁 多少 几
    一个 一下 一些 一点 没有 不是 就是 可以 会 能 要 想 说 让 给 把 被 对 从 到 向 上 下 里 中 吗 呢
    之前 以前 时候 那次 这次 上次 一次 请 帮 帮我 告诉 记得 知道""".split()
)
STOPWORDS = STOPWORDS_EN | STOPWORDS_ZH


_PARTICLE_ME = re.compile(r"(?<=[什怎这那多要甚咋干])么")


def has_cjk(text: str) -> bool:
    """True if the text contains at least one CJK ideograph."""
    return _CJK.search(text) is not None


def _zhconv() -> ModuleType:
    # zhconv reads its table on first use through a file handle it never closes (a
    # ResourceWarning); handing it the path explicitly makes it use a ``with`` block.
    import zhconv
    import zhconv.zhconv as impl

    if impl.zhcdicts is None:
        with _jieba_lock:
            if impl.zhcdicts is None:
                impl.loaddict(str(Path(impl.__file__).with_name("zhcdict.json")))
    module: ModuleType = zhconv
    return module


@lru_cache(maxsize=FACTS_CACHED)
def to_simplified(text: str) -> str:
    """Traditional Chinese → simplified (zhconv's character and phrase tables); text without
    Chinese is returned as is. For matching and indexing only: what is stored keeps the
    user's own characters, so 我對花生過敏 and 我对花生过敏 extract and match alike."""
    if not has_cjk(text):
        return text
    # zhconv's phrase table reads 么 + 喝/女/子/弟… as 幺 (幺女, 幺喝), so "我不怎么喝拿铁" came
    # out as 怎幺喝 and was taken for traditional text; after 什/怎/这/那/多/要 it is the particle.
    guarded = _PARTICLE_ME.sub("\ue000", text)
    out = str(_zhconv().convert(guarded, "zh-cn"))
    if len(out) != len(guarded):
        # a phrase of the table read across words (老公升了 → 老升了: 公升, a litre, is 升):
        # character by character instead, so no word is lost
        out = "".join(str(_zhconv().convert(ch, "zh-cn")) for ch in guarded)
    return out.replace("\ue000", "么")


def as_said(text: str, word: str, start: int = 0) -> str:
    """``word``, read from ``to_simplified(text)`` at or after ``start``, in the user's own
    characters (牙醫系, not 牙医系); ``word`` itself when the texts do not line up."""
    simple = to_simplified(text)
    if len(simple) != len(text):
        return word
    at = simple.find(word, start)
    if at < 0 and len(simple.lower()) == len(text):  # read lower-cased: "Punggol", not "punggol"
        at = simple.lower().find(word.lower(), start)
    return text[at : at + len(word)] if at >= 0 else word


def to_traditional(text: str) -> str:
    """Simplified → traditional, to answer a user in the script they wrote in."""
    if not has_cjk(text):
        return text
    return str(_zhconv().convert(text, "zh-hant"))


def is_traditional(text: str) -> bool:
    """Does ``text`` use traditional characters (it changes when simplified)?"""
    return has_cjk(text) and to_simplified(text) != text


def normalize(text: str) -> str:
    """NFKC (full-width → half-width), simplified Chinese, lower case, collapsed whitespace."""
    return " ".join(to_simplified(unicodedata.normalize("NFKC", text)).lower().split())


def _jieba() -> ModuleType:
    # jieba builds its prefix dictionary on first use (~0.5 s); do it once, under a lock, and
    # keep its logger quiet (it prints to stderr at INFO otherwise).
    global _jieba_ready
    import jieba

    if not _jieba_ready:
        with _jieba_lock:
            if not _jieba_ready:
                jieba.setLogLevel(logging.WARNING)
                jieba.initialize()
                _jieba_ready = True
    module: ModuleType = jieba
    return module


@lru_cache(maxsize=4096)
def _segment_cjk(run: str) -> tuple[str, ...]:
    return tuple(w for w in _jieba().cut_for_search(run) if w.strip())


@lru_cache(maxsize=FACTS_CACHED)
def words_zh(text: str) -> tuple[str, ...]:
    """``text`` cut into jieba's words (not the search mode: each character once); cached,
    as the write path cuts the same stored facts for each message."""
    return tuple(w for w in _jieba().cut(text) if w.strip())


@lru_cache(maxsize=4096)
def first_word_tag(text: str) -> tuple[str, str, int]:
    """The first word of Chinese ``text``, jieba's part-of-speech tag for it (``nr``: a
    person's name) and how often jieba's dictionary saw it (0: a word jieba found itself, as it
    does most given names); ("", "", 0) for none."""
    tokenizer = _jieba()
    import jieba.posseg as posseg

    first = next(iter(posseg.cut(text)), None)
    if first is None:
        return ("", "", 0)
    return (first.word, first.flag, int(tokenizer.dt.FREQ.get(first.word) or 0))


def sentence_start(text: str, at: int) -> int:
    """Where the sentence of ``text`` that holds position ``at`` starts (after 。 . ! ? or a
    line break)."""
    return max(text.rfind(p, 0, at) for p in "。.!！?？\n") + 1


def find_word(text: str, word: str) -> int:
    """Where ``word`` stands in ``text`` (both lower case), a Latin word only whole ("uc" is
    not in "tucson"); -1 when it does not."""
    if not re.search(r"[a-z0-9]", word):
        return text.find(word)
    m = re.search(rf"(?<![a-z0-9]){re.escape(word)}(?![a-z0-9])", text)
    return m.start() if m else -1


def tokenize(text: str) -> list[str]:
    """All word tokens of ``text``: jieba search-mode words for Chinese runs, whole words for
    everything else, normalised. Order is kept; duplicates are kept (BM25 counts them)."""
    tokens: list[str] = []
    for match in _WORD.finditer(normalize(text)):
        word = match.group(0)
        if not has_cjk(word):
            tokens.append(word)
            continue
        # Mixed runs such as "google工作" or "3月": split at script changes first.
        for piece in re.findall(
            r"[\u3400-\u4dbf\u4e00-\u9fff]+|[^\u3400-\u4dbf\u4e00-\u9fff]+", word
        ):
            if has_cjk(piece):
                tokens.extend(_segment_cjk(piece))
            elif piece.strip("_"):
                tokens.append(piece)
    return tokens


def keyword_text(text: str) -> str:
    """The text stored in the keyword index: tokens joined by single spaces."""
    return " ".join(tokenize(text))


_HOW_MEASURE = re.compile(r"\bhow (?:old|tall|big|long|far|heavy)\b", re.IGNORECASE)


def query_terms(text: str) -> list[str]:
    """Distinct content terms of a query, in order, without stopwords.

    Single Chinese characters (叫, 上, 人 …) are dropped when the query also has multi-character
    words: in a small corpus a rare single character gets a high IDF and drags in unrelated
    memories ("需要再叫上几个人吗" matched "我叫小明"). A query of single characters ("猫")
    keeps them.
    """
    seen: dict[str, None] = {}
    # "how old / how tall": the measure asked about, not a word to find ("old motorcycles")
    text = _HOW_MEASURE.sub("how", text)
    for tok in tokenize(text):
        if tok in STOPWORDS or (len(tok) == 1 and not has_cjk(tok) and not tok.isdigit()):
            continue
        seen.setdefault(tok, None)
    terms = list(seen)
    multi = [t for t in terms if len(t) > 1 or not has_cjk(t)]
    return multi if any(has_cjk(t) and len(t) > 1 for t in terms) else terms


def estimate_tokens(text: str) -> int:
    """A conservative LLM-token estimate that holds for Chinese and English.

    Modern BPE vocabularies (cl100k, Qwen) spend about one token per CJK character (a bit less
    on common words) and ~1.3 tokens per English word; counting each CJK character as one token
    and each other word or punctuation run as 1.3 overestimates slightly, which is the safe side
    for a budget.
    """
    cjk = len(_CJK.findall(text))
    rest = _CJK.sub(" ", text)
    words = len(re.findall(r"[A-Za-z0-9_]+|[^\sA-Za-z0-9_]", rest))
    return int(cjk + words * 1.3 + 0.999)
