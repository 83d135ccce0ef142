"""Issue 40, fetch on request: a model id the catalogue lacks is read from the Hugging Face Hub only when asked, along
one path (calculator/hub.py) that the page's button (Page.hub, calc.js hubGet) and the CLI's ``--fetch`` (urllib)
both follow; every outcome is a code with words in both languages, at the button or on the CLI's error line.
The Hub is never asked: the page's steps are fed fake replies, the CLI a local HTTP server standing in for it."""
from __future__ import annotations

import http.server
import json
import threading
import time

import pytest

from calculator import __main__ as cli, hub
from calculator.errors import HUB_ERRORS
from calculator.page import Page
from calculator.page.text import Strings, plain_text
from calculator.page.form import model_fieldset
from sitebuild.strings import calc_strings

pytestmark = pytest.mark.unit

REPO = "acme/Tiny-7B"
CONFIG = {"model_type": "llama", "hidden_size": 512, "num_hidden_layers": 4, "num_attention_heads": 8,
          "num_key_value_heads": 8, "intermediate_size": 1024, "vocab_size": 1000}


def _page(lang: str) -> Page:
    return Page(json.dumps(calc_strings(lang)), lang)


def _ok(obj) -> dict:
    return {"status": 200, "text": json.dumps(obj)}


def _run(typed: str, files: dict[str, dict]) -> tuple[dict, list[str]]:
    """hub.step driven to its end against a fake hub holding ``files`` ({url: reply}; absent: 404)."""
    replies: dict[str, dict] = {}
    asked = []
    for _ in range(5):
        nxt = hub.step(typed, replies)
        if "fetch" not in nxt:
            return nxt, asked
        asked.append(nxt["fetch"])
        replies[nxt["fetch"]] = files.get(nxt["fetch"], {"status": 404})
    raise AssertionError("hub.step asked more than 5 files")


def test_a_config_is_read_from_the_repositorys_main_branch():
    text = json.dumps(CONFIG)
    out, asked = _run(REPO, {f"https://huggingface.co/{REPO}/resolve/main/config.json": {"status": 200, "text": text}})
    assert asked == [f"https://huggingface.co/{REPO}/resolve/main/config.json"]
    assert out == {"config": text, "repo": REPO}


def test_an_address_typed_is_read_as_its_id():
    out, asked = _run(f"https://huggingface.co/{REPO}/tree/main", {})
    assert asked[0] == f"https://huggingface.co/{REPO}/resolve/main/config.json"


def test_an_adapter_is_read_through_its_base_model():
    base = "acme/Base-7B"
    files = {f"https://huggingface.co/{REPO}/resolve/main/adapter_config.json": _ok({"base_model_name_or_path": base}),
             f"https://huggingface.co/{base}/resolve/main/config.json": _ok(CONFIG)}
    out, asked = _run(REPO, files)
    assert [a.rsplit("/", 4)[1:] for a in asked] == [["Tiny-7B", "resolve", "main", "config.json"],
                                                     ["Tiny-7B", "resolve", "main", "adapter_config.json"],
                                                     ["Base-7B", "resolve", "main", "config.json"]]
    assert out["repo"] == base and json.loads(out["config"]) == CONFIG


def test_an_adapter_of_a_catalogue_model_picks_that_model_without_asking_further():
    files = {f"https://huggingface.co/{REPO}/resolve/main/adapter_config.json":
             _ok({"base_model_name_or_path": "Qwen/Qwen3-8B"})}
    out, asked = _run(REPO, files)
    assert out == {"model": "qwen3-8b", "repo": "Qwen/Qwen3-8B"} and len(asked) == 2


@pytest.mark.parametrize("reply, code", [
    ({"status": 401}, "gated"), ({"status": 403}, "gated"), ({"status": 500}, "status"),
    ({"error": "timeout"}, "timeout"), ({"error": "unreachable"}, "unreachable"), ({"error": "too_large"}, "too_large"),
    ({"status": 200, "text": "x" * (hub.MAX_BYTES + 1)}, "too_large"),
    ({"status": 200, "text": "<html>not json</html>"}, "not_json"), ({"status": 200, "text": "[1, 2]"}, "not_json"),
    ({"status": 200, "text": '{"hidden_size": NaN}'}, "not_json"),
    ({"status": 200, "text": "[" * 100 + "]" * 100}, "too_large"),      # the API's depth guard, as for a paste
    ("garbage", "unreachable"),
])
def test_every_way_the_hub_can_fail_is_a_code(reply, code):
    out, _ = _run(REPO, {f"https://huggingface.co/{REPO}/resolve/main/config.json": reply})
    assert out == {"error": code, "repo": REPO}


