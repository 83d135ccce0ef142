"""The longest functions of the project's own code: not a measure against the outside world, a reading aid for
the rule that no non-test function outside ``calculator/export/`` is over ``LIMIT`` lines (issue 37).

``python -m benchmarks.funclen`` prints the ``--top`` longest functions (lines from ``def`` to the end, docstring
included, and branches) of ``ROOTS``, then every function over ``--over`` lines. The lengths are the AST's
(``end_lineno - lineno + 1``), the same count the 2026-12-07 code review used.
"""
from __future__ import annotations

import argparse
import ast
import functools
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ROOTS = ("calculator", "sitebuild", "hooks", "frameworks", "benchmarks", "tools")
LIMIT = 80


@dataclass(frozen=True)
class Function:
    path: str          # relative to the checkout, with forward slashes
    line: int
    name: str          # dotted: Class.method, outer.inner
    lines: int
    branches: int


def _branches(fn: ast.AST) -> int:
    n = 0
    for node in ast.walk(fn):
        if isinstance(node, (ast.If, ast.For, ast.AsyncFor, ast.While, ast.IfExp, ast.ExceptHandler, ast.With,
                             ast.match_case)):
            n += 1
        elif isinstance(node, ast.BoolOp):
            n += len(node.values) - 1
        elif isinstance(node, ast.comprehension):
            n += 1 + len(node.ifs)
    return n


def parsed(roots: tuple[str, ...] = ROOTS, root: Path = ROOT) -> tuple[tuple[str, ast.Module], ...]:
    """(path relative to ``root``, syntax tree) of every Python file under ``roots``, read once per process."""
    return _parsed(tuple(roots), Path(root))


@functools.cache
def _parsed(roots: tuple[str, ...], root: Path) -> tuple[tuple[str, ast.Module], ...]:
    return tuple((f.relative_to(root).as_posix(), ast.parse(f.read_text(encoding="utf-8")))
                 for top in roots for f in sorted((root / top).rglob("*.py")))


def functions(roots: tuple[str, ...] = ROOTS, root: Path = ROOT) -> list[Function]:
    """Every function and method under ``roots`` (nested ones too), longest first."""
    rows: list[Function] = []
    for rel, tree in parsed(roots, root):

        def visit(node: ast.AST, prefix: str = "", rel: str = rel) -> None:
            for child in ast.iter_child_nodes(node):
                if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    name = prefix + child.name
                    rows.append(Function(rel, child.lineno, name, child.end_lineno - child.lineno + 1,
                                         _branches(child)))
                    visit(child, name + ".")
                elif isinstance(child, ast.ClassDef):
                    visit(child, prefix + child.name + ".")

        visit(tree)
    return sorted(rows, key=lambda r: (-r.lines, r.path, r.line))


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--top", type=int, default=5, help="how many of the longest to print (default 5)")
    p.add_argument("--over", type=int, default=LIMIT, help=f"list every function over this many lines ({LIMIT})")
    args = p.parse_args(argv)
    rows = functions()
    print(f"The {args.top} longest functions (lines, branches) of {', '.join(ROOTS)}:")
    for r in rows[:args.top]:
        print(f"  {r.lines:4d} {r.branches:4d}  {r.path}:{r.line}  {r.name}")
    over = [r for r in rows if r.lines > args.over]
    print(f"{len(over)} of {len(rows)} functions over {args.over} lines:")
    for r in over:
        print(f"  {r.lines:4d} {r.branches:4d}  {r.path}:{r.line}  {r.name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
