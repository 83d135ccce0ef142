"""The frameworks' own example configs (tests/data/framework_examples/, sources and licences in its SOURCES.md) read
by the project's importer, each classed against what the file says (cases.json: the values the framework runs, read
from the file and the framework's defaults at its pinned version, and the features the estimator does not model):

* ``read``: read, every stated value as the framework uses it;
* ``note``: read, with a note (an unread entry coded other than ``not_read``) naming every feature of the file that
  moves memory and is not modelled, or a spelling the pinned version no longer takes;
* ``refused``: refused (an error code and the file and field it names);
* ``wrong``: read, but a value differs from the framework's, or a feature that moves memory goes unmentioned
  (silently wrong).

A refusal that names another key than the feature the case commits is counted apart (``refused (other)``).

    python -m frameworks.examples          # counts per outcome per target, then each case that is not as committed

``cases.json`` commits each case's expected outcome (``outcome``) and, for a note or a refusal, the file keys it must
name (``names``); tests/frameworks/test_examples_corpus.py holds the importer to it.

The whole examples folders (``corpus/``, rebuilt by its ``fetch.sh``; SOURCES.md) are classed alike from
``corpus/cases.json``: one case per training config (with the DeepSpeed JSON it names), and each DeepSpeed or
accelerate config no example names with a host example of its framework. Their values are held to the frameworks' own
parsing in the frameworks tier (tests/frameworks/test_examples_parse.py).
"""
from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

from calculator.export import answer_read
from calculator.export._common import model_from_repo

ROOT = Path(__file__).resolve().parent.parent / "tests" / "data" / "framework_examples"
OUTCOMES = ("read", "note", "refused", "wrong")
TARGET_OF = {"AX": "axolotl", "LF": "llamafactory", "TR": "trl", "UN": "unsloth"}
CORPUS = ROOT / "corpus"
#: The corpus's folders (one per repository and version: SOURCES.md) and the target each holds.
CORPUS_TARGET = {"axolotl": "axolotl", "llamafactory": "llamafactory", "llamafactory-main": "llamafactory",
                 "trl": "trl", "trl-1.16.0": "trl", "unsloth": "unsloth", "unsloth-notebooks": "unsloth"}
#: Unread codes that say the estimate differs from the file (every other code but ``not_read``/``unknown_model``).
_QUIET = ("not_read", "unknown_model")


def cases() -> dict[str, dict[str, Any]]:
    return json.loads((ROOT / "cases.json").read_text(encoding="utf-8"))


def files_of(case: dict[str, Any]) -> dict[str, str]:
    """The case's files, as pasted: ``{name: text}`` (the name its repository gives it, or the case's rename); a
    file is the corpus's copy (``corpus/...``) where the review's file is one of the examples folders'."""
    rename = case.get("rename", {})
    return {rename.get(f, f.rsplit("/", 1)[1]): (ROOT / f).read_text(encoding="utf-8") for f in case["files"]}


def corpus_cases() -> dict[str, dict[str, Any]]:
    """The whole examples folders' cases: ``{case id: {files, outcome, names}}`` (files relative to ``corpus/``)."""
    return json.loads((CORPUS / "cases.json").read_text(encoding="utf-8"))


def corpus_files() -> list[str]:
    """Every config file of the corpus, relative to ``corpus/`` (not its fetch.sh and cases.json)."""
    return sorted(p.relative_to(CORPUS).as_posix() for p in CORPUS.rglob("*")
                  if p.is_file() and p.parent != CORPUS)


def corpus_files_of(case: dict[str, Any]) -> dict[str, str]:
    """A corpus case's files as pasted: ``{file name: text}``, each under its name in its repository."""
    return {f.rsplit("/", 1)[-1]: (CORPUS / f).read_text(encoding="utf-8") for f in case["files"]}


def corpus_target(cid: str) -> str:
    return CORPUS_TARGET[cid.split("/", 1)[0]]


def _same(got: Any, want: Any) -> bool:
    if isinstance(want, list):
        return isinstance(got, list) and sorted(got) == sorted(want)
    if isinstance(want, float) and isinstance(got, (int, float)) and not isinstance(got, bool):
        return float(got) == want
    return got == want


