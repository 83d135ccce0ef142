"""The documents' generated blocks (tools/docs.py): one marker syntax, one registry, one command. Here what
needs no measured data: every marker names a known block, the blocks made from the code alone are current, the
generator rewrites only block bodies and refuses what it cannot honour, and the rule that finds a figure copied by
hand. The blocks made from the measured data, and the hand-copied figures in today's documents, are checked in
tests/accuracy/test_doc_blocks_data.py; the speed blocks (this machine's figures) only by
``python -m tools.docs --with-speed``.
"""
from __future__ import annotations

import pytest

from calculator.inputs import INPUTS
from tools import docs

pytestmark = pytest.mark.unit


def test_every_marker_is_a_known_block_and_every_block_is_used():
    used = set()
    for path in docs.documents():
        text = path.read_text(encoding="utf-8")
        docs.check_markers(text, str(path))
        for name, _ in docs.blocks_of(path):
            assert docs.language_of(path) in docs.BLOCKS[name].langs, (path, name)
            used.add(name)
    assert used == set(docs.BLOCKS), f"blocks no document uses: {sorted(set(docs.BLOCKS) - used)}"


def test_blocks_made_from_the_code_are_current():
    stale = docs.stale(("unit",))
    assert not stale, "run `python -m tools.docs` (make docs) to rewrite:\n" + "\n".join(stale)


def test_estimator_md_lists_every_request_key():
    text = docs.ESTIMATOR_MD.read_text(encoding="utf-8")
    assert ("request-keys", ()) in docs.blocks_of(docs.ESTIMATOR_MD)
    for spec in INPUTS:
        assert f"| `{spec.name}` |" in text


def test_the_accuracy_page_has_the_same_blocks_in_both_languages():
    for page, lang in (("accuracy.md", "ar"), ("accuracy.en.md", "en")):
        path = docs.ROOT / "docs" / page
        assert docs.language_of(path) == lang
        assert [n for n, _ in docs.blocks_of(path)] == ["memory-league", "own-accuracy", "memory-runs",
                                                        "time-league"], page


# --------------------------------------------------------------------------------------------------------------
# The generator, on texts of its own
# --------------------------------------------------------------------------------------------------------------
PAGE = ("# T\n\nbefore 6.1 %\n\n<!-- generated:begin request-keys -->\nOLD-BODY\n<!-- generated:end request-keys -->\n\n"
        "after\n")


def test_a_block_is_rewritten_and_only_its_body():
    new = docs.refreshed(PAGE, "en", ("unit",))
    assert new.startswith("# T\n\nbefore 6.1 %\n\n<!-- generated:begin request-keys -->\n\n| key |")
    assert new.endswith("|\n\n<!-- generated:end request-keys -->\n\nafter\n") and "OLD-BODY" not in new
    assert docs.refreshed(new, "en", ("unit",)) == new                                 # idempotent
    assert docs.refreshed(PAGE, "en", ("accuracy", "speed")) == PAGE                   # other tiers are kept


def test_blanked_blocks_keep_the_lines_of_what_a_person_wrote():
    stripped = docs.strip_blocks(PAGE)
    assert "OLD-BODY" not in stripped and stripped.count("\n") == PAGE.count("\n") and "before 6.1 %" in stripped


@pytest.mark.parametrize("text, message", [
    ("<!-- generated:begin no-such-block -->\nx\n<!-- generated:end no-such-block -->\n", "unknown generated block"),
    ("<!-- generated:begin request-keys -->\nx\n", "no matching end"),
    ("x\n<!-- generated:end request-keys -->\n", "no matching begin"),
    ("<!-- generated:begin request-keys -->\n<!-- generated:begin targets -->\n"
     "<!-- generated:end request-keys -->\n", "holds another marker"),
])
def test_a_marker_it_cannot_honour_fails_with_its_reason(text, message):
    with pytest.raises(docs.BlockError, match=message):
        docs.refreshed(text, "en", ("unit",), "page.md")


def test_a_block_without_text_in_the_page_language_fails():
    with pytest.raises(docs.BlockError, match="no ar text"):
        docs.refreshed(PAGE, "ar", ("unit",))


def test_an_arabic_page_is_told_apart_from_its_english_twin():
    assert docs.language_of(docs.ROOT / "docs" / "articles" / "x.md") == "ar"
    assert docs.language_of(docs.ROOT / "docs" / "articles" / "x.en.md") == "en"
    assert docs.language_of(docs.ROOT / "README.md") == "en"


# --------------------------------------------------------------------------------------------------------------
# The rule for a figure copied by hand
# --------------------------------------------------------------------------------------------------------------
def _matches(figs, text):
    return {f.what for f in figs if f.pattern.search(text)}


def test_a_percentage_matches_as_printed_with_or_without_space_and_sign():
    (f,) = docs._percent("x", 6.1, set())
    for written in ("6.1%", "6.1 %", "−6.1 %", "-6.1%", "(median 6.1\u00a0%)", '<bdi dir="ltr">6.1 %</bdi>'):
        assert f.pattern.search(written), written
    for other in ("16.1 %", "6.15 %", "6.1 GB", "26.1%", "6.10 %", "0.6.1 %"):
        assert not f.pattern.search(other), other
    assert docs._percent("x", 35.0, {"35.0"}) == []                    # a target is exempt
    assert docs._percent("x", None, set()) == []


def test_a_count_matches_with_its_word_or_as_printed():
    figs = docs._count("n", 78, docs.COUNT_WORDS["accuracy"])
    for written in ("78 runs", "all 78 measured runs", "n=78", "n = 78", '<bdi dir="ltr">78</bdi> قياسًا',
                    "the 78 usable rows"):
        assert _matches(figs, written), written
    for other in ("78 GB", "178 runs", "7.8 runs", "78", "1,078 rows", "n=780"):
        assert not _matches(figs, other), other
    assert docs._count("n", 1, "runs?") == []


def test_a_fraction_matches_exactly():
    (frac,) = docs._fraction("f", 5, 11)
    assert frac.pattern.search("5/11 pass")
    assert not any(frac.pattern.search(t) for t in ("15/11", "5/110", "2025/11/30"))


def test_figures_are_taken_from_every_group_of_a_report():
    report = {"summary": {"overall": {"n": 12, "median_abs": 0.041, "worst_abs": 0.319, "median_signed": -0.013},
                          "lora": {"n": 4, "median_abs": 0.05, "worst_abs": 0.1, "median_signed": 0.0},
                          "capacity": {"n": 11, "passed": 5}, "targets": {"median_overall": 0.10}}}
    texts = {f.text for f in docs.figures("accuracy", report)}
    assert {"4.1 %", "31.9 %", "1.3 %", "5.0 %", "0.0 %", "5/11", "12 …", "11 …"} <= texts
    assert "10.0 %" not in texts                                       # the lora worst is the target: exempt
    league = {"summary": [{"group": "all", "tool": "ours", "rows": 9, "of": 10, "median": 4.0, "worst": 8.25,
                           "same_rows": {"ours": None}}], "counts": {"scored": 10}}
    assert {f.text for f in docs.figures("peers", league)} >= {"4.0 %", "8.2 %", "9/10", "9 …", "10 …"}


def test_a_marker_quoted_in_a_sentence_is_not_a_block():
    text = "Write `<!-- generated:begin NAME -->` on a line of its own.\n"
    assert docs.refreshed(text, "en", docs.TIERS) == text and docs.strip_blocks(text) == text
