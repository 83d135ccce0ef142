"""The frameworks' own example configs (tests/data/framework_examples/, SOURCES.md there) imported as a reader pastes
them: each is read with the values its framework uses, refused naming the feature the estimator does not model, or
read with a note naming every key that moves memory and is not modelled; none is silently wrong. The expected
outcome of each case is committed with the corpus (cases.json); ``python -m frameworks.examples`` prints the
counts per outcome per target."""
from __future__ import annotations

import pytest

from calculator.export import answer_read
from frameworks.examples import OUTCOMES, cases, classify, files_of, refused_for_it

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
