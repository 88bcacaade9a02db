"""The public surface is exactly what __all__ says, and every name resolves."""

from __future__ import annotations

import jiyi


def test_every_public_name_resolves() -> None:
    for name in jiyi.__all__:
        assert getattr(jiyi, name) is not None, name


def test_the_sdk_is_exported_lazily() -> None:
    assert jiyi.Client.__name__ == "Client" and jiyi.AsyncClient.__name__ == "AsyncClient"


def test_errors_share_one_root() -> None:
    for name in jiyi.__all__:
        obj = getattr(jiyi, name)
        if isinstance(obj, type) and issubclass(obj, Exception):
            assert issubclass(obj, jiyi.JiyiError), name
