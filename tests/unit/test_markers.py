"""The calculator markers of a page: parsed by sitebuild.markers, drawn by calculator.page.articles, and placed by the
MkDocs plugin (sitebuild/plugin.py), which fails the build on anything it cannot honour."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from mkdocs.exceptions import PluginError

from calculator import api
from calculator.page.text import Strings
from sitebuild import articles, markers
from sitebuild.strings import calc_strings
from tests.lazy import OnFirstUse

pytestmark = pytest.mark.unit
ROOT = Path(__file__).resolve().parents[2]
S = OnFirstUse(("en",), lambda lang: Strings(calc_strings(lang), lang))   # read by the tests, not at import


def test_markers_parse_request_keys_by_their_kind():
    m = markers.parse(" estimator model=llama-2-7b method=full dpo=true seq_len=4096 ", "x")
    assert (m.kind, m.name, m.attrs) == ("estimator", None, {"model": "llama-2-7b", "method": "full", "dpo": True,
                                                             "seq_len": 4096})
    m = markers.parse("table needs-by-size method=qlora precision=mixed", "x")
    assert (m.kind, m.name, m.options, m.attrs) == ("table", "needs-by-size", {"method": "qlora"},
                                                    {"precision": "mixed"})
    m = markers.parse("value out=peak unit=gib digits=1 lora_dropout=0.1 lora_targets=q_proj,v_proj", "x")
    assert m.options == {"out": "peak", "unit": "gib", "digits": 1}
    assert m.attrs == {"lora_dropout": 0.1, "lora_targets": ["q_proj", "v_proj"]}


@pytest.mark.parametrize("bad", ["estimatr", "estimator colour=red", "compare model", "table", "table nope",
                                 "table gpu-classes method=full", "seqlen model=a model=b", "estimator model=<b>",
                                 "", "value model=llama-2-7b", "assumptions seq_len=1", "estimator include=x"])
def test_bad_markers_fail_the_build(bad):
    with pytest.raises(PluginError):
        markers.parse(bad, "x")


def test_find_reports_markers_in_order_and_refuses_malformed_ones():
    html = ('<p>Peak <!-- calc:value out=peak model=llama-2-7b --> here.</p>\n<p><!-- calc:estimator --></p>'
            '<pre><code>&lt;!-- calc:estimator --&gt;</code></pre>')
    found = markers.find(html, "x")
    assert [(m.kind, m.inline) for _match, m in found] == [("value", True), ("estimator", False)]
    for bad in ("<!-- calc:nope -->", "<!--calc estimator-->", "<p><!-- calc:fits gpu=rtx-4090 extra=1 --></p>"):
        with pytest.raises(PluginError):
            markers.find(bad, "x")


def test_front_matter_assumptions_are_request_keys():
    assert markers.front_matter({"calc": {"seq_len": 4096, "precision": "bf16"}}, "x") == {"seq_len": 4096,
                                                                                          "precision": "bf16"}
    with pytest.raises(PluginError):
        markers.front_matter({"calc": {"colour": "red"}}, "x")


def test_an_inline_figure_is_the_estimators_number_with_its_raw_value():
    en = S["en"]
    request = {"model": "llama-2-7b", "method": "full", "precision": "mixed", "gpu": "h100-80gb"}
    r = api.answer({**request, "include": []})["result"]
    html = articles.render_value(S["en"], markers.parse("value out=peak", "x"), request, "x")
    assert f'data-calc-value="{r["peak_bytes_per_gpu"]}"' in html
    assert re.search(rf'>{round(r["peak_bytes_per_gpu"] / 1e9)} GB<', html)
    share = articles.render_value(en, markers.parse("value out=share", "x"), request, "x")
    assert f'data-calc-value="{r["gpu"]["share_of_memory"]}"' in share
    verdict = articles.render_value(en, markers.parse("value out=verdict", "x"), request, "x")
    assert en.get(f"verdict.{r['gpu']['verdict']}") in verdict
    # bytes per parameter of the model state: ~16 under mixed precision with fp32 AdamW, ~8 in pure bf16
    mixed = articles.render_value(en, markers.parse("value out=bytes_per_param optimizer=adamw_torch_fused", "x"),
                                  request, "x")
    bf16 = articles.render_value(en, markers.parse("value out=bytes_per_param optimizer=adamw_torch_fused "
                                                  "precision=bf16", "x"), request, "x")
    value = lambda h: float(re.search(r'data-calc-value="([0-9.]+)"', h).group(1))  # noqa: E731
    assert 15.5 < value(mixed) < 17 and 7.5 < value(bf16) < 8.5
    for bad in ("value out=nope", "value out=verdict gpu=", "value out=peak unit=kb"):
        with pytest.raises(PluginError):
            articles.render_value(en, markers.parse(bad, "x") if "gpu=" not in bad else
                                  markers.Marker("value", None, {}, {"out": "verdict"}), {"model": "llama-2-7b"}, "x")


def _plugin_on_an_article():
    """The calc plugin with a stand-in bundle, an English article page whose front matter sets seq_len, its config."""
    from sitebuild.plugin import CalcPlugin, _Bundle

    plugin = CalcPlugin()

    class Page:
        url = "articles/x/"
        meta = {"calc": {"seq_len": 1024}}

        class file:
            src_uri = "articles/x.md"

    class Config:
        theme = {"language": "en"}

    plugin.bundle = _Bundle(wheel=Path("calculator-0-py3-none-any.whl"),
                            wheel_rel="assets/calc/wheel/0/calculator-0-py3-none-any.whl",
                            pyodide_rel="assets/pyodide/0/", runtime_bytes=1)
    return plugin, Page, Config


def test_the_plugin_places_figures_now_and_widgets_after_the_search_index():
    plugin, Page, Config = _plugin_on_an_article()
    content = plugin.on_page_content("<p>It needs <!-- calc:value out=peak model=llama-2-7b -->.</p>\n"
                                     "<!-- calc:seqlen model=llama-3.1-8b method=qlora -->", page=Page, config=Config,
                                     files=None)
    assert 'class="calc-value"' in content                # article text: searchable
    assert "data-calc-kind" not in content                # not yet: the search index reads the content first
    html = plugin.on_post_page(f"<html><head></head><body>{content}</body></html>", page=Page, config=Config)
    assert 'data-calc-kind="seqlen"' in html and 'id="calc-seqlen-1"' in html
    assert 'id="calc-runtime"' in html.split("</head>")[0]
    with pytest.raises(PluginError):
        plugin.on_page_content("<!-- calc:estimator seq_len=0 -->", page=Page, config=Config, files=None)


def test_a_config_marker_shows_the_exporters_files_for_its_setup():
    """``calc:config target=…``: the worked example's ready files, the exporter's own for the marker's setup over
    the article's assumptions, worded in the page's language; placed with the widgets (out of the search index)."""
    from calculator import export
    from calculator.page.run import comment_table
    m = markers.parse("config target=trl model=llama-2-70b method=qlora num_gpus=2 sharding=fsdp", "x")
    assert (m.kind, m.options, m.attrs["num_gpus"]) == ("config", {"target": "trl"}, 2)
    for bad in ("config model=llama-2-7b", "config target=nope model=llama-2-7b"):
        with pytest.raises(PluginError):
            markers.parse(bad, "x")
    with pytest.raises(PluginError, match="refused"):
        articles.render_config(S["en"], markers.parse("config target=trl model=llama-2-7b seq_len=0", "x"), {},
                               "x", "c")

    plugin, Page, Config = _plugin_on_an_article()
    content = plugin.on_page_content("<p><!-- calc:config target=trl model=llama-3.1-8b method=qlora --></p>",
                                     page=Page, config=Config, files=None)
    assert "sft.yaml" not in content
    html = plugin.on_post_page(f"<html><head></head><body>{content}</body></html>", page=Page, config=Config)
    assert 'id="calc-config-1"' in html and 'data-calc-config="trl"' in html
    e = export.export({"seq_len": 1024, "model": "llama-3.1-8b", "method": "qlora"}, "trl",
                      text=comment_table(S["en"]))
    import html as html_lib
    shown = [html_lib.unescape(t) for t in re.findall(r"<pre[^>]*><code>(.*?)</code></pre>", html, re.S)]
    assert len(shown) == len(e.files)
    for text, (name, want) in zip(shown, e.files.items()):
        # Every line the exporter writes, as it writes it, but the header (whose estimate is worded for the page).
        assert [x for x in text.splitlines() if not x.startswith("#")] == \
            [x for x in want.splitlines() if not x.startswith("#")], name
    assert "EDIT: your dataset" in shown[0]                 # the comments in the page's words
