"""An export read into a store whose embedder differs (another name or dimension) gets its
vectors rebuilt by that embedder instead of carrying vectors it could not compare; with the
same embedder the vectors are carried byte for byte."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from jiyi import Memory
from jiyi.core.ports import IdentityTier
from jiyi.embedders import HashingEmbedder


def vectors(mem: Memory) -> dict[str, np.ndarray]:  # type: ignore[type-arg]
    assert isinstance(mem.store, IdentityTier)
    return {
        i.memory.id: i.vector
        for i in mem.store.indexed(mem.config.tenant, "u1")
        if i.vector is not None
    }


def test_vectors_are_carried_or_rebuilt(tmp_path: Path, clock) -> None:  # type: ignore[no-untyped-def]
    src = Memory(tmp_path / "a.db", embedder=HashingEmbedder(dim=256), clock=clock)
    src.add("我对花生过敏，住在杭州", user_id="u1")
    doc = src.export("u1").model_dump_json()
    same = Memory(tmp_path / "b.db", embedder=HashingEmbedder(dim=256), clock=clock)
    same.import_(doc)
    carried = vectors(same)
    assert carried.keys() == vectors(src).keys() and carried
    assert all(np.array_equal(carried[k], v) for k, v in vectors(src).items())
    other = Memory(tmp_path / "c.db", embedder=HashingEmbedder(dim=64), clock=clock)
    other.import_(doc)
    rebuilt = vectors(other)
    assert rebuilt.keys() == carried.keys()
    assert {v.shape for v in rebuilt.values()} == {(64,)}
    for m in (src, same, other):
        m.close()
