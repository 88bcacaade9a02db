"""A pet's new name said of "it" with a change cue renames the one pet the user has named.

"其实它叫花花" / "Actually its name is Max" name no animal; with one named pet the name is
that pet's, with two it is nobody's, and without a cue it changes nothing. Sentences written
for the mechanism; behaviour runs on the real default embedder.
"""

from __future__ import annotations

from _writes import active_contents as _active
from _writes import say as _say

from jiyi import Memory
from jiyi.pipeline.typed_rename import _new_name


def test_a_name_of_it_is_read_with_its_cue() -> None:
    assert _new_name("其实它叫花花") == "花花"
    assert _new_name("它叫花花") == ""  # no change said
    assert _new_name("Actually its name is Max") == "Max"
    assert _new_name("its name is Max") == ""
    assert _new_name("其实它叫什么我也忘了") == ""


def test_the_one_named_pet_is_renamed(shared_real_mem: Memory, module_clock) -> None:  # type: ignore[no-untyped-def]
    mem, user = shared_real_mem, "rename-one"
    _say(mem, module_clock, user, "我的猫叫咪咪", "我住在合肥")
    _say(mem, module_clock, user, "它叫团团")  # no change said
    assert "咪咪" in _active(mem, user)["pet.cat.name"]
    _say(mem, module_clock, user, "其实它叫豆豆")
    now = _active(mem, user)
    assert "豆豆" in now["pet.cat.name"] and "咪咪" not in " ".join(now.values())
    assert "合肥" in now["location.home"]


def test_with_two_named_pets_it_is_nobody(shared_real_mem: Memory, module_clock) -> None:  # type: ignore[no-untyped-def]
    mem, user = shared_real_mem, "rename-two"
    _say(mem, module_clock, user, "My dog is named Rex", "My cat is named Tom")
    _say(mem, module_clock, user, "Actually its name is Max")
    now = _active(mem, user)
    assert "Rex" in now["pet.dog.name"] and "Tom" in now["pet.cat.name"]
    assert "Max" not in " ".join(now.values())
