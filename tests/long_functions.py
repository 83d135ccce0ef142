"""Every function of the project's own code (not its tests, not calculator/export/, whose readers the exports issue
splits) longer than ``LIMIT`` lines, longest first: its length (``end_lineno - lineno + 1``, the decorator lines
left out, as the review counts), its branches (if/elif, loops, handlers, with, match cases, extra operands of
and/or, comprehension ifs, conditional expressions), where it starts and its qualified name.

    python -m tests.long_functions [LIMIT]

tests/unit/test_long_functions.py holds the list to the ones still waiting to be split."""
from __future__ import annotations

import ast
import functools
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LIMIT = 80
#: The project's code: every Python file under these folders.
CODE = ("calculator", "sitebuild", "hooks", "frameworks", "benchmarks")
LEFT_OUT = ("calculator/export/",)


def branches(fn: ast.AST) -> int:
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


def functions(limit: int = LIMIT) -> list[tuple[int, int, str, str]]:
    """(lines, branches, "path:line", qualified name) of every function over ``limit`` lines, longest first."""
    return [row for row in _every_function() if row[0] > limit]


@functools.cache          # read once per run (the code does not change while the tests run)
def _every_function() -> tuple[tuple[int, int, str, str], ...]:
    rows: list[tuple[int, int, str, str]] = []

    def visit(node: ast.AST, path: str, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                name = prefix + child.name
                rows.append((child.end_lineno - child.lineno + 1, branches(child), f"{path}:{child.lineno}", name))
                visit(child, path, name + ".")
            elif isinstance(child, ast.ClassDef):
                visit(child, path, prefix + child.name + ".")

    for folder in CODE:
        for file in sorted((ROOT / folder).rglob("*.py")):
            path = file.relative_to(ROOT).as_posix()
            if "__pycache__" in file.parts or path.startswith(LEFT_OUT):
                continue
            visit(ast.parse(file.read_text(encoding="utf-8")), path, "")
    return tuple(sorted(rows, key=lambda r: (-r[0], r[2])))


def main(argv: list[str]) -> None:
    limit = int(argv[0]) if argv else LIMIT
    rows = functions(limit)
    print(f"# functions over {limit} lines in {', '.join(CODE)} (not {', '.join(LEFT_OUT)}): {len(rows)}")
    for lines, n, where, name in rows:
        print(f"{lines:5d} {n:4d}  {where}  {name}")


if __name__ == "__main__":
    main(sys.argv[1:])