def test_a_repository_with_neither_file_is_not_found_and_an_adapter_without_a_base_is_named():
    assert _run(REPO, {})[0] == {"error": "not_found", "repo": REPO}
    files = {f"https://huggingface.co/{REPO}/resolve/main/adapter_config.json": _ok({"base_model_name_or_path": "../x"})}
    assert _run(REPO, files)[0] == {"error": "no_base", "repo": REPO}


@pytest.mark.parametrize("typed", ["Tiny-7B", "../etc/passwd", "acme/..", "acme/x y", "acme/x%2F..", "", "a/" + "b" * 200])
def test_only_ids_of_the_hubs_form_are_asked(typed):
    out, asked = _run(typed, {})
    assert asked == [] and out["error"] == "not_an_id"


@pytest.mark.parametrize("typed, offered", [
    ("acme/Tiny-7B", "acme/Tiny-7B"), ("https://huggingface.co/acme/Tiny-7B", "acme/Tiny-7B"),
    ("Qwen/Qwen3-8B", None), ("qwen/qwen3-8b", None),               # the catalogue's own
    ("Qwen/Qwen3-14B-FP8", None), ("Qwen/Qwen3-14B-AWQ", None),     # a derivative: resolved (or refused) already
    ("qwen3", None), ("Tiny-7B", None),                             # a word or a name without its owner: no button
])
def test_the_picker_offers_the_button_only_for_an_owner_name_id_the_catalogue_lacks(typed, offered):
    assert hub.fetchable(typed) == offered
    page = _page("en")
    answer = json.loads(page.search(json.dumps({"kind": "model", "text": typed})))
    assert answer["fetch"] == offered


def test_every_hub_code_has_words_in_both_languages_naming_the_repository():
    tables = {lang: _page(lang) for lang in ("en", "ar")}
    for code in HUB_ERRORS:
        said = {}
        for lang, page in tables.items():
            out = json.loads(page.hub(json.dumps({"repo": REPO, "replies": _fail_with(code)}))) \
                if code != "not_an_id" else json.loads(page.hub(json.dumps({"repo": "x y", "replies": {}})))
            assert out["ok"] is False and out["code"] == code, (lang, code, out)
            said[lang] = plain_text(out["message"])
            assert ("x y" if code == "not_an_id" else REPO) in said[lang]
        assert said["en"] != said["ar"]


def _fail_with(code: str) -> dict:
    first = f"https://huggingface.co/{REPO}/resolve/main/config.json"
    adapter = f"https://huggingface.co/{REPO}/resolve/main/adapter_config.json"
    return {"not_found": {first: {"status": 404}, adapter: {"status": 404}},
            "gated": {first: {"status": 401}}, "status": {first: {"status": 502}},
            "too_large": {first: {"error": "too_large"}}, "not_json": {first: {"status": 200, "text": "nope"}},
            "timeout": {first: {"error": "timeout"}}, "unreachable": {first: {"error": "unreachable"}},
            "no_base": {first: {"status": 404}, adapter: _ok({})}}[code]


def test_the_pages_steps_name_the_address_the_cap_and_what_was_read():
    page = _page("en")
    first = json.loads(page.hub(json.dumps({"repo": REPO, "replies": {}})))
    assert first["fetch"] == f"https://huggingface.co/{REPO}/resolve/main/config.json"
    assert first["max_bytes"] == hub.MAX_BYTES and first["timeout_ms"] == hub.TIMEOUT_S * 1000 and first["reading"]
    text = json.dumps(CONFIG)
    done = json.loads(page.hub(json.dumps({"repo": REPO, "replies": {first["fetch"]: {"status": 200, "text": text}}})))
    assert done["ok"] is True and done["controls"] == {"config": text, "model_source": "paste"} and REPO in plain_text(done["note"])
    assert json.loads(page.hub("not json"))["code"] == "internal_error"
    # an adapter of a catalogue model: that model is chosen, and the note names it
    adapter = {first["fetch"]: {"status": 404},
               f"https://huggingface.co/{REPO}/resolve/main/adapter_config.json":
               _ok({"base_model_name_or_path": "Qwen/Qwen3-8B", "r": 16})}
    base = json.loads(page.hub(json.dumps({"repo": REPO, "replies": adapter})))
    assert base["ok"] is True and base["controls"] == {"model": "qwen3-8b", "model_source": "preset"} and "Qwen/Qwen3-8B" in plain_text(base["note"])


