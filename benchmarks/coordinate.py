"""The coordinate search both fits use (``accuracy.fit`` for the memory coefficients, ``time_accuracy.fit`` for the
time coefficients): from a start, try each move in turn (a dict of coefficient -> grid value), keep one that lowers
the cost, and pass over the moves again until a whole pass improves nothing (or ``rounds`` passes)."""
from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace
from typing import Any, TypeVar

__all__ = ["descend"]

K = TypeVar("K")


def descend(start: K, moves: Iterable[Mapping[str, Any]], cost: Callable[[K], float], rounds: int) -> K:
    """The best coefficients found from ``start`` (a frozen dataclass) by the moves, in their order."""
    moves = list(moves)
    best, best_cost = start, cost(start)
    for _ in range(rounds):
        improved = False
        for move in moves:
            cand = replace(best, **move)
            if cand == best:
                continue
            c = cost(cand)
            if c < best_cost - 1e-12:
                best, best_cost, improved = cand, c, True
        if not improved:
            break
    return best
