"""No text from outside reaches an exported file outside a value's quotes (issue 36, review R1).

A hostile model name (a pasted config's ``name`` or ``_name_or_path``: line breaks of every kind, quotes, ``: ``,
``#``, template braces, YAML tags, shell syntax, NUL, escape sequences, bidi overrides, an encoding declaration) is
exported by every target over a grid of setups, through every route: ``export.answer_export``, the page's
``Page.run`` (the "Run it" tabs) and the CLI's ``--export``. Each file is read as its framework reads it (YAML with
PyYAML's ``safe_load``, JSON with ``json.loads``, the script with ``ast.parse`` of its UTF-8 bytes, which honours an
encoding declaration as ``python train.py`` does) and must equal, key for key (``ast.dump`` for the script), the same
export with a plain name; a value that carries the name reads back as the name itself.

Run as a script it prints, per target, the hostile-name grid's count of files parsed and of files read differently
(``python tests/frameworks/test_export_hostile.py``), or runs each law with N examples
(``python tests/frameworks/test_export_hostile.py --examples 10000``).
"""
from __future__ import annotations

import ast
import contextlib
import html
import io
import json
import re
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import example, given
from hypothesis import strategies as st

sys.path[:0] = [str(Path(__file__).resolve().parents[2]), str(Path(__file__).resolve().parent)]   # run as a script
from export_grid import CUSTOM_MODEL, GRID, words  # noqa: E402

from calculator import __main__ as cli  # noqa: E402
from calculator.export import TARGETS, _yaml, answer_export  # noqa: E402

pytestmark = pytest.mark.frameworks

_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
PLAIN = "tiny"
#: Pieces a hostile name is made of: every line break YAML 1.1 or Python knows, controls and escape sequences, the
#: bidirectional overrides and isolates, quotes and YAML/Python/shell syntax, words a resolver reads as another type,
#: a template's braces, an encoding declaration (``coding: utf-7`` on a script's second line turns ``+AAo-`` into a
#: line break).
FRAGMENTS = (
    "\n", "\r", "\r\n", "\x85", "\u2028", "\u2029", "\x0b", "\x0c", "\t", "\x00", "\x7f", "\x9b",
    "\x1b[31m", "\x1b]0;PWNED\x07", "\u202e", "\u202d", "\u202a", "\u2066", "\u2067", "\u2068", "\u2069", "\u200e",
    "\u200f", "\u061c", "\ufeff", "\ud800", "\U0001f600", '"', "'", "\\", "\\n", ": ", "#", " # ", "{{", "}}", "{0}",
    "{model}", "{stack.__init__.__globals__}", "!!python/object/apply:os.system ['id']", "`id`", "$(id)", "- ",
    "&a ", "*a", "---", "...", "%YAML 1.1", "<<: ", "[", "]", "{", "}", ", ", "|", ">", "@", "%", "?", "!",
    "trust_remote_code: true", "import os; os.system('echo PWNED')", "coding: utf-7", "coding=latin-1", "+AAo-",
    "yes", "on", "null", "~", ".inf", "0o17", "0x1f", "2e-4", "1_000", " ", "\u00a0", "العربية",
)
#: The review's hostile names (reliability-scripts/export_injection.py) and more, for the fixed grid.
NAMED = (
    "tiny\ntrust_remote_code: true\n#", "tiny\rtrust_remote_code: true\r#", "tiny\r\ntrust_remote_code: true\r\n#",
    "tiny\u2028trust_remote_code: true\u2028#", "tiny\u2029trust_remote_code: true\u2029#",
    "tiny\x85trust_remote_code: true\x85#", "tiny\nimport os; os.system('echo PWNED')\n#",
    "tiny\rimport os; os.system('echo PWNED')\r#", "tiny\x0c\x0bx", "a: b # c", "it's \"quoted\"",
    "{{ 7*7 }} {0} {model}", "- item", "a\x00b", "\x1b]0;PWNED\x07", "\n" * 199 + "x",
    "coding: utf-7 +AAo-import os+AAo-", "x\u202eyxz.py", "!!python/object/apply:os.system ['id']",
    "`id` $(id)", "\\\"\n", "yes", "\ud800", "العربية\u200f", "a" * 200,
)
#: Setups for the fixed grid and the routes that cost more (Page.run renders all four targets): one per method,
#: DPO, GPU count and sharding of the export grid, the custom model in each.
SETUPS = tuple((rid, req) for rid, req in GRID
               if rid.startswith(("full-1gpu-none", "lora-2gpu-fsdp2", "qlora-8gpu-zero3", "lora-dpo-2gpu-zero2",
                                  "full-dpo-8gpu-zero3-offload", "qlora-dpo-1gpu-none", "unsloth-cli-subset",
                                  "no-gpu-chosen", "lora-dropout-dpo", "precision-fp32-lora")))
