"""Two rules of issue 37 on the project's own code (every non-test Python file under ``benchmarks.funclen.ROOTS``),
read once with ``benchmarks.funclen.parsed``:

* no function a reader cannot hold: at most ``funclen.LIMIT`` lines outside calculator/export/ (the exporters are
  their own issue's: one reading engine for the four targets); ``python -m benchmarks.funclen`` prints the longest;
* no check is an ``assert``: ``python -O`` strips every one, so a check written that way is gone where it runs
  optimised. Real checks raise the project's errors (``calculator/errors.py``, a plugin's ``PluginError``, a
  benchmark's ``RuntimeError``/``ValueError``); tests keep their asserts.
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

from benchmarks.funclen import LIMIT, functions, parsed

pytestmark = pytest.mark.unit
EXEMPT_FOLDERS = ("calculator/export/",)
EXEMPT_FUNCTIONS: set[tuple[str, str]] = set()


def asserts(roots: tuple[str, ...] | None = None, root: Path | None = None) -> list[tuple[str, int, str]]:
    """(path, line, innermost function or ``<module>``) of every assert statement."""
    found: list[tuple[str, int, str]] = []

    def visit(node: ast.AST, rel: str, where: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.Assert):
                found.append((rel, child.lineno, where))
            visit(child, rel, child.name if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)) else where)

    for rel, tree in (parsed(roots, root) if roots else parsed()):   # parsed() and parsed(ROOTS, ROOT): one read
        visit(tree, rel, "<module>")
    return found


def test_no_function_outside_the_exporters_is_over_the_limit():
    long = [f"{f.path}:{f.line} {f.name} ({f.lines} lines)" for f in functions()
            if f.lines > LIMIT and not f.path.startswith(EXEMPT_FOLDERS) and (f.path, f.name) not in EXEMPT_FUNCTIONS]
    assert long == [], f"split these into parts of at most {LIMIT} lines: {long}"


def test_no_assert_outside_the_tests():
    found = [f"{rel}:{line} {where}" for rel, line, where in asserts() if (rel, where) not in EXEMPT_FUNCTIONS]
    assert found == [], f"raise the project's error instead (python -O strips an assert): {found}"


def test_both_scans_see_methods_and_nested_functions(tmp_path):
    (tmp_path / "pkg").mkdir()
    body = "\n".join(f"        x{i} = {i}" for i in range(LIMIT))
    (tmp_path / "pkg" / "m.py").write_text(f"assert True\n\nclass C:\n    def long(self):\n{body}\n        assert self\n"
                                           f"\n\ndef short():\n    def inner():\n        pass\n", encoding="utf-8")
    assert {f.name: f.lines for f in functions(("pkg",), tmp_path)} == {"C.long": LIMIT + 2, "short": 3,
                                                                         "short.inner": 2}
    assert asserts(("pkg",), tmp_path) == [("pkg/m.py", 1, "<module>"), ("pkg/m.py", LIMIT + 5, "long")]
