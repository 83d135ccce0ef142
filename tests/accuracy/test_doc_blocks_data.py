"""The generated blocks made from the measured data are current, and no figure the benchmarks report is copied by
hand outside a block, in README.md, CONTRIBUTING.md, ESTIMATOR.md, benchmarks/README.md, cms/README.md or any page
under docs/ (tools/docs.py: ``hand_copied``).

The rule, per figure of each benchmark's ``--json`` (accuracy.py, traces.py, time_accuracy.py --loso, peers.py and
peers_time.py from the peers' committed answers): a median, worst or signed median is matched as printed, with one
decimal and a % sign (a space or none before it, any sign before it; not inside a longer number); a count is matched
with a word of what it counts after it ("78 runs", "41 training steps", the Arabic «قياسًا») or as printed ("n=78"), a
part of a whole as "15/15"; counts below 2 are left out. Targets (each benchmark's TARGETS) are exempt.

These render the time blocks, which fit the time coefficients once per source held out (a minute or two; every test
here shares one fit)."""
from __future__ import annotations

import re

import pytest

from tools import docs

pytestmark = pytest.mark.accuracy

BENCHMARKS = ("accuracy", "traces", "throughput", "peers", "peers_time")


def test_blocks_made_from_the_data_are_current():
    stale = docs.stale(("accuracy",))
    assert not stale, "run `python -m tools.docs` (make docs) to rewrite:\n" + "\n".join(stale)


@pytest.mark.parametrize("script", BENCHMARKS)
def test_no_figure_of_a_benchmark_is_copied_by_hand(script):
    assert docs.figures(script, docs.report_of(script)), "the report has no figure: the rule would see nothing"
    copied = docs.hand_copied((script,))
    assert not copied, ("figures of a benchmark written outside a generated block (name the command, or put a "
                        "block there):\n" + "\n".join(copied))


def test_the_rule_finds_a_figure_written_by_hand(tmp_path, monkeypatch):
    """A copy of today's overall median, written in a document outside any block, is found, with its line."""
    median = docs.report_of("accuracy")["summary"]["overall"]["median_abs"] * 100
    page = tmp_path / "note.md"
    page.write_text(f"# Note\n\nThe median error is {median:.1f} % today.\n", encoding="utf-8")
    monkeypatch.setattr(docs, "documents", lambda: [page])
    monkeypatch.setattr(docs, "ROOT", tmp_path)
    assert any(line.startswith("note.md:3:") for line in docs.hand_copied(("accuracy",)))


def test_blocks_take_their_arguments_from_the_marker():
    text = docs.render("accuracy-rows", "en", ["TT-31", "LR-01"])
    assert [ln.split(" | ")[0] for ln in text.splitlines() if re.match(r"\| [A-Z]{2}-", ln)] == ["| TT-31", "| LR-01"]


def test_arabic_blocks_carry_the_english_figures_isolated():
    for name in ("own-accuracy", "memory-league", "memory-runs"):
        en, ar = docs.render(name, "en"), docs.render(name, "ar")
        assert re.findall(r"\d+\.\d ?%", en) == re.findall(r"\d+\.\d ?%", ar), name
        assert '<bdi dir="ltr">' in ar and not re.search(r"[٠-٩]", ar), name
