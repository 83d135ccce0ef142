"""No function of the project's own code is over 80 lines (issue 37, "Functions a reader can hold"), but the ones
still waiting to be split, each named here: a new long function fails, and so does a named one that got short (strike
it off). The list: ``python -m tests.long_functions``."""
from __future__ import annotations

import pytest

from tests.long_functions import LIMIT, functions

pytestmark = pytest.mark.unit

#: Longer than LIMIT today, each to be split (path, qualified name).
WAITING = {
    ("calculator/throughput.py", "setup_counts"),
    ("benchmarks/page.py", "run"),
    ("calculator/__main__.py", "render"),
    ("benchmarks/time_accuracy.py", "_setup"),
}


def test_no_function_is_longer_than_the_limit_but_the_named_ones():
    found = {(where.rsplit(":", 1)[0], name): lines for lines, _b, where, name in functions()}
    new = {f"{path} {name} ({lines} lines)" for (path, name), lines in found.items() if (path, name) not in WAITING}
    assert not new, f"over {LIMIT} lines: split them into steps a reader can hold"
    assert not WAITING - set(found), f"no longer over {LIMIT} lines: strike them off WAITING"


def test_the_count_reads_every_function_and_leaves_out_the_exporters():
    everything = functions(0)
    assert any(where.startswith("calculator/configs.py:") and name == "parse_model" for _l, _b, where, name in everything)
    assert any(name == "_Reader.raw" for _l, _b, _w, name in everything)          # methods, by their class
    assert not any(where.startswith(("calculator/export/", "tests/")) for _l, _b, where, _n in everything)
