"""A new memory component, a new kind of value, a new kind of config field, a new widget kind and a new static marker
are each one entry in their one registry (vocab.COMPONENTS, inputs.VALUE_KINDS, configs.FIELD_KINDS,
page.WIDGET_KINDS, sitebuild.markers.STATIC_MARKERS) plus their strings: every reader goes through the
registry, so each one either shows the newcomer or fails naming exactly what it lacks (its string, its colour, its
control, a method of its class)."""
from __future__ import annotations

import json
from dataclasses import replace

import pytest
from mkdocs.exceptions import PluginError

from calculator import api, configs, memory, vocab
from calculator.__main__ import build_parser, english, render
from calculator.errors import InputError, StringMissing
from calculator.inputs import InputSpec
from calculator.page import WIDGET_KINDS, Page, WidgetKind, render_widget
from calculator.page import form as page_form
from calculator.page.figures import figure_html
from calculator.page.pieces import describe_assumptions
from calculator.page.text import Strings, el
from calculator.inputs import VALUE_KINDS
from calculator.values import BoolKind, Phrase, ValueKind
from sitebuild import cms, markers
from sitebuild.calc_assets import missing_styles
from sitebuild.strings import calc_strings, check_calc_strings, required_calc_strings

pytestmark = pytest.mark.unit

FAKE = "fake_cache"          # a memory component
REQUEST = {"model": "llama-3.1-8b", "gpu": "h100-80gb", "include": []}


def _strings_with(lang: str, path: str, text: str) -> Strings:
    table = json.loads(json.dumps(calc_strings(lang)))
    node = table
    *parents, leaf = path.split(".")
    for part in parents:
        node = node.setdefault(part, {})
    node[leaf] = text
    return Strings(table, lang)


# ---------------------------------------------------------------------------------------------------------------
# A memory component: one entry in vocab.COMPONENTS, its formula, two strings, one colour
# ---------------------------------------------------------------------------------------------------------------
@pytest.fixture
def component(monkeypatch):
    monkeypatch.setattr(vocab, "COMPONENTS", (*vocab.COMPONENTS[:-2], FAKE, *vocab.COMPONENTS[-2:]))
    phases = memory._phase_components

    def with_formula(s, t):                      # its formula: 1 GB alive in every phase
        return {ph: {**parts, FAKE: 1e9} for ph, parts in phases(s, t).items()}

    monkeypatch.setattr(memory, "_phase_components", with_formula)
    memory_answers = api.answer(REQUEST)
    assert memory_answers["ok"], memory_answers
    return memory_answers["result"]


def test_a_new_component_is_in_every_breakdown_in_the_vocabulary_order(component):
    assert list(component["breakdown_bytes"]) == list(vocab.COMPONENTS)
    assert component["breakdown_bytes"][FAKE] == 10**9
    assert sum(component["breakdown_bytes"].values()) == component["peak_bytes_per_gpu"]


def test_a_new_component_needs_its_strings_its_colour_and_is_shown_everywhere(component):
    assert f"components.{FAKE}" in required_calc_strings()
    with pytest.raises(PluginError, match=f"components.{FAKE}"):
        check_calc_strings()                                     # the build fails naming the missing string
    assert missing_styles() == [f".calc-c--{FAKE}"]              # the CSS check names the missing colour
    with pytest.raises(StringMissing, match=f"calc.components.{FAKE}"):
        render(component, english())                             # the CLI lacks its label
    assert "Fake cache" in render(component, _strings_with("en", f"components.{FAKE}", "Fake cache"))
    s = _strings_with("ar", f"components.{FAKE}", "ذاكرة تجريبية")
    with pytest.raises(StringMissing, match=f"calc.components.{FAKE}"):
        render_widget(Strings(calc_strings("ar"), "ar"), "estimator", "w", WIDGET_KINDS["estimator"].state({}), {})
    html = render_widget(s, "estimator", "w", WIDGET_KINDS["estimator"].state({}), {})
    assert f"calc-c--{FAKE}" in html and "ذاكرة تجريبية" in html  # its bar segment and its legend entry
    assert 'data-calc-out="fake_cache"' in figure_html(s, FAKE, component)   # an inline figure of the articles


# ---------------------------------------------------------------------------------------------------------------
# A kind of value: one ValueKind class in inputs.VALUE_KINDS, its wrong-type message in both tables
# ---------------------------------------------------------------------------------------------------------------
class YesNoKind(BoolKind):
    """A flag written "yes" / "no" (the test's new kind, routed to the key dpo)."""

    name = "yesno"
    control = "yesno_switch"

    def check(self, spec, value):
        if value not in ("yes", "no"):
            raise InputError("wrong_type", spec.name)
        return value == "yes"

    def from_text(self, spec, text):
        return text

    def cli_argument(self, spec, help_text):
        return {"choices": ("yes", "no"), "help": help_text}

    def cms_field(self, spec):
        return {"widget": "select", "options": ["yes", "no"]}

    def describe(self, spec, value):
        return Phrase(text=f"yes-or-no {value}")


