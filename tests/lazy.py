"""A mapping whose values are loaded on first use, so that importing a test module reads no file.

Collecting the tests (``pytest -m unit --collect-only``) must work on a clone before anything is installed or built:
the string tables, node_modules and the CMS configuration are read by the tests that use them, not at import.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class OnFirstUse(Mapping[K, V], Generic[K, V]):
    """``{key: load(key) for key in keys}``, each value loaded the first time it is looked up, then kept."""

    def __init__(self, keys: Iterable[K], load: Callable[[K], V]) -> None:
        self._keys = tuple(keys)
        self._load = load
        self._values: dict[K, V] = {}

    def __getitem__(self, key: K) -> V:
        if key not in self._keys:
            raise KeyError(key)
        if key not in self._values:
            self._values[key] = self._load(key)
        return self._values[key]

    def __iter__(self) -> Iterator[K]:
        return iter(self._keys)

    def __len__(self) -> int:
        return len(self._keys)