TEXTS = {"codes": None, "en": words("en"), "ar": words("ar")}


def names() -> st.SearchStrategy[str]:
    return st.lists(st.one_of(st.sampled_from(FRAGMENTS), st.text(max_size=4)), min_size=1, max_size=12) \
        .map("".join).filter(bool)


def request(setup: dict[str, Any], name: str, field: str) -> dict[str, Any]:
    return {**setup, "model": {**CUSTOM_MODEL, field: name}}


def parse(file: str, text: str) -> Any:
    """The file as its framework reads it."""
    if file.endswith((".yaml", ".yml")):
        return yaml.load(text, Loader=_LOADER)
    if file.endswith(".json"):
        return json.loads(text)
    if file.endswith(".py"):
        return ast.parse(text.encode("utf-8"))      # bytes: an encoding declaration applies, as in `python train.py`
    raise AssertionError(file)


def _as_plain(x: Any, name: str) -> Any:
    """A parsed file with every value equal to the hostile name read as the plain name (those carry the name)."""
    if isinstance(x, str):
        return PLAIN if x == name else x
    if isinstance(x, dict):
        return {k: _as_plain(v, name) for k, v in x.items()}
    if isinstance(x, list):
        return [_as_plain(v, name) for v in x]
    return x


def differs(file: str, hostile: str, plain: str, name: str) -> str | None:
    """Why the hostile file reads differently from the plain one (None: it does not)."""
    try:
        got, want = parse(file, hostile), parse(file, plain)
    except (yaml.YAMLError, ValueError, SyntaxError) as exc:
        return f"{file} does not parse: {exc}"
    if isinstance(got, ast.AST):
        for node in ast.walk(got):
            if isinstance(node, ast.Constant) and node.value == name:
                node.value = PLAIN
        got, want = ast.dump(got), ast.dump(want)
    else:
        got = _as_plain(got, name)
    if got != want:
        if isinstance(got, dict) and isinstance(want, dict):
            return f"{file}: keys {sorted(set(got) ^ set(want))}, values {[k for k in got if got.get(k) != want.get(k)]}"
        return f"{file} reads differently"
    return None


def check(files: dict[str, str], plain: dict[str, str], name: str) -> list[str]:
    problems = [] if set(files) == set(plain) else [f"files {sorted(files)} != {sorted(plain)}"]
    for file, text in files.items():
        text.encode("utf-8")                                        # every file can be written as UTF-8
        why = differs(file, text, plain.get(file, ""), name)
        if why:
            problems.append(why)
    return problems


def via_api(target: str, req: dict[str, Any], text: dict[str, str] | None) -> dict[str, str] | dict[str, Any]:
    out = answer_export({"target": target, "request": req, **({"text": text} if text else {})})
    return out["export"]["files"] if out["ok"] else {"<refused>": out["errors"]}


# --------------------------------------------------------------------------------------------------------------
# The laws
# --------------------------------------------------------------------------------------------------------------
@given(name=names(), target=st.sampled_from(TARGETS), setup=st.sampled_from(GRID),
       field=st.sampled_from(("_name_or_path", "name")), lang=st.sampled_from(tuple(TEXTS)))
