"""The estimator's "Run it" section and its paste boxes, through the worker's entry point (``Page.run``): the tabs
carry the exporters' own files for the form's state with the comments in the reader's language, a pasted export
comes back as the form's state, and every failure is a code with a message in the reader's language."""
from __future__ import annotations

import json
import re
from html.parser import HTMLParser

import pytest

from calculator import api, export
from calculator.page import WIDGET_KINDS, Page
from sitebuild.strings import LANGUAGES, calc_strings
from tests.lazy import OnFirstUse

pytestmark = pytest.mark.unit

PAGES = OnFirstUse(("ar", "en"), lambda lang: Page(json.dumps(calc_strings(lang)), lang))
STRINGS = OnFirstUse(("ar", "en"), calc_strings)
ESTIMATOR = WIDGET_KINDS["estimator"]
#: A QLoRA setup on two cards with FSDP2 (a companion accelerate file), given as the form's raw controls.
QLORA_RAW = {"method": "qlora", "num_gpus": "2", "sharding": "fsdp", "seq_len": "4096", "model": "llama-3.1-8b"}


class _Files(HTMLParser):
    """Each tab panel's files as shown: {target: {file name: text of its <pre>}}, and the tabs' targets in order."""

    def __init__(self) -> None:
        super().__init__()
        self.tabs: list[str] = []
        self.files: dict[str, dict[str, str]] = {}
        self._panel = self._file = ""
        self._pre = False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if a.get("role") == "tab":
            self.tabs.append(a["data-calc-tab"])
        if a.get("role") == "tabpanel":
            self._panel = a["data-calc-tabpanel"]
            self.files[self._panel] = {}
        if "data-calc-file" in a:
            self._file = a["data-calc-file"]
        if tag == "pre":
            self._pre = True
            self.files[self._panel][self._file] = ""

    def handle_endtag(self, tag):
        if tag == "pre":
            self._pre = False

    def handle_data(self, data):
        if self._pre:
            self.files[self._panel][self._file] += data


def _run(lang: str, **msg) -> dict:
    return json.loads(PAGES[lang].run(json.dumps(msg)))


def _shown(lang: str, raw: dict) -> _Files:
    answer = _run(lang, action="export", kind="estimator", raw=raw, fixed={}, imported={}, wid="w")
    assert answer["ok"], answer
    parsed = _Files()
    parsed.feed(answer["html"])
    return parsed


def _code_lines(text: str) -> list[str]:
    """A YAML's or script's lines without their comments (what the framework reads)."""
    return [re.sub(r"\s+#.*$", "", line) for line in text.splitlines() if not line.lstrip().startswith("#")]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_tab_shows_the_exporters_files_for_the_forms_state(lang):
    shown = _shown(lang, QLORA_RAW)
    assert shown.tabs == list(export.TARGETS)
    request = {**ESTIMATOR.state({}), "method": "qlora", "num_gpus": 2, "sharding": "fsdp", "seq_len": 4096}
    for target in export.TARGETS:
        try:
            plain = export.export(request, target)          # no wording: comments as codes
        except Exception:                                   # noqa: BLE001 - a refused setup has no files
            assert shown.files[target] == {}, target
            continue
        assert list(shown.files[target]) == list(plain.files), target
        for name, text in plain.files.items():
            # The same settings and values; only the comments are worded.
            assert _code_lines(shown.files[target][name]) == _code_lines(text), (target, name)


