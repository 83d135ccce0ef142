"""No function a reader cannot hold (issue 37): every non-test function outside calculator/export/ is at most
``benchmarks.funclen.LIMIT`` lines, counted by the same AST pass that prints the longest ones
(``python -m benchmarks.funclen``)."""
from __future__ import annotations

import pytest

from benchmarks.funclen import LIMIT, functions

pytestmark = pytest.mark.unit
#: The exporters are their own issue's (one reading engine for the four targets).
EXEMPT_FOLDERS = ("calculator/export/",)
#: Functions another piece of work of the same issue splits (the model-config reader becomes a table of field
#: readers): remove a name here when that lands.
EXEMPT_FUNCTIONS = {("calculator/configs.py", "parse_model")}


def test_no_function_outside_the_exporters_is_over_the_limit():
    long = [f"{f.path}:{f.line} {f.name} ({f.lines} lines)" for f in functions()
            if f.lines > LIMIT and not f.path.startswith(EXEMPT_FOLDERS) and (f.path, f.name) not in EXEMPT_FUNCTIONS]
    assert long == [], f"split these into parts of at most {LIMIT} lines: {long}"


def test_the_count_sees_a_long_function(tmp_path):
    """The pass counts from ``def`` to the function's last line, nested functions and methods included."""
    (tmp_path / "pkg").mkdir()
    body = "\n".join(f"    x{i} = {i}" for i in range(LIMIT))
    (tmp_path / "pkg" / "m.py").write_text(f"class C:\n    def long(self):\n    {body.replace(chr(10), chr(10) + '    ')}\n"
                                           f"\n\ndef short():\n    def inner():\n        pass\n", encoding="utf-8")
    found = {f.name: f.lines for f in functions(("pkg",), tmp_path)}
    assert found == {"C.long": LIMIT + 1, "short": 3, "short.inner": 2}