@pytest.fixture
def yesno(monkeypatch):
    kind = YesNoKind()
    monkeypatch.setitem(VALUE_KINDS, kind.name, kind)
    real = InputSpec.value_kind
    monkeypatch.setattr(InputSpec, "value_kind", property(lambda spec: kind if spec.name == "dpo" else real.fget(spec)))
    return kind


def test_a_class_that_leaves_out_a_behaviour_cannot_be_made():
    class NoCmsField(ValueKind):           # checks, reads text, has a flag and a phrase, but no CMS field
        name = "half"
        check = YesNoKind.check
        from_text = YesNoKind.from_text
        cli_argument = YesNoKind.cli_argument
        describe = YesNoKind.describe

    with pytest.raises(TypeError, match="cms_field"):
        NoCmsField()


def test_every_reader_of_a_value_goes_through_its_kind(yesno):
    # the API checks it with the kind's check, and names the kind in its refusal
    assert api.answer({**REQUEST, "dpo": "yes"})["result"]["inputs"]["dpo"] is True
    assert api.answer({**REQUEST, "dpo": True})["error"] == {"code": "wrong_type", "field": "dpo"}
    # the string check wants its wrong-type message; the page's message names the kind
    assert "errors.wrong_type.yesno" in required_calc_strings()
    with pytest.raises(PluginError, match="errors.wrong_type.yesno"):
        check_calc_strings()
    from calculator.page.messages import message_for
    s = _strings_with("en", "errors.wrong_type.yesno", "Write yes or no.")
    assert str(message_for(s, "wrong_type", "dpo")) == "Write yes or no."
    # the CLI's flag, the markers' text, the CMS field and the assumption sentence are the kind's
    assert build_parser().parse_args(["--dpo", "yes"]).dpo == "yes"
    assert markers.coerce("dpo", "yes") == "yes"
    assert cms.calc_fields(["dpo"], {})[0] == {"name": "dpo", "label": "dpo", "widget": "select", "options": ["yes", "no"]}
    assert "yes-or-no yes" in describe_assumptions(s, {"dpo": "yes"})
    # the form draws the control the kind names, and says when there is none
    with pytest.raises(TypeError, match="yesno_switch"):
        page_form.control(s, "w", "dpo", "no")
    page_form.CONTROLS["yesno_switch"] = lambda s, wid, spec, value, label, help_text: el(
        "select", {"data-calc-field": spec.name}, label)
    try:
        assert 'data-calc-field="dpo"' in page_form.control(s, "w", "dpo", "no")
    finally:
        del page_form.CONTROLS["yesno_switch"]


# ---------------------------------------------------------------------------------------------------------------
# A kind of config field: one class in configs.FIELD_KINDS, its wrong-type message in both tables
# ---------------------------------------------------------------------------------------------------------------
class HalvesField(configs.IntField):
    """A config field written in halves: 7 in the config is 3.5 layers' worth (a made-up kind)."""

    name, control, message = "halves", "halves_slider", "model_halves"

    def read(self, r, name, default=None, required=False):
        v = super().read(r, name, default, required)
        return v if v is None else v // 2

    def shown(self, value):
        return f"{value} x2"


@pytest.fixture
def halves(monkeypatch):
    kind = HalvesField()
    monkeypatch.setitem(configs.FIELD_KINDS, kind.name, kind)
    real = configs.ModelField.field_kind
    monkeypatch.setattr(configs.ModelField, "field_kind",
                        property(lambda f: kind if f.name == "norms_per_layer" else real.fget(f)))
    return kind


def test_every_reader_of_a_config_field_goes_through_its_kind(halves):
    with pytest.raises(TypeError, match="read"):         # a kind that cannot read a config cannot be made
        type("Unread", (configs.FieldKind,), {"name": "unread"})()
    # the config reader reads it with the kind's read
    config = {**configs.model_json(api.MODELS["llama-3.1-8b"]), "norms_per_layer": 8}
    assert configs.parse_model(config).norms_per_layer == 4
    # the string check wants its wrong-type message; the page's message names the kind
    assert "errors.wrong_type.model_halves" in required_calc_strings()
    with pytest.raises(PluginError, match="errors.wrong_type.model_halves"):
        check_calc_strings()
    from calculator.page.messages import message_for
    s = _strings_with("en", "errors.wrong_type.model_halves", "Write a number of halves.")
    assert str(message_for(s, "wrong_type", "model.norms_per_layer")).startswith("Write a number of halves. (")
    # the form shows the value as the kind does and draws the control the kind names
    assert page_form.custom_values({"norms_per_layer": 2})["norms_per_layer"] == "2 x2"
    with pytest.raises(KeyError, match="halves_slider"):
        page_form._custom_field(s, "w", configs.ModelField("norms_per_layer"), 2)
    page_form.CUSTOM_CONTROLS["halves_slider"] = lambda s, wid, field, key, value, label, help_text: el(
        "input", {"type": "range", "data-calc-field": key})
    try:
        html = str(page_form._custom_field(s, "w", configs.ModelField("norms_per_layer"), 2))
        assert 'type="range"' in html and 'data-calc-field="model.norms_per_layer"' in html
    finally:
        del page_form.CUSTOM_CONTROLS["halves_slider"]


