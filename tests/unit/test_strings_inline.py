"""The page's scripts read their words from the small table inline in every page (sitebuild/strings.py,
PAGE_SCRIPT_STRINGS); the worker fetches the rest. Every string path calc.js and site.js look up must be in that
small table, or the reader would meet an empty message where a loading stage or a failure is said."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from calculator import vocab
from sitebuild.strings import LANGUAGES, PAGE_SCRIPT_STRINGS, calc_strings, page_script_strings

pytestmark = pytest.mark.unit
ASSETS = Path(__file__).resolve().parents[2] / "docs" / "assets"


def _looked_up() -> set[str]:
    """The string paths the two scripts name: calc.js's text("a.b") and say("a.b"), a template's `a.${x}` as the
    prefix "a.", and site.js's (strings.status || {}).failed style lookups."""
    calc = (ASSETS / "calc" / "calc.js").read_text(encoding="utf-8")
    paths = set(re.findall(r'\b(?:text|say)\("([a-z_.]+)"', calc))
    paths |= {m + "." for m in re.findall(r'\b(?:text|say)\(`([a-z_]+)\.\$\{', calc)}
    site = (ASSETS / "site.js").read_text(encoding="utf-8")
    paths |= {f"{a}.{b}" for a, b in re.findall(r'\(strings\.([a-z_]+) \|\| \{\}\)\.([a-z_]+)', site)}
    return paths


def _covered(path: str) -> bool:
    return any(path == p or path.startswith(p + ".") or (path.endswith(".") and path[:-1] == p)
               for p in PAGE_SCRIPT_STRINGS)


def test_the_scripts_look_up_strings_and_the_reader_finds_each_of_them():
    paths = _looked_up()
    # the lookups the reader meets first, so that a change to the regexes above cannot make this test empty
    assert {"errors.internal_error", "status.", "failure.", "notice.", "run.copied", "status.failed",
            "failure.script"} <= paths
    assert [p for p in sorted(paths) if not _covered(p)] == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_inline_table_holds_every_stage_and_failure_in_both_languages(lang):
    inline = page_script_strings(calc_strings(lang))
    assert all(inline["status"][stage] for stage in vocab.STAGES)
    assert inline["failure"]["script"] and inline["errors"]["internal_error"]
    assert inline["run"]["copied"] != calc_strings(lang)["run"]["copy"]
    # and nothing else of the table: the rest is the worker's file
    assert set(inline) == {p.split(".")[0] for p in PAGE_SCRIPT_STRINGS}
    assert set(inline["errors"]) == {"internal_error"}