def classify(case: dict[str, Any], answer: dict[str, Any]) -> tuple[str, list[str]]:
    """The outcome of one reading, and why (the mismatched keys, the errors, the notes)."""
    names = case.get("names", [])
    if not answer["ok"]:
        return "refused", [f"{e['code']} ({e.get('file')}: {e.get('field')})" for e in answer["errors"]]
    got = answer["read"]
    request, unread = got["request"], got["unread"]
    why = [f"{k}={request.get(k)!r} (the file: {v!r})" for k, v in case.get("expect", {}).items()
           if not _same(request.get(k), v)]
    catalogue = model_from_repo(case.get("hub"))
    if catalogue is not None and request.get("model") != catalogue:
        why.append(f"model={request.get('model')!r} (the file: {catalogue})")
    if catalogue is None and case.get("hub") and not any(u["code"] == "unknown_model" and u["value"] == case["hub"]
                                                          for u in unread):
        why.append(f"model id {case['hub']} neither read nor listed")
    notes = [u for u in unread if u["code"] not in _QUIET]
    missing = [n for n in names if not any(n == u["key"] or n in u["key"].split(".") for u in notes)]
    why += [f"{n}: no note" for n in missing]
    if why:
        return "wrong", why
    return ("note" if names else "read"), [f"{u['key']} ({u['code']})" for u in notes]


def refused_for_it(case: dict[str, Any], answer: dict[str, Any]) -> bool:
    """Whether a refusal names one of the file keys the case commits (the feature the estimator does not model; for a
    refusal of the whole file, ``too_large``, its code)."""
    named = {e.get("field") if e.get("field") is not None else e.get("code") for e in answer.get("errors", [])}
    return bool(named & set(case.get("names", [])))


def outcome_of(case: dict[str, Any], files: dict[str, str]) -> tuple[str, list[str]]:
    """One case's outcome and why; a refusal that names another key than the feature is ``refused (other)``."""
    answer = answer_read({"target": "auto", "files": files})
    outcome, why = classify(case, answer)
    return ("refused (other)" if outcome == "refused" and not refused_for_it(case, answer) else outcome), why


def run() -> dict[str, tuple[str, list[str]]]:
    """The review's cases: each one's outcome and why."""
    return {cid: outcome_of(case, files_of(case)) for cid, case in cases().items()}


def run_corpus() -> dict[str, tuple[str, list[str]]]:
    """The whole examples folders' cases: each one's outcome and why."""
    return {cid: outcome_of(case, corpus_files_of(case)) for cid, case in corpus_cases().items()}


def _table(title: str, all_cases: dict[str, dict[str, Any]], results: dict[str, tuple[str, list[str]]],
           target_of: Any) -> None:
    table = {t: Counter() for t in TARGET_OF.values()}
    for cid, (outcome, _) in results.items():
        table[target_of(cid)][outcome] += 1
    print(f"{title}\n")
    print("| target | cases | read | read with a note | refused, naming the feature | refused for another reason |"
          " silently wrong |")
    print("|---|---|---|---|---|---|---|")
    order = ("read", "note", "refused", "refused (other)", "wrong")
    for target, counts in [*table.items(), ("all", Counter(o for o, _ in results.values()))]:
        print(f"| {target} | {sum(counts.values())} | " + " | ".join(str(counts[o]) for o in order) + " |")
    print()
    for cid, (outcome, why) in results.items():
        want = all_cases[cid].get("outcome")
        if want != outcome or outcome != "read":
            mark = "" if want in (None, outcome) else f"  (committed: {want})"
            print(f"{cid} {outcome}{mark}: {'; '.join(why)[:300]}")
    print()


def main() -> int:
    _table("The review's 58 cases (cases.json)", cases(), run(), lambda cid: TARGET_OF[cid[:2]])
    _table("The whole examples folders (corpus/cases.json)", corpus_cases(), run_corpus(), corpus_target)
    return 0


if __name__ == "__main__":
    sys.exit(main())
