"""Segmentation and query terms for the keyword channel."""

from __future__ import annotations

from jiyi.core.text import estimate_tokens, keyword_text, query_terms, to_simplified


def test_keyword_text_segments_chinese_and_keeps_subwords() -> None:
    toks = keyword_text("我只喝冷萃咖啡，在Google工作").split()
    assert {"冷萃", "咖啡", "google", "工作"} <= set(toks)


def test_query_terms_drop_stopwords_and_lone_characters_next_to_words() -> None:
    assert query_terms("需要再叫上几个人吗") == ["需要", "几个"]
    assert "caroline" in query_terms("What did Caroline research?")
    assert "what" not in query_terms("What did Caroline research?")


def test_a_query_of_single_characters_keeps_them() -> None:
    assert query_terms("猫") == ["猫"]


def test_token_estimate_counts_each_chinese_character() -> None:
    assert estimate_tokens("我对花生过敏") == 6
    assert 5 <= estimate_tokens("I am allergic to peanuts.") <= 8


def test_the_measure_a_question_asks_about_is_no_term() -> None:
    # "How old am I?" found "I restore old motorcycles" by its one keyword
    assert "old" not in query_terms("How old am I now?")
    assert "tall" not in query_terms("how tall is my son")
    assert "old" in query_terms("Where did I sell my old car?")


def test_simplifying_never_reads_a_phrase_across_two_words() -> None:
    # zhconv's phrase table maps 公升 (a litre) to 升: 我老公升了科长 lost the husband
    assert to_simplified("我老公升了科长") == "我老公升了科长"
    assert to_simplified("我對花生過敏") == "我对花生过敏"
