"""The frameworks' own example configs (tests/data/framework_examples/, SOURCES.md there) imported as a reader pastes
them: each is read with the values its framework uses, refused naming the feature the estimator does not model, or
read with a note naming every key that moves memory and is not modelled; none is silently wrong. The expected
outcome of each case is committed with the corpus (cases.json: the review's 58 cases; corpus/cases.json: every
training config of the examples folders); ``python -m frameworks.examples`` prints the counts per outcome per target.
The framework-parse side of the whole folders is tests/frameworks/test_examples_parse.py (frameworks tier)."""
from __future__ import annotations

import pytest

from calculator.export import answer_read
from frameworks.examples import (CORPUS, CORPUS_TARGET, OUTCOMES, cases, classify, corpus_cases, corpus_files,
                                 corpus_files_of, files_of, outcome_of, refused_for_it)

pytestmark = pytest.mark.unit

CASES = cases()


def test_the_corpus_has_every_case_and_file() -> None:
    assert len(CASES) == 58
    assert {c["outcome"] for c in CASES.values()} <= set(OUTCOMES) - {"wrong"}
    for case in CASES.values():
        assert files_of(case)


@pytest.mark.parametrize("cid", sorted(CASES))
def test_each_example_reads_as_committed(cid: str) -> None:
    case = CASES[cid]
    answer = answer_read({"target": "auto", "files": files_of(case)})
    outcome, why = classify(case, answer)
    assert outcome == case["outcome"], (outcome, why)
    if outcome == "refused":        # the refusal names the feature, not some other key
        assert refused_for_it(case, answer), answer["errors"]


CORPUS_CASES = corpus_cases()


def test_every_file_of_the_whole_folders_is_imported_by_a_case() -> None:
    """Each config file is a case's main file or a companion (a DeepSpeed or accelerate config) of one."""
    used = {f for case in CORPUS_CASES.values() for f in case["files"]}
    assert used == set(corpus_files())
    assert {f.split("/", 1)[0] for f in used} == set(CORPUS_TARGET)
    assert len(CORPUS_CASES) >= 500
    sources = (CORPUS.parent / "SOURCES.md").read_text(encoding="utf-8")
    for folder in CORPUS_TARGET:
        assert f"`corpus/{folder}/`" in sources, folder
    for case in CORPUS_CASES.values():
        assert case["outcome"] in set(OUTCOMES) - {"wrong"}
        assert case["outcome"] == "read" or case["names"], case     # a note or a refusal names the feature


@pytest.mark.parametrize("folder", sorted(CORPUS_TARGET))
def test_each_config_of_the_whole_folders_reads_as_committed(folder: str) -> None:
    """One test per folder (hundreds of files: one parametrised test each would cost more than the reading)."""
    wrong = {}
    for cid, case in CORPUS_CASES.items():
        if cid.split("/", 1)[0] == folder:
            outcome, why = outcome_of(case, corpus_files_of(case))
            if outcome != case["outcome"]:
                wrong[cid] = (outcome, why)
    assert not wrong, wrong