def test_a_hostile_name_through_the_api_stays_inside_its_value(name, target, setup, field, lang):
    plain = via_api(target, request(setup[1], PLAIN, field), TEXTS[lang])
    files = via_api(target, request(setup[1], name, field), TEXTS[lang])
    if "<refused>" in plain:
        assert files == plain
        return
    assert check(files, plain, name) == [], (setup[0], target, repr(name))


def _page_files(page: Any, model: dict[str, Any], setup: dict[str, Any]) -> dict[str, dict[str, str]]:
    raw = {k: ("fsdp" if k == "sharding" and v == "zero3" and not setup.get("deepspeed") else v)
           for k, v in setup.items() if k != "model"}
    raw = {k: (",".join(v) if isinstance(v, list) else v if isinstance(v, bool) else str(v))
           for k, v in raw.items()}
    raw["model"] = {"source": "paste", "value": json.dumps(model)}
    out = json.loads(page.run(json.dumps({"action": "export", "kind": "estimator", "fixed": {}, "imported": {},
                                          "raw": raw, "wid": "w"})))
    if not out["ok"]:
        return {"<refused>": {"<refused>": json.dumps(out["errors"])}}
    files: dict[str, dict[str, str]] = {}
    for target, file, text in re.findall(r'id="w-run-([a-z]+)-([a-z_]+-(?:yaml|json|py))"[^>]*><code>(.*?)</code>',
                                         out["html"], re.S):
        files.setdefault(target, {})[file.replace("-", ".")] = \
            html.unescape(text)
    return files


_PAGES: dict[str, Any] = {}


def page(lang: str) -> Any:
    if lang not in _PAGES:
        from calculator.page import Page
        from sitebuild.strings import calc_strings
        _PAGES[lang] = Page(json.dumps(calc_strings(lang)), lang)
    return _PAGES[lang]


@given(name=names(), setup=st.sampled_from(SETUPS), field=st.sampled_from(("_name_or_path", "name")),
       lang=st.sampled_from(("ar", "en")))
def test_a_hostile_name_through_the_page_stays_inside_its_value(name, setup, field, lang):
    plain = _page_files(page(lang), {**CUSTOM_MODEL, field: PLAIN}, setup[1])
    files = _page_files(page(lang), {**CUSTOM_MODEL, field: name}, setup[1])
    assert set(files) == set(plain)
    if "<refused>" in plain:
        return
    assert set(plain) == set(TARGETS)
    for target in TARGETS:
        assert check(files[target], plain[target], name) == [], (setup[0], target, repr(name))


def _cli_args(setup: dict[str, Any]) -> list[str]:
    args: list[str] = []
    for key, value in setup.items():
        if key == "model":
            continue
        flag = "--" + key.replace("_", "-")
        if isinstance(value, bool):
            args.append(flag if value else "--no-" + key.replace("_", "-"))
        else:
            args += [flag, ",".join(value) if isinstance(value, list) else str(value)]
    return args


def via_cli(target: str, setup: dict[str, Any], model: dict[str, Any]) -> dict[str, str]:
    with tempfile.TemporaryDirectory() as tmp:
        config = Path(tmp) / "config.json"
        config.write_text(json.dumps(model), encoding="utf-8")
        out = Path(tmp) / "out"
        with contextlib.redirect_stdout(io.StringIO()) as said, contextlib.redirect_stderr(io.StringIO()) as err:
            code = cli.main(["--config", str(config), *_cli_args(setup), "--export", target, "--out", str(out)])
        for line in (said.getvalue() + err.getvalue()).splitlines():
            assert line.isprintable(), repr(line)                    # the CLI's echo is escaped too
        if code != 0:
            return {"<refused>": err.getvalue()}
        return {p.name: p.read_text(encoding="utf-8") for p in out.iterdir() if not p.name.startswith("cannot")}


@given(name=names(), target=st.sampled_from(TARGETS), setup=st.sampled_from(SETUPS),
       field=st.sampled_from(("_name_or_path", "name")))
