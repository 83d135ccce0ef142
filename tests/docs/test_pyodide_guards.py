"""The page's Python in the runtime the page runs it in (issue 36, the reliability review's R2 and R3): the bundled
Pyodide under Node (``pyodide_run.mjs``), with the estimator's sources and ruamel.yaml's as this checkout has them.

In WebAssembly the JSON decoder's recursion overflows the JavaScript stack before Python's recursion limit can
raise: a pasted config.json nested 10,000 deep was a fatal error of the runtime, and every later request of the
page failed with it. Every deep text is now refused as ``too_large`` before a decoder sees it, and the runtime
answers the next request. A merge-key bomb pasted into the import box is refused as it is composed, instead of
holding the page's only worker for minutes."""
from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from sitebuild.runtime import PYODIDE_DIR
from sitebuild.strings import calc_strings

pytestmark = pytest.mark.docs
ROOT = Path(__file__).resolve().parents[2]
RUNNER = Path(__file__).with_name("pyodide_run.mjs")

SETUP = """
import json
from calculator import api
from calculator.page import Page
P = Page(open('/home/pyodide/strings.json', encoding='utf-8').read(), 'en')

def codes(answer):
    answer = json.loads(answer)
    if answer.get('ok'):
        return 'ok'
    return [[e.get('field'), e.get('code')] for e in answer.get('errors') or [answer.get('error')]]

def render(raw):
    return codes(P.render(json.dumps({'kind': 'estimator', 'raw': {'gpu': 'rtx-4090', **raw}, 'fixed': {}})))

def paste(text):
    return render({'model': {'source': 'paste', 'value': text}})

def imported(files):
    return codes(P.run(json.dumps({'action': 'import', 'kind': 'estimator', 'files': files})))
'ready'
"""
AXO = "base_model: meta-llama/Llama-3.1-8B\\nmicro_batch_size: 2\\n"
MERGE_BOMB = ("'m0: &m0 {' + ', '.join(f'k{i}: {i}' for i in range(500)) + '}\\n' + ''.join("
              "f'm{i}: &m{i} {{<<: [*m{i - 1}, *m{i - 1}, *m{i - 1}], z{i}: 1}}\\n' for i in range(1, 10))")
TINY = json.dumps({"hidden_size": 64, "num_hidden_layers": 2, "num_attention_heads": 4, "vocab_size": 100,
                   "intermediate_size": 256})

#: (what, Python expression run in Pyodide, its answer). Each deep text goes through one path the page reads JSON by.
CASES = [
    ("paste 3,000 deep", "json.dumps(paste('[' * 3000 + ']' * 3000))", [["model", "too_large"]]),
    ("paste 10,000 deep", "json.dumps(paste('[' * 10000 + ']' * 10000))", [["model", "too_large"]]),
    ("paste 39,999 open objects", "json.dumps(paste('{\"a\":' * 39999))", [["model", "too_large"]]),
    ("render message 1,599,990 deep", "json.dumps(codes(P.render('[' * 1599990)))", [[None, "too_large"]]),
    ("run message 10,000 deep", "json.dumps(codes(P.run('[' * 10000 + ']' * 10000)))", [[None, "too_large"]]),
    ("search message 10,000 deep", "json.dumps(json.loads(P.search('[' * 10000))['ok'])", False),
    ("API request 10,000 deep", "json.dumps(codes(api.answer_text('{\"model\": ' + '[' * 10000 + ']' * 10000 + '}')))",
     [[None, "too_large"]]),
    ("DeepSpeed JSON 10,000 deep in the import box",
     f"json.dumps(imported({{'main': '{AXO}', 'deepspeed': '[' * 10000 + ']' * 10000}}))",
     [["import.main", "too_large"]]),
    ("merge-key bomb, 10 levels, in the import box", f"json.dumps(imported({{'main': '{AXO}' + {MERGE_BOMB}}}))",
     [["import.main", "too_large"]]),
    ("the next request", "json.dumps(render({}))", "ok"),
    ("the next paste", f"json.dumps(paste({TINY!r}))", "ok"),
]


def _sources() -> dict[str, str]:
    import ruamel.yaml

    files = {p.relative_to(ROOT).as_posix(): p.read_text(encoding="utf-8")
             for p in (ROOT / "calculator").rglob("*.py") if "__pycache__" not in p.parts}
    ruamel = Path(ruamel.yaml.__file__).parent            # pure Python, as the page's wheel carries it
    files.update({f"ruamel/yaml/{p.relative_to(ruamel).as_posix()}": p.read_text(encoding="utf-8")
                  for p in ruamel.rglob("*.py") if "__pycache__" not in p.parts})
    files["strings.json"] = json.dumps(calc_strings("en"))
    return files


def test_deep_json_and_yaml_bombs_leave_the_page_runtime_answering() -> None:
    node = shutil.which("node")
    assert node is not None and (PYODIDE_DIR / "pyodide.mjs").is_file(), "needs Node and node_modules/pyodide"
    request = {"pyodide": str(PYODIDE_DIR), "files": _sources(), "steps": [SETUP] + [code for _, code, _ in CASES]}
    proc = subprocess.run([node, str(RUNNER)], input=json.dumps(request), capture_output=True, text=True,
                          timeout=600)
    assert proc.returncode == 0, proc.stderr[-2000:]
    setup, *steps = json.loads(proc.stdout)
    assert setup == {"ok": True, "value": "ready", "ms": setup["ms"]}, setup
    wrong = [(what, step.get("error") or json.loads(step["value"]))
             for (what, _, expected), step in zip(CASES, steps, strict=True)
             if not step["ok"] or json.loads(step["value"]) != expected]
    assert not wrong, wrong
