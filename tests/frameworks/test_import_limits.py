"""A pasted training config cannot hang the page or the CLI (issue 36; the reliability review of 2026-12-07, R2, R6
and R13): YAML aliases and merge keys are counted as they expand, while the text is composed, and refused at
``MAX_NODES`` values before anything is constructed; the depth counted before parsing reads ``#`` and quotes as YAML
does; a YAML config that only mentions FastLanguageModel is read as YAML."""
from __future__ import annotations

import json
import time

import pytest
from ruamel.yaml.constructor import SafeConstructor

from calculator.export import answer_export, answer_read
from calculator.export._yaml import MAX_NODES, load, nesting

pytestmark = pytest.mark.unit

AXO = "base_model: meta-llama/Llama-3.1-8B\nmicro_batch_size: 2\n"


class Constructed(BaseException):
    """Raised when ruamel starts constructing Python values (not an Exception: no boundary may swallow it)."""


@pytest.fixture
def unbuilt(monkeypatch):
    """Construction fails the test: what these texts ask must be refused while they are composed."""
    def construct_document(self, node):
        raise Constructed

    monkeypatch.setattr(SafeConstructor, "construct_document", construct_document)


def merge_chain(levels: int, keys: int = 500) -> str:
    """R2: ``keys`` keys, then ``levels - 1`` mappings each merging the one before three times: 5.6 KB at 10 levels,
    whose construction took 23 s and 2.3 GB (ruamel copies the merged pairs into every mapping: x3 a level)."""
    return "m0: &m0 {" + ", ".join(f"k{i}: {i}" for i in range(keys)) + "}\n" + "".join(
        f"m{i}: &m{i} {{<<: [*m{i - 1}, *m{i - 1}, *m{i - 1}], z{i}: 1}}\n" for i in range(1, levels))


def refusal(files: dict[str, str]) -> list[tuple[str, str]]:
    try:
        out = answer_read({"target": "auto", "files": files})
    except Constructed:          # (its traceback dropped: the frames hold the composed nodes, 3^n values to print)
        out = None
    assert out is not None, "construction started before the text was refused"
    assert out["ok"] is False, out
    return [(e["code"], e["file"]) for e in out["errors"]]


@pytest.mark.parametrize("levels", [10, 12])
def test_a_merge_key_bomb_is_refused_before_anything_is_built(levels, unbuilt) -> None:
    t0 = time.process_time()
    assert refusal({"config.yaml": AXO + merge_chain(levels)}) == [("too_large", "config.yaml")]
    assert time.process_time() - t0 < 1.0          # the budget is 0.2 s; CPU time, generous


@pytest.mark.parametrize("text", [
    "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"a{i}: &a{i} [{', '.join(['*a' + str(i - 1)] * 10)}]\n" for i in range(1, 10)),   # billion laughs
    "m0: &m0 {a: 1}\n" + "".join(f"m{i}: &m{i} {{<<: *m{i - 1}, b{i}: 1}}\n" for i in range(1, 1000)),
    "r: &r [*r]\n",                                   # an alias inside the node it names never ends
    "s: &s {a: 1, <<: *s}\n",
    "a: &x 1\nb: &x [*x]\n",                          # a name given again names the new node, still open
    "a0: &a0 " + "[" * 20 + "1" + "]" * 20 + "\n" + "".join(
        f"a{i}: &a{i} " + "[" * 20 + f"*a{i - 1}" + "]" * 20 + "\n" for i in range(1, 3)),     # 20 + 20 + 20 deep
    "z: [" + ",".join(["1"] * MAX_NODES) + "]\n",
], ids=["billion-laughs", "1000-chained-merges", "recursive-alias", "self-merge", "renamed-anchor", "alias-depth",
        "max-nodes"])
def test_aliases_and_merges_count_as_they_expand(text, unbuilt) -> None:
    assert refusal({"config.yaml": AXO + text}) == [("too_large", "config.yaml")]