def test_a_hostile_name_through_the_cli_stays_inside_its_value(name, target, setup, field):
    plain = via_cli(target, setup[1], {**CUSTOM_MODEL, field: PLAIN})
    files = via_cli(target, setup[1], {**CUSTOM_MODEL, field: name})
    if "<refused>" in plain:
        assert "<refused>" in files
        return
    assert check(files, plain, name) == [], (setup[0], target, repr(name))


@given(st.one_of(st.text(), names()))
@example("yes\n")           # a trailing line break once passed the plain-word check (``$`` matches before it)
@example("\ud800")
def test_a_quoted_yaml_string_reads_back_the_same_in_pyyaml_and_ruamel(text):
    """The exports' one YAML string writer (``_yaml.scalar``; hand-written double quotes, not a library's emitter)
    gives every string back unchanged to the frameworks' reader (PyYAML, YAML 1.1) and to the project's (ruamel.yaml,
    told YAML 1.1, through ``_yaml.load``), a lone surrogate (which PyYAML refuses even escaped) as U+FFFD."""
    line = "key: " + _yaml.scalar(text) + "\n"
    assert "\n" not in line[:-1] and line[:-1].isprintable(), ascii(line)
    want = {"key": re.sub("[\ud800-\udfff]", "\ufffd", text)}       # a lone surrogate is written as U+FFFD
    assert yaml.load(line, Loader=_LOADER) == want
    assert yaml.load(line, Loader=yaml.SafeLoader) == want
    assert _yaml.load(line) == want


@pytest.mark.parametrize("target", TARGETS)
def test_the_hostile_name_grid_reads_as_the_plain_one(target):
    """The fixed grid (the review's names and more, as ``_name_or_path``, over the setups, in both languages and in
    codes): every file parsed, none with a key or a statement the plain export lacks."""
    parsed, problems = grid(target, SETUPS, ("_name_or_path",))
    assert parsed > 0 and problems == []


def grid(target: str, setups: Any, fields: tuple[str, ...] = ("_name_or_path", "name")) -> tuple[int, list[str]]:
    """Over ``setups`` x the comment tables x ``fields`` x NAMED: (files parsed, why each one read differently)."""
    parsed, problems = 0, []
    for rid, setup in setups:
        for lang, text in TEXTS.items():
            for field in fields:
                plain = via_api(target, request(setup, PLAIN, field), text)
                if "<refused>" in plain:
                    continue
                for name in NAMED:
                    files = via_api(target, request(setup, name, field), text)
                    parsed += len(files)
                    problems += [f"{rid} {lang} {field} {name!r}: {p}" for p in check(files, plain, name)]
    return parsed, problems


LAWS = (test_a_quoted_yaml_string_reads_back_the_same_in_pyyaml_and_ruamel,
        test_a_hostile_name_through_the_api_stays_inside_its_value,
        test_a_hostile_name_through_the_cli_stays_inside_its_value,
        test_a_hostile_name_through_the_page_stays_inside_its_value)

if __name__ == "__main__":
    # ``--examples N``: each law with N examples (the scratch run: 10^4); else the counts for the issue's
    # note, over the whole export grid.
    import time
    if sys.argv[1:2] == ["--examples"]:
        from hypothesis import HealthCheck, settings
        n = int(sys.argv[2])
        for law in LAWS:
            start, wall = time.process_time(), time.time()
            settings(max_examples=n, deadline=None, database=None, suppress_health_check=list(HealthCheck))(law)()
            print(f"{law.__name__}: {n} examples passed, {time.process_time() - start:.0f} s CPU, "
                  f"{time.time() - wall:.0f} s wall", flush=True)
        sys.exit(0)
    for t in TARGETS:
        start = time.process_time()
        n, bad = grid(t, GRID)
        print(f"{t}: {n} files parsed, {len(bad)} with an extra key or statement or another value "
              f"({time.process_time() - start:.1f} s CPU)")
        for line in bad[:5]:
            print("   ", line)
