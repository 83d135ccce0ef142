"""Every test module under tests/ has a basename of its own: the tiers' folders are not packages, so pytest imports
each module by its basename, and a second file of the same name stops the whole run at collection (a clean clone
has no cache to hide it). Two branches of one round added such a pair each."""
from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

pytestmark = pytest.mark.unit

TESTS = Path(__file__).resolve().parents[1]


def test_no_two_test_modules_share_a_basename():
    names = Counter(p.name for p in TESTS.rglob("test_*.py") if "__pycache__" not in p.parts)
    assert [n for n, k in names.items() if k > 1] == []
