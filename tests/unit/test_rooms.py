"""The rooms of the repository depend one way (CONTRIBUTING.md, the map): ``tools`` (the documents' generated blocks)
-> ``benchmarks`` -> ``sitebuild`` (the site build) -> ``calculator`` (the estimator and its page), with ``hooks``
and ``frameworks`` beside them; and the site build draws nothing and computes nothing itself: it routes the build's
events to ``calculator.page`` and ``calculator.api``. Every import counts, also one made inside a function."""
from __future__ import annotations

import ast
import functools
from pathlib import Path

import pytest

pytestmark = pytest.mark.unit
ROOT = Path(__file__).resolve().parents[2]
ROOMS = ("calculator", "sitebuild", "benchmarks", "tools", "frameworks", "hooks")
#: What builds markup or decides a figure: the page's markup pieces and the estimator below its boundary.
DRAWS = {"calculator.page.pieces", "calculator.page.figures", "calculator.page.form", "calculator.page.kinds"}
DECIDES = {"calculator.catalog", "calculator.recommend", "calculator.memory", "calculator.throughput",
           "calculator.params", "calculator.models"}
#: What ``calculator.page.text`` offers beside its markup builders (el, join, ltr, filled, ...): the types and where
#: the string tables lie.
TEXT_TYPES = {"Html", "Strings", "STRING_TABLES"}


@functools.cache
def _imports(room: str) -> tuple[tuple[str, str, tuple[str, ...]], ...]:
    """(file, module imported, names imported from it) for every absolute import in ``room``, at any depth."""
    found = []
    for path in sorted((ROOT / room).rglob("*.py")):
        rel = str(path.relative_to(ROOT))
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and not node.level and node.module:
                found.append((rel, node.module, tuple(a.name for a in node.names)))
            elif isinstance(node, ast.Import):
                found += [(rel, a.name, ()) for a in node.names]
    return tuple(found)


def _room_graph() -> dict[str, set[str]]:
    return {room: {module.split(".")[0] for _f, module, _n in _imports(room)} & set(ROOMS) - {room}
            for room in ROOMS}


def test_the_rooms_import_each_other_one_way():
    graph = _room_graph()
    done: set[str] = set()

    def visit(room: str, path: tuple[str, ...]) -> None:
        for nxt in sorted(graph[room]):
            assert nxt not in path, "a circle of rooms: " + " -> ".join((*path, nxt))
            if nxt not in done:
                visit(nxt, (*path, nxt))
        done.add(room)

    for room in ROOMS:
        visit(room, (room,))


def test_the_site_build_imports_neither_the_benchmarks_nor_the_tools():
    back = [(f, m) for f, m, _n in _imports("sitebuild") if m.split(".")[0] in ("benchmarks", "tools")]
    assert not back, back


def test_the_site_build_draws_no_markup_and_computes_no_figure():
    """sitebuild/ hands markers to calculator.page (which draws) and requests to calculator.api (which computes)."""
    found = []
    for f, module, names in _imports("sitebuild"):
        if any(module == m or module.startswith(m + ".") for m in DRAWS | DECIDES):
            found.append((f, module))
        elif module == "calculator.page.text" and set(names) - TEXT_TYPES:
            found.append((f, f"{module}: {sorted(set(names) - TEXT_TYPES)}"))
        elif module == "calculator" and set(names) & {m.rsplit(".", 1)[1] for m in DECIDES}:
            found.append((f, f"calculator: {sorted(names)}"))
    assert not found, found
