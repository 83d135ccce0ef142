"""The whole hostile corpus of the reliability review of 2026-12-07 (benchmarks/hostile_inputs.py: its
``hostile_import.py`` A-E, ``pyodide_cases.py`` and the tables of R2, R3 and R6), through the API, the page and the
CLI: no door raises, and every answer comes within the issue's budget (issue 36: 200 ms of CPU on CPython; asserted
here at 1 s, CPU time of this process, as a shared machine allows). The bombs and deep texts of R2, R3 and R6 are
refused as ``too_large``. The type confusion of family E (6,577 files) goes through the API alone here (the page and
the CLI hand the same texts to the same reader; the benchmark times all three). Slow (about 7,000 answers, a minute
or two): the frameworks tier."""
from __future__ import annotations

import warnings

import pytest

from benchmarks.hostile_inputs import Doors, corpus

pytestmark = pytest.mark.frameworks

#: Generous against the 200 ms budget: the figures themselves are the benchmark's to print.
CPU_LIMIT_MS = 1000.0


def test_every_hostile_input_is_answered_quickly_and_the_bombs_are_too_large(tmp_path) -> None:
    doors = Doors(tmp_path)
    slow, raised, not_refused = [], [], []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for case in corpus():
            for door in case.doors if case.family != "E" else ("api",):
                ms, codes = doors.time(door, case)
                if ms > CPU_LIMIT_MS:
                    slow.append((round(ms), case.family, door, case.label))
                if any(c[0] == "RAISED" for c in codes):
                    raised.append((case.family, door, case.label, codes))
                if case.family in ("R2", "R3", "R6") and [c[0] for c in codes][:1] != ["too_large"]:
                    not_refused.append((case.family, door, case.label, codes[:2]))
    assert not slow, slow
    assert not raised, raised
    assert not not_refused, not_refused