# ---------------------------------------------------------------------------------------------------------------
# A widget kind: one module with its WidgetKind in page.WIDGET_KINDS, its title in both tables
# ---------------------------------------------------------------------------------------------------------------
@pytest.fixture
def tiny(monkeypatch):
    kind = WidgetKind("tiny", ("model", "gpu"), {"model": "llama-3.2-1b", "gpu": "rtx-4090"},
                      requests=lambda q: [{**q, "include": []}],
                      results=lambda s, results, state: el("p", {"data-tiny": results[0]["peak_bytes_per_gpu"]}))
    monkeypatch.setitem(WIDGET_KINDS, "tiny", kind)
    return kind


def test_a_new_widget_kind_is_read_by_markers_strings_build_and_worker(tiny):
    assert markers.parse("tiny model=llama-2-7b", "x").kind == "tiny"
    assert "title.tiny" in required_calc_strings()
    with pytest.raises(PluginError, match="title.tiny"):
        check_calc_strings()
    en = Strings(calc_strings("en"), "en")
    with pytest.raises(StringMissing, match="calc.title.tiny"):
        render_widget(en, "tiny", "calc-tiny-1", tiny.state({}), {})
    s = _strings_with("en", "title.tiny", "Tiny")
    html = render_widget(s, "tiny", "calc-tiny-1", tiny.state({}), {})
    assert 'data-calc-kind="tiny"' in html and "data-tiny=" in html and 'data-calc-field="gpu"' in html   # its form
    answer = json.loads(Page(json.dumps(calc_strings("en")), "en").render(json.dumps(
        {"kind": "tiny", "raw": {"model": "llama-3.2-1b", "gpu": "l4"}, "fixed": {}})))
    assert answer["ok"] and "data-tiny=" in answer["html"] and answer["state"]["gpu"] == "l4"
    assert replace(tiny, defaults={}).state({})["gpu"] is None          # the API's default under its own


# ---------------------------------------------------------------------------------------------------------------
# A static marker: one class in sitebuild.markers.STATIC_MARKERS
# ---------------------------------------------------------------------------------------------------------------
class BadgeMarker(markers.StaticMarker):
    """``calc:badge text=… [request keys]``: a made-up marker the build fills in, placed with the widgets."""

    name = "badge"
    options = frozenset({"text"})
    with_widgets = True

    def check(self, options, where):
        if "text" not in options:
            raise PluginError(f"{where}: calc:badge needs text=")

    def render(self, s, marker, article, where, slot):
        return str(el("b", {"id": slot, "data-model": marker.attrs.get("model", "")}, marker.options["text"]))


def test_a_new_static_marker_is_read_by_the_parser_and_placed_by_the_plugin(monkeypatch):
    from tests.unit.test_markers import _plugin_on_an_article

    with pytest.raises(PluginError, match="unknown calculator marker 'calc:badge'"):
        markers.parse("badge text=hi", "x")
    monkeypatch.setitem(markers.STATIC_MARKERS, "badge", BadgeMarker())
    m = markers.parse("badge text=hi model=llama-2-7b", "x")
    assert (m.kind, m.options, m.attrs) == ("badge", {"text": "hi"}, {"model": "llama-2-7b"})
    with pytest.raises(PluginError, match="needs text="):
        markers.parse("badge model=llama-2-7b", "x")
    with pytest.raises(PluginError, match="unknown attribute 'out'"):
        markers.parse("badge text=hi out=peak", "x")
    plugin, page, config = _plugin_on_an_article()
    html = plugin.on_page_content("<p><!-- calc:badge text=hi model=llama-2-7b --></p>", page=page, config=config,
                                  files=None)
    assert "<b" not in html and "calc-badge-1" in html                # its slot now, its markup with the widgets
    assert plugin.pages[("en", page.url)].widgets["calc-badge-1"] == '<b id="calc-badge-1" data-model="llama-2-7b">hi</b>'
