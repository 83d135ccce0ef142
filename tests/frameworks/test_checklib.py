"""``frameworks/_checklib.py`` on CPython without a framework: the helpers the checkers share (it runs inside each
target's venv, so it is imported here in a child process: at import it moves ``sys.stdout`` to stderr)."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.unit
FRAMEWORKS = Path(__file__).resolve().parents[2] / "frameworks"

CHILD = """
import dataclasses, json, sys
sys.path.insert(0, sys.argv[1])
import _checklib as lib

@dataclasses.dataclass
class Args:
    lr: float = 1e-4
    logging_dir: str = "runs/a"
    steps: int = 1

@dataclasses.dataclass
class More:
    name: str = "x"

plain = (Args(), More())
given = (Args(lr=2e-4, logging_dir="runs/b"), More(name="y"))
print(json.dumps(lib.changed_fields(plain, given)), file=lib.REAL_STDOUT)
"""


def test_changed_fields_names_each_overridden_field_but_the_derived_logging_dir():
    out = subprocess.run([sys.executable, "-c", CHILD, str(FRAMEWORKS)], capture_output=True, text=True, check=True,
                         timeout=60).stdout
    assert json.loads(out) == ["Args.lr", "More.name"]