def test_the_estimators_form_says_what_the_button_sends_before_it_is_pressed():
    for lang in ("en", "ar"):
        s = Strings(calc_strings(lang), lang)
        html = str(model_fieldset(s, "w1", {"model": "llama-3.1-8b"}, {}))
        block = html[html.index("data-calc-hub"):]
        assert 'hidden' in block.split(">", 1)[0]                     # shown by the picker only, never without script
        assert s.get("hub.button") in block and s.get("hub.sends") in block.replace("&#x27;", "'").replace("&#39;", "'")
        assert "huggingface.co" in s.get("hub.sends") and "IP" in s.get("hub.sends")


# ---------------------------------------------------------------------------------------------------------------
# The CLI: the local Hugging Face cache first, the Hub only with --fetch (a local server stands in for it)
# ---------------------------------------------------------------------------------------------------------------
class _FakeHub(http.server.BaseHTTPRequestHandler):
    routes: dict[str, tuple[int, bytes]] = {}
    asked: list[str] = []

    def do_GET(self):  # noqa: N802 - the http.server API
        self.asked.append(self.path)
        status, body = self.routes.get(self.path, (404, b"Entry not found"))
        if status == 0:                      # hang past the timeout
            time.sleep(1.0)
            status, body = 200, b"{}"
        try:
            self.send_response(status)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
        except OSError:
            pass

    def log_message(self, *args):
        pass


@pytest.fixture()
def fake_hub(monkeypatch, tmp_path):
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _FakeHub)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    monkeypatch.setattr(hub, "HUB", f"http://127.0.0.1:{server.server_address[1]}")
    monkeypatch.setattr(hub, "TIMEOUT_S", 0.3)
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "cache"))
    _FakeHub.routes, _FakeHub.asked = {}, []
    yield _FakeHub.routes
    server.shutdown()
    server.server_close()


def _cli(capsys, *args):
    code = cli.main(["--model", REPO, "--json", *args])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_cli_fetch_estimates_the_config_the_hub_gives(fake_hub, capsys):
    fake_hub[f"/{REPO}/resolve/main/config.json"] = (200, json.dumps(CONFIG).encode())
    code, out, err = _cli(capsys, "--fetch")
    assert code == 0, err
    assert _FakeHub.asked == [f"/{REPO}/resolve/main/config.json"]
    # estimated as the same config given with --config is: 4 layers of attention (4·512²) and MLP (3·512·1024), two
    # norms each, untied embeddings and a final norm
    assert json.loads(out)["result"]["params"] == 4 * (4 * 512 * 512 + 3 * 512 * 1024 + 2 * 512) + 2 * 1000 * 512 + 512


def test_cli_never_asks_the_hub_without_fetch(fake_hub, capsys):
    fake_hub[f"/{REPO}/resolve/main/config.json"] = (200, json.dumps(CONFIG).encode())
    code, _, err = _cli(capsys)
    assert code == 2 and "unknown_model" in err and "--fetch" in err and _FakeHub.asked == []


def test_cli_reads_the_local_cache_first(fake_hub, capsys, tmp_path):
    folder = tmp_path / "cache" / f"models--{REPO.replace('/', '--')}"
    (folder / "refs").mkdir(parents=True)
    (folder / "refs" / "main").write_text("abc123")
    (folder / "snapshots" / "abc123").mkdir(parents=True)
    (folder / "snapshots" / "abc123" / "config.json").write_text(json.dumps(CONFIG))
    code, out, err = _cli(capsys)
    assert code == 0, err
    assert _FakeHub.asked == []                                   # the cache answered: the Hub was never asked
    assert json.loads(out)["result"]["params"] == 4 * (4 * 512 * 512 + 3 * 512 * 1024 + 2 * 512) + 2 * 1000 * 512 + 512


@pytest.mark.parametrize("route, code, words", [
    (None, "not_found", "no config.json"),
    ((401, b"gated"), "gated", "gated or private"),
    ((200, b"x" * (hub.MAX_BYTES + 10)), "too_large", "too long"),
    ((200, b"<html>hello</html>"), "not_json", "not a JSON config"),
    ((0, b""), "timeout", "in time"),
])
def test_cli_fetch_says_why_the_hub_gave_no_config(fake_hub, capsys, route, code, words):
    if route is not None:
        fake_hub[f"/{REPO}/resolve/main/config.json"] = route
    status, _, err = _cli(capsys, "--fetch")
    assert status == 2
    assert err.startswith(f"error: {code} (model): ") and words in err and REPO in err


def test_cli_fetch_with_no_hub_at_all_is_unreachable(monkeypatch, capsys, tmp_path):
    monkeypatch.setattr(hub, "HUB", "http://127.0.0.1:9")        # the discard port: nothing listens
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path))
    status, _, err = _cli(capsys, "--fetch")
    assert status == 2 and err.startswith("error: unreachable (model): ")