def test_the_comments_are_in_the_readers_language():
    request = {**ESTIMATOR.state({}), "method": "qlora", "num_gpus": 2, "sharding": "fsdp", "seq_len": 4096}
    trl = export.export(request, "trl")
    codes = {m.group(1) for text in trl.files.values() for m in re.finditer(r"#\s*([a-z_]+)\(", text)}
    code = next(c for c in sorted(codes) if c.startswith("why_"))      # a comment that says why a value is set
    for lang in LANGUAGES:
        words = STRINGS[lang]["run"]["comments"][code]
        fixed = max(re.split(r"\{[a-z_]+\}", words), key=len).strip()   # its longest run of words between values
        sft = _shown(lang, QLORA_RAW).files["trl"]["sft.yaml"]
        assert fixed and fixed in sft, (lang, fixed)
        assert f"{code}(" not in sft
    assert _shown("ar", QLORA_RAW).files["trl"]["sft.yaml"] != _shown("en", QLORA_RAW).files["trl"]["sft.yaml"]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_pasted_export_fills_the_form_with_its_setup(lang):
    request = {**ESTIMATOR.state({}), "method": "qlora", "num_gpus": 2, "sharding": "fsdp", "seq_len": 4096,
               "micro_batch_size": 2}
    exported = export.export(request, "trl")
    files = exported.files
    main = next(text for name, text in files.items() if name.endswith(".yaml") and "accelerate" not in name)
    pasted = {"main": main, "accelerate": files.get("accelerate.yaml", "")}
    answer = _run(lang, action="import", kind="estimator", files=pasted)
    assert answer["ok"], answer
    state = answer["state"]
    assert answer["target"] == "trl" and state["model"] == "llama-3.1-8b"
    for key in ("method", "num_gpus", "sharding", "seq_len", "micro_batch_size"):
        assert state[key] == exported.request[key], key     # the request after the export's adjustments
    assert not set(answer["imported"]) & set(ESTIMATOR.fields)
    # The state and the keys kept beside the form are a request the estimator takes, the export's own.
    again = api.answer({**state, **answer["imported"], "include": []})
    assert again["ok"], again
    # The export states what its files run (issue 38): the state is the export's own request.
    written = exported.request
    assert again["result"]["peak_bytes_per_gpu"] == api.answer({**written, "include": []})["result"][
        "peak_bytes_per_gpu"]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_contradictory_paste_is_refused_in_the_readers_words(lang):
    answer = _run(lang, action="import", kind="estimator",
                  files={"main": "model_name_or_path: meta-llama/Llama-3.1-8B\nbf16: true\nfp16: true\n"})
    assert answer["ok"] is False
    error = answer["errors"][0]
    assert error["code"] == "contradiction" and error["field"] == "import.main"
    assert STRINGS[lang]["run"]["errors"]["contradiction"] in error["message"] and "fp16" in error["message"]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_an_empty_or_broken_paste_says_why(lang):
    empty = _run(lang, action="import", kind="estimator", files={"main": "  \n", "accelerate": "num_processes: 2"})
    assert empty["errors"] == [{"code": "missing_field", "field": "import.main",
                                "message": STRINGS[lang]["run"]["import"]["empty"]}]
    broken = _run(lang, action="import", kind="estimator", files={"main": "a: [1, 2\n"})
    assert broken["errors"][0]["code"] == "invalid_yaml"
    assert STRINGS[lang]["run"]["errors"]["invalid_yaml"] in broken["errors"][0]["message"]
    huge = _run(lang, action="import", kind="estimator", files={"main": "a: 1\n" * (api.MAX_INPUT_CHARS // 4)})
    assert huge["errors"][0]["code"] == "too_large"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_refused_paste_brings_the_line_its_box_shows(lang):
    # calc.js puts `errors_html` under the box as it comes: each error's message in a span with its code
    for files in ({"main": "  \n"}, {"main": "a: [1, 2\n"},
                  {"main": "model_name_or_path: meta-llama/Llama-3.1-8B\nbf16: true\nfp16: true\n"}):
        answer = _run(lang, action="import", kind="estimator", files=files)
        assert answer["ok"] is False and answer["errors"]
        spans = re.findall(r'<span data-code="([a-z_]+)">(.*?) </span>', answer["errors_html"])
        assert spans == [(e["code"], e["message"]) for e in answer["errors"]]
        assert "".join(f'<span data-code="{c}">{m} </span>' for c, m in spans) == answer["errors_html"]


def test_keys_kept_beside_the_form_are_checked():
    page = PAGES["en"]
    for imported in ({"seq_len": 4096}, {"gpu": "h100-80gb"}, {"no_such_key": 1}, [1]):
        answer = json.loads(page.render(json.dumps({"kind": "estimator", "raw": {}, "fixed": {},
                                                    "imported": imported})))
        assert answer["ok"] is False and answer["errors"][0]["code"] == "unknown_key", imported
    broken = json.loads(page.run("{not json"))
    assert broken["ok"] is False and broken["errors"][0]["code"] == "invalid_json"      # its code, as a render says
    bad = _run("en", action="export", kind="estimator", raw={"seq_len": "x"}, fixed={}, imported={}, wid="w")
    assert [e["code"] for e in bad["errors"]] == ["wrong_type"]


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("message, code", [
    ({"action": "import", "kind": "nope"}, "unknown_value"),                   # the review's R11, three messages
    ({"action": "import", "kind": "estimator", "files": [1]}, "not_an_object"),
    ({"action": "export", "kind": "nope"}, "unknown_value"),
    ({"action": "import"}, "unknown_value"),
    ({"action": "export", "kind": "estimator", "raw": [1]}, "not_an_object"),
    ({"action": "import", "kind": "estimator", "files": "main: x"}, "not_an_object"),
    ([], "not_an_object"),
])
def test_a_malformed_run_message_is_answered_with_a_code_as_a_render_is(lang, message, code):
    """A caller other than the page script gets the codes ``Page.render`` gives for the same message, each with
    its message in the reader's language, never ``internal_error``."""
    answer = json.loads(PAGES[lang].run(json.dumps(message)))
    assert answer["ok"] is False and [e["code"] for e in answer["errors"]] == [code]
    assert answer["errors"][0]["message"] == STRINGS[lang]["errors"][code]
    if isinstance(message, dict) and message.get("action") == "export":
        render = json.loads(PAGES[lang].render(json.dumps(message)))
        assert [e["code"] for e in render["errors"]] == [code]


def _estimate_lines(html: str) -> dict[str, tuple[str, str]]:
    """Each tab's estimate line: {target: (its attributes, its text)}."""
    out = {}
    for m in re.finditer(r'<div[^>]*data-calc-tabpanel="([a-z]+)"(.*?)(?=<div[^>]*data-calc-tabpanel=|$)', html, re.S):
        line = re.search(r'<p class="calc-run__estimate"([^>]*)>(.*?)</p>', m.group(2), re.S)
        if line:
            out[m.group(1)] = (line.group(1), re.sub(r"<[^>]+>", "", line.group(2)))
    return out


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_tabs_estimate_is_the_one_its_framework_reaches_and_names_it(lang):
    """Beside each target's files: the peak its framework reaches running them, with the framework's name and
    version; where the files cannot express a key that changes the peak, the form's peak beside it."""
    from calculator import frameworks
    from calculator.page.text import fmt_bytes
    # The form's first framework (none, the plain stack: a bf16 base, the full logits; issue 42): TRL always computes
    # the loss through its fused output layer and Unsloth always quantizes twice, so their files reach another peak
    # than the form's; Axolotl and LLaMA-Factory write the form's setup as it is.
    raw = {"model": "llama-3.1-8b", "method": "qlora", "gpu": "rtx-4090"}
    answer = _run(lang, action="export", kind="estimator", raw=raw, fixed={}, imported={}, wid="w")
    assert answer["ok"], answer
    lines = _estimate_lines(answer["html"])
    assert sorted(lines) == sorted(export.TARGETS)
    request = ESTIMATOR.state(raw)
    form_peak = api.answer({**request, "include": []})["result"]["peak_bytes_per_gpu"]
    differs = set()
    for target, (attrs, text) in lines.items():
        reached = api.answer({**export.export(request, target).request, "include": []})["result"]
        assert f'data-framework="{target}"' in attrs and frameworks.get(target).version in text, (target, text)
        assert fmt_bytes(reached["peak_bytes_per_gpu"])[0] in text, (target, text)
        if reached["peak_bytes_per_gpu"] != form_peak:
            differs.add(target)
            assert "data-differs" in attrs and fmt_bytes(form_peak)[0] in text, (target, text)
        else:
            assert "data-differs" not in attrs, (target, text)
    assert differs == {"trl", "unsloth"}, differs


@pytest.mark.parametrize("lang, sep", [("ar", "، "), ("en", ", ")])
def test_the_versions_and_file_names_are_listed_with_the_languages_comma(lang, sep):
    """"Checked against trl 1.16.0, transformers 5.24.0, …" and an article's "Ready files for TRL: sft.yaml, …" put
    Latin commas inside the Arabic sentence when each list was one left-to-right run. Each package with its version,
    and each file name, is its own run; the commas between them are the language's own (as the assumptions' LoRA
    targets, test_page_wording)."""
    from calculator import frameworks
    from calculator.page.run import config_block
    from calculator.page.text import plain_text

    answer = _run(lang, action="export", kind="estimator", raw=QLORA_RAW, fixed={}, imported={}, wid="w")
    assert answer["ok"], answer
    stacks = re.findall(r'<p class="calc-run__stack">(.*?)</p>', answer["html"])
    tabs = _shown(lang, QLORA_RAW).tabs
    assert sorted(tabs) == sorted(export.TARGETS) and len(stacks) == len(tabs), (tabs, stacks)
    for target, html in zip(tabs, stacks):
        packages = [f"{p} {v}" for p, v in frameworks.get(target).stack.items()]
        assert len(packages) > 1, target
        assert re.findall(r'<bdi dir="ltr">([^<]*)</bdi>', html) == packages, html
        assert sep.join(packages) in plain_text(html), html
    request = {"model": "llama-3.1-8b", "method": "qlora", "num_gpus": 2, "sharding": "fsdp", "seq_len": 4096}
    block = str(config_block(PAGES[lang].s, "c", request, "trl"))
    summary = re.search(r"<summary>(.*?)</summary>", block).group(1)
    names = list(export.export(request, "trl").files)
    assert len(names) > 1, names
    assert [n for n in re.findall(r'<bdi dir="ltr">([^<]*)</bdi>', summary) if n in names] == names, summary
    assert sep.join(names) in plain_text(summary), summary
    if lang == "ar":
        assert "," not in plain_text(summary).split(":", 1)[-1], summary