def test_a_file_within_the_limits_is_read_with_its_aliases_and_merges() -> None:
    r = answer_read({"target": "auto", "files": {"config.yaml": "base: &b {micro_batch_size: 7}\n<<: *b\n"
                                                                "base_model: meta-llama/Llama-3.1-8B\n"
                                                                "lists: &l [1, 2]\nagain: *l\n"
                                                                "z: [" + ",".join(["1"] * (MAX_NODES // 2)) + "]\n"}})
    assert r["ok"], r
    assert r["read"]["request"]["micro_batch_size"] == 7
    assert load("a0: &a0 " + "[" * 15 + "1" + "]" * 15 + "\na1: " + "[" * 15 + "*a0" + "]" * 15 + "\n")["a1"] == \
        json.loads("[" * 30 + "1" + "]" * 30)


@pytest.mark.parametrize("text,deeper", [
    ("x: [a#b, " + "[" * 40 + "]" * 40 + "]\n", True),          # R6: a '#' after a letter is part of a plain scalar
    ("x: [a #b, " + "[" * 40 + "]" * 40 + "]\n", False),        # after a space it starts a comment
    ("#" + "[" * 40 + "\n", False),
    ("x: [don't, " + "[" * 40 + "]" * 40 + "]\n", True),        # a quote inside a plain scalar opens nothing
    ("x: ['" + "[" * 40 + "']\n", False),                        # inside a quoted scalar, brackets are text
    ("x: ['it''s " + "[" * 40 + "']\n", False),
    ('x: ["a\\" [", ' + "[" * 40 + "]" * 40 + "]\n", True),       # an escaped quote does not close it
    ("x: ['a\\', " + "[" * 40 + "]" * 40 + "]\n", True),          # a backslash escapes nothing in single quotes
])
def test_the_depth_counted_before_parsing_reads_yaml_as_yaml_does(text, deeper) -> None:
    assert (nesting(text) > 32) is deeper


@pytest.mark.parametrize("text,deeper", [
    ("x = f(1)#" + "(" * 40 + "\n", False),                      # in Python '#' outside a string is a comment
    ("x = f'#' + " + "(" * 40 + "1" + ")" * 40 + "\n", True),     # a quote opens a string after anything
    ("x = '\\'' + " + "(" * 40 + "1" + ")" * 40 + "\n", True),    # and a backslash escapes in single quotes too
])
def test_the_depth_of_a_script_reads_python_as_python_does(text, deeper) -> None:
    assert (nesting(text, python=True) > 32) is deeper


@pytest.mark.parametrize("text", [
    "x: [a#b, " + "[" * 60_000 + "]" * 60_000 + "]\n",
    "x: [don't, " + "[" * 60_000 + "]" * 60_000 + "]\n",
    'x: ["abc\n  ", ' + "[" * 60_000 + "]" * 60_000 + "]\n",    # a quoted scalar over two lines: the scanner stops it
    "z: [" + ",".join(["1"] * 60_000) + "]\n",
    "k: 1\n" * 19_000,
], ids=["a#b", "don't", "two-line-quote", "60000-ints", "19000-duplicate-keys"])
def test_slow_yaml_within_the_size_limit_is_refused_quickly(text, unbuilt) -> None:
    """R6: each of these took 1-2 s of CPU before it was refused."""
    t0 = time.process_time()
    assert refusal({"config.yaml": AXO + text}) == [("too_large", "config.yaml")]
    assert time.process_time() - t0 < 1.0


@pytest.mark.parametrize("mention", ["# FastLanguageModel\n", "notes: use FastLanguageModel, not AutoModel\n",
                                     "comment: |\n  from unsloth import FastLanguageModel\n",
                                     "import: FastLanguageModel\n"])
def test_a_yaml_config_that_mentions_fastlanguagemodel_is_read_as_yaml(mention) -> None:
    """R13: it was read as a Python script and refused as invalid_python."""
    r = answer_read({"target": "auto", "files": {"config.yaml": AXO + mention}})
    assert r["ok"], r
    assert r["read"]["target"] == "axolotl"


def test_an_unsloth_script_pasted_into_the_box_is_still_a_script() -> None:
    script = answer_export({"target": "unsloth", "request": {"model": "llama-3.1-8b", "method": "qlora"}})[
        "export"]["files"]["train.py"]
    r = answer_read({"target": "auto", "files": {"config.yaml": script}})     # the page names the box config.yaml
    assert r["ok"], r
    assert (r["read"]["target"], r["read"]["request"]["model"]) == ("unsloth", "llama-3.1-8b")
