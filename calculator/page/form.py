"""The widgets' forms: every control, drawn from the key's spec (its kind of value says which control and which
choices), the estimator's model fieldset (a catalogue model, a custom architecture, a pasted config.json), and the
reading of what the reader typed (the page sends the controls' raw values; Python turns them into request values).

A control knows its key, never a widget kind: the kinds (``page/kinds/``) pass the keys they show.
"""
from __future__ import annotations

import json
import math

from typing import Any, Callable

from .. import api
from ..errors import InputError
from ..inputs import BY_NAME, DEFAULTS, InputSpec
from ..values import Option, Phrase, parse_number, plain_number
from .messages import FieldError
from .pieces import bounds_text
from .search import KINDS as PICKERS, entries as picker_entries, named as picker_named
from .text import Html, Strings, el, filled, fmt_int, join, ltr

__all__ = ["CONTROLS", "control", "compact_form", "model_fieldset", "custom_values", "read_form",
           "readings", "field_id", "picker", "picker_options", "MAX_FIELD_CHARS", "TRANSPORT_LIMITS", "when_attrs",
           "form_controls", "mirror_controls", "error_slots", "SOURCE_KEY"]

#: Longest value of any control but the paste box (a typed number, a custom field, a select's value): a longer one
#: is ``too_large`` on that control. The paste box takes the API's MAX_INPUT_CHARS.
MAX_FIELD_CHARS = 1_000
#: What calc.js may cut a value to before sending it (the build writes these into the page): one character beyond
#: each limit, so that what it cuts is still refused, as too long, next to its control.
TRANSPORT_LIMITS = {"text": api.MAX_INPUT_CHARS + 1, "field": MAX_FIELD_CHARS + 1}


#: The control that says where the estimator's model comes from (its radios: MODEL_SOURCES), the paste box's key and
#: the custom fields' prefix. The page script knows none of them: it reads and writes every control by its
#: ``data-calc-field`` and its kind of element, and ``read_form`` puts the model together from them.
SOURCE_KEY = "model_source"
MODEL_SOURCES = ("preset", "custom", "paste")
PASTE_KEY = "config"
CUSTOM_PREFIX = "model."


def field_id(wid: str, key: str) -> str:
    return f"{wid}-{key.replace('.', '-').replace('_', '-')}"


def _help_and_error(wid: str, key: str, help_text: Any) -> Html:
    """Under a control: its help, what Python says of its value (``Page.render``'s ``read``: a typed number as read,
    a framework's default the reader's value differs from), and its error box."""
    return join(el("p", {"class": "calc-field__help", "id": f"{field_id(wid, key)}-help"}, help_text),
                el("p", {"class": "calc-field__read", "id": f"{field_id(wid, key)}-read", "data-calc-read-for": key,
                         "hidden": True}),
                el("p", {"class": "calc-field__error", "id": f"{field_id(wid, key)}-error", "data-calc-error-for": key,
                         "role": "alert", "hidden": True}))


def _phrase_text(s: Strings, phrase: Phrase) -> str:
    """A phrase as plain text (an option's label, a group's)."""
    return s.get(phrase.key) if phrase.key is not None else str(phrase.text)


# ---------------------------------------------------------------------------------------------------------------
# The controls
# ---------------------------------------------------------------------------------------------------------------
def _number(s: Strings, wid: str, key: str, value: Any, label: Any, help_text: Any,
            bounds: tuple[float, float, bool] | None) -> Html:
    """A typed number (text, so that Arabic digits and separators can be typed; Python reads them)."""
    decimal = bounds is not None and not bounds[2]
    attrs = {"class": "calc-field__input", "id": field_id(wid, key), "type": "text",
             "inputmode": "decimal" if decimal else "numeric", "dir": "ltr",
             "spellcheck": "false", "autocomplete": "off", "data-calc-field": key,
             "value": "" if value is None else value,
             "aria-describedby": f"{field_id(wid, key)}-help {field_id(wid, key)}-read"}
    hint: Any = ""
    if bounds is not None:
        attrs.update({"data-min": bounds[0], "data-max": bounds[1]})
        lo, hi = bounds_text(*bounds)
        hint = join(" ", el("span", {"class": "calc-field__range"}, filled(s.get("fields.range"), {"min": lo, "max": hi})))
    return el("div", {"class": "calc-field", "data-calc-wrap": key},
              el("label", {"class": "calc-field__label", "for": field_id(wid, key)}, label), el("input", attrs),
              _help_and_error(wid, key, join(help_text, hint)))


def _checkbox(wid: str, key: str, value: bool, label: Any, help_text: Any) -> Html:
    return el("div", {"class": "calc-field calc-field--check", "data-calc-wrap": key},
              el("input", {"class": "calc-field__check", "id": field_id(wid, key), "type": "checkbox",
                           "data-calc-field": key, "checked": bool(value),
                           "aria-describedby": f"{field_id(wid, key)}-help {field_id(wid, key)}-read"}),
              el("label", {"class": "calc-field__label", "for": field_id(wid, key)}, label),
              _help_and_error(wid, key, help_text))


def _select(wid: str, key: str, label: Any, help_text: Any, options: Html, ltr_text: bool = False) -> Html:
    return el("div", {"class": "calc-field", "data-calc-wrap": key},
              el("label", {"class": "calc-field__label", "for": field_id(wid, key)}, label),
              el("select", {"class": "calc-field__input", "id": field_id(wid, key), "data-calc-field": key,
                            "dir": "ltr" if ltr_text else None,
                            "aria-describedby": f"{field_id(wid, key)}-help {field_id(wid, key)}-read"},
                 options),
              _help_and_error(wid, key, help_text))


def _options(s: Strings, options: list[Option], value: Any) -> Html:
    """The options of a drop-down, under their groups (in the order the groups first appear) when they have any."""
    def option(o: Option) -> Html:
        return el("option", {"value": o.value, "selected": o.value == value}, _phrase_text(s, o.label))
    if not any(o.group for o in options):
        return join(*[option(o) for o in options])
    groups: dict[Phrase, list[Option]] = {}
    for o in options:
        groups.setdefault(o.group, []).append(o)
    return join(*[el("optgroup", {"label": _phrase_text(s, group)}, [option(o) for o in members])
                  for group, members in groups.items()])


def _number_control(s: Strings, wid: str, spec: InputSpec, value: Any, label: Any, help_text: Any) -> Html:
    return _number(s, wid, spec.name, value, label, help_text, spec.value_kind.bounds(spec))


def _checkbox_control(s: Strings, wid: str, spec: InputSpec, value: Any, label: Any, help_text: Any) -> Html:
    return _checkbox(wid, spec.name, value, label, help_text)


def _select_control(s: Strings, wid: str, spec: InputSpec, value: Any, label: Any, help_text: Any) -> Html:
    kind = spec.value_kind
    return _select(wid, spec.name, label, help_text, _options(s, kind.options(spec), value), ltr_text=kind.ltr_options)


def _modules_control(s: Strings, wid: str, spec: InputSpec, value: Any, label: Any, help_text: Any) -> Html:
    """One checkbox per LoRA module."""
    key = spec.name
    boxes = [el("label", {"class": "calc-targets__item"},
                el("input", {"type": "checkbox", "value": o.value, "data-calc-field": key, "data-calc-multi": True,
                             "checked": o.value in value}),
                " ", ltr(el("code", {}, o.value)))
             for o in spec.value_kind.options(spec)]
    return el("fieldset", {"class": "calc-field calc-field--targets", "data-calc-wrap": key,
                           "aria-describedby": f"{field_id(wid, key)}-help {field_id(wid, key)}-read"},
              el("legend", {"class": "calc-field__label"}, label),
              el("div", {"class": "calc-targets"}, boxes), _help_and_error(wid, key, help_text))


#: One renderer per form control (inputs.CONTROLS): the key's kind of value names the one that edits it.
CONTROLS: dict[str, Callable[..., Html]] = {"checkbox": _checkbox_control, "number": _number_control,
                                            "select": _select_control, "modules": _modules_control}


def control(s: Strings, wid: str, key: str, value: Any) -> Html:
    """The form control of one request key, with its label and help from the string table."""
    spec = BY_NAME[key]
    name = spec.value_kind.control
    if name not in CONTROLS:
        raise TypeError(f"{key}: its kind of value ({spec.kind}) names no control of page/form.py CONTROLS: {name!r}")
    drawn = CONTROLS[name](s, wid, spec, value, s.get(f"fields.{key}.label"), s.get(f"fields.{key}.help"))
    return join(picker(s, wid, key, value), drawn) if key in PICKERS else drawn


def picker(s: Strings, wid: str, key: str, value: Any) -> Html:
    """The search box of the model or card drop-down: the WAI-ARIA APG "editable combobox with list autocomplete"
    (a text input with ``role=combobox``, ``aria-expanded``, ``aria-controls`` and ``aria-activedescendant`` on a
    ``role=listbox`` whose options are grouped by family or card class in ``role=group`` elements). The drop-down
    beside it stays the value the widget reads (and the control without JavaScript, so the picker is ``hidden``
    until the page script shows it). The listbox is empty in the page (the catalogue twice per widget would weigh
    on every article): the worker fills it on the first search (``Page.search`` with ``listbox``: ``picker_options``)
    and answers each search with page/search.py's matches, which the script puts in that order."""
    fid = field_id(wid, f"{key}_picker")
    list_id = f"{fid}-listbox"
    return el("div", {"class": "calc-field calc-picker", "data-calc-picker": key, "hidden": True},
              el("label", {"class": "calc-field__label", "for": fid}, s.get(f"fields.{key}_picker.label")),
              el("div", {"class": "calc-picker__box"},
                 el("input", {"class": "calc-field__input calc-picker__input", "id": fid, "type": "text",
                              "role": "combobox", "aria-autocomplete": "list", "aria-expanded": "false",
                              "aria-controls": list_id, "spellcheck": "false", "autocomplete": "off",
                              "data-calc-control": f"{key}_picker", "aria-describedby": f"{fid}-help"}),
                 el("div", {"class": "calc-picker__list", "id": list_id, "role": "listbox",
                            "aria-label": s.get(f"search.listbox_{key}"), "tabindex": -1, "hidden": True})),
              el("p", {"class": "calc-picker__none", "data-calc-picker-none": True, "hidden": True},
                 s.get("search.none")),
              el("p", {"class": "calc-field__help", "id": f"{fid}-help"}, s.get(f"fields.{key}_picker.help")),
              el("p", {"class": "calc-sr-only", "role": "status", "data-calc-picker-status": True}))


def picker_options(s: Strings, list_id: str, key: str, value: Any = None, found: list[str] | None = None) -> Html:
    """A picker's listbox content: every entry of the catalogue once, under its group (family, card class), in the
    catalogue's order, or with ``found`` (a search's values, best first) those entries alone in that order, each
    group where its best entry ranks; option ids are the listbox's id and the value; ``value`` is marked selected."""
    chosen = list(picker_entries(s, key))
    if found is not None:
        rank = {v: i for i, v in enumerate(found)}
        chosen = sorted((e for e in chosen if e.value in rank), key=lambda e: rank[e.value])
    groups: dict[str, list[Any]] = {}
    for e in chosen:
        groups.setdefault(e.group, []).append(e)
    return join(*[el("div", {"class": "calc-picker__group", "role": "group", "aria-labelledby": f"{list_id}-g{i}"},
                     el("div", {"class": "calc-picker__group-label", "role": "presentation", "id": f"{list_id}-g{i}"},
                        group),
                     [el("div", {"class": "calc-picker__option", "role": "option", "id": f"{list_id}-{e.value}",
                                 "data-value": e.value, "aria-selected": "true" if e.value == value else "false"},
                         el("span", {"class": "calc-picker__name"}, e.label), " ",
                         el("span", {"class": "calc-picker__hint", "dir": "ltr"}, e.hint))
                      for e in members])
                  for i, (group, members) in enumerate(groups.items())])


def compact_form(s: Strings, wid: str, fields: tuple[str, ...], state: dict[str, Any]) -> Html:
    """The controls of ``fields`` in one grid (the compact widgets)."""
    return el("div", {"class": "calc-grid"}, [control(s, wid, key, state[key]) for key in fields])


def when_attrs(when: dict[str, tuple[str, ...]] | None, values: dict[str, Any]) -> dict[str, Any]:
    """The attributes of a part of the form shown only while each control named in ``when`` holds one of its values
    (``data-calc-when``: calc.js applies the rule on every change), hidden now if ``values`` do not meet it."""
    if not when:
        return {}
    return {"data-calc-when": json.dumps({k: list(v) for k, v in when.items()}, sort_keys=True, separators=(",", ":")),
            "hidden": not all(values.get(k) in v for k, v in when.items())}


# ---------------------------------------------------------------------------------------------------------------
# The model fieldset: a catalogue model, a custom architecture, a pasted config.json
# ---------------------------------------------------------------------------------------------------------------
def custom_values(model: dict[str, Any]) -> dict[str, Any]:
    """A result's ``model`` object as the custom fields show it (numbers and text as typed, flags as booleans; a
    field the config leaves unset is empty): each as its kind of field shows it (configs.FIELD_KINDS)."""
    return {f.name: f.field_kind.shown(model.get(f.name)) for f in api.MODEL_FIELDS}


def _custom_checkbox(s: Strings, wid: str, field: Any, key: str, value: Any, label: Any, help_text: Any) -> Html:
    return _checkbox(wid, key, value, label, help_text)


def _custom_select(s: Strings, wid: str, field: Any, key: str, value: Any, label: Any, help_text: Any) -> Html:
    options = join(*[el("option", {"value": v, "selected": v == value}, s.get(f"options.{field.name}.{v or 'none'}"))
                     for v in field.choices])
    return _select(wid, key, label, help_text, options, ltr_text=True)


def _custom_text(s: Strings, wid: str, field: Any, key: str, value: Any, label: Any, help_text: Any) -> Html:
    return el("div", {"class": "calc-field", "data-calc-wrap": key},
              el("label", {"class": "calc-field__label", "for": field_id(wid, key)}, label),
              el("input", {"class": "calc-field__input", "id": field_id(wid, key), "type": "text",
                           "dir": "ltr", "spellcheck": "false", "autocomplete": "off",
                           "data-calc-field": key, "data-calc-text": True, "value": value,
                           "aria-describedby": f"{field_id(wid, key)}-help"}),
              _help_and_error(wid, key, help_text))


def _custom_number(s: Strings, wid: str, field: Any, key: str, value: Any, label: Any, help_text: Any) -> Html:
    return _number(s, wid, key, value, label, help_text, None)


#: One renderer per control of the custom architecture: a config field's kind (configs.FIELD_KINDS) names its own.
CUSTOM_CONTROLS: dict[str, Callable[..., Html]] = {"checkbox": _custom_checkbox, "select": _custom_select,
                                                   "text": _custom_text, "number": _custom_number}


def _custom_field(s: Strings, wid: str, field: Any, value: Any) -> Html:
    key = CUSTOM_PREFIX + field.name
    return CUSTOM_CONTROLS[field.field_kind.control](s, wid, field, key, value, ltr(el("code", {}, field.name)),
                                                     s.get(f"fields.{key}.help", ""))


def hub_button(s: Strings, wid: str) -> Html:
    """The one way a reader's page asks another host: under the model picker, for an ``owner/name`` id the catalogue
    does not know (``Page.search``'s ``fetch``), a button that reads its config from Hugging Face into the paste box
    (``Page.hub``, calc.js ``hubGet``), what a click sends said beside it beforehand, and where its outcome is told.
    Hidden until the picker finds such an id; without JavaScript it never shows."""
    fid = field_id(wid, "hub")
    return el("div", {"class": "calc-hub", "data-calc-hub": True, "hidden": True},
              el("p", {"class": "calc-field__help", "id": f"{fid}-sends"}, s.get("hub.sends")),
              el("button", {"type": "button", "class": "calc-button", "data-calc-hub-button": True,
                            "aria-describedby": f"{fid}-sends"}, s.get("hub.button")),
              el("p", {"class": "calc-field__help", "role": "status", "data-calc-hub-status": True}),
              el("p", {"class": "calc-field__error", "id": f"{fid}-error", "role": "alert",
                       "data-calc-hub-error": True, "hidden": True}))


def model_fieldset(s: Strings, wid: str, state: dict[str, Any], model: dict[str, Any]) -> Html:
    radios = [el("label", {"class": "calc-choice__item"},
                 el("input", {"type": "radio", "name": f"{wid}-model-source", "value": src,
                              "data-calc-control": SOURCE_KEY, "data-calc-field": SOURCE_KEY, "checked": src == "preset"}),
                 " ", s.get(f"fields.model_source_{src}"))
              for src in MODEL_SOURCES]
    source = lambda src: {"data-calc-source": src, **when_attrs({SOURCE_KEY: (src,)}, {SOURCE_KEY: "preset"})}  # noqa: E731
    values = custom_values(model)
    custom = [_custom_field(s, wid, f, values[f.name]) for f in api.MODEL_FIELDS]
    return el("fieldset", {"class": "calc-group calc-group--model"},
              el("legend", {"class": "calc-group__legend"}, s.get("fields.model_source.label")),
              el("div", {"class": "calc-choice", "role": "radiogroup",
                         "aria-describedby": f"{field_id(wid, 'model_source')}-help"}, radios),
              el("p", {"class": "calc-field__help", "id": f"{field_id(wid, 'model_source')}-help"},
                 s.get("fields.model_source.help")),
              el("div", {"class": "calc-source", **source("preset")},
                 control(s, wid, "model", state["model"] if isinstance(state["model"], str) else "")),
              el("div", {"class": "calc-source calc-grid", **source("custom")}, custom),
              el("div", {"class": "calc-source", **source("paste")},
                 el("div", {"class": "calc-field", "data-calc-wrap": PASTE_KEY},
                    el("label", {"class": "calc-field__label", "for": field_id(wid, PASTE_KEY)},
                       s.get("fields.config.label")),
                    el("textarea", {"class": "calc-field__input calc-field__textarea", "id": field_id(wid, PASTE_KEY),
                                    "rows": 6, "dir": "ltr", "spellcheck": "false", "autocomplete": "off",
                                    "data-calc-field": PASTE_KEY, "data-calc-json": True,
                                    "placeholder": '{"hidden_size": 4096, "num_hidden_layers": 32, '
                                                   '"num_attention_heads": 32, "vocab_size": 32000}',
                                    "aria-describedby": f"{field_id(wid, PASTE_KEY)}-help"}),
                    _help_and_error(wid, PASTE_KEY, s.get("fields.config.help")))),
              hub_button(s, wid))


# ---------------------------------------------------------------------------------------------------------------
# Reading what the reader typed
# ---------------------------------------------------------------------------------------------------------------
def read_form(fields: tuple[str, ...], defaults: dict[str, Any], raw: dict[str, Any]
              ) -> tuple[dict[str, Any], list[FieldError]]:
    """The state of a widget from the raw values of its controls for ``fields``: ``{key: checkbox bool | select
    string | typed text | list}``, each read by its key's kind of value; the estimator's model comes from its source's
    controls (``model_source``: ``model`` the drop-down, ``model.<field>`` the custom fields, ``config`` the paste box),
    or as ``{"source": "preset" | "custom" | "paste", "value": ...}`` (a custom model is ``{field: text}``, a pasted
    one the text of the box).
    Errors that can be seen before asking the estimator come back per field."""
    state: dict[str, Any] = {}
    errors: list[FieldError] = []
    for key in fields:
        value = raw.get(key, defaults.get(key, DEFAULTS.get(key)))
        if key == "model":
            value, err = _read_model(_model_raw(raw, value))
            if err:
                errors.append(err)
        elif isinstance(value, str) and len(value) > MAX_FIELD_CHARS:
            errors.append(FieldError(key, "too_large"))
        else:
            spec = BY_NAME[key]
            value = spec.value_kind.from_form(spec, value)
        state[key] = value
    return state, errors


#: What a typed number may hold and still be shown as typed: anything else (a comma, a space, Arabic digits) gets the
#: number as read beside the field.
_PLAIN_TYPED = frozenset("0123456789.+-eE")


def readings(s: Strings, fields: tuple[str, ...], raw: dict[str, Any]) -> dict[str, Html]:
    """The number as read, for every typed number whose text is not already that number in plain digits ("1,5" ->
    "Read as 1.5", "٤٠٩٦" -> "Read as 4,096"): the page shows it beside the field, so a decimal comma or a grouping
    the reader did not mean is seen at once. Keys are the form's (``model.hidden_size`` for a custom field)."""
    typed: dict[str, Any] = {}
    for key in fields:
        spec = BY_NAME.get(key)
        if spec is not None and spec.value_kind.control == "number":
            typed[key] = raw.get(key)
    model = _model_raw(raw, raw.get("model"))
    if isinstance(model, dict) and model.get("source") == "custom" and isinstance(model.get("value"), dict):
        numbers = {f.name for f in api.MODEL_FIELDS if f.field_kind.number}
        typed.update({CUSTOM_PREFIX + k: v for k, v in model["value"].items() if k in numbers})
    out: dict[str, Html] = {}
    for key, text in typed.items():
        if not isinstance(text, str) or not text.strip() or set(text.strip()) <= _PLAIN_TYPED:
            continue
        value = parse_number(text)
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            continue                   # "1E٤00" reads as infinity: no reading, the field's own error says why
        shown = fmt_int(value) if isinstance(value, int) else plain_number(value)
        out[key] = filled(s.get("fields.read_as"), {"n": shown})
    return out


def _model_raw(raw: dict[str, Any], default: Any) -> Any:
    """The model's raw value: from the controls of the source ``model_source`` names, else the drop-down's (or
    ``default``, the value ``raw["model"]`` or the defaults give)."""
    source = raw.get(SOURCE_KEY)
    if source == "paste":
        return {"source": source, "value": raw.get(PASTE_KEY, "")}
    if source == "custom":
        return {"source": source, "value": {k[len(CUSTOM_PREFIX):]: v for k, v in raw.items()
                                            if isinstance(k, str) and k.startswith(CUSTOM_PREFIX)}}
    return default


def _read_model(raw: Any) -> tuple[Any, FieldError | None]:
    if isinstance(raw, str):
        return raw, None
    if not isinstance(raw, dict):
        return raw, None
    source = raw.get("source")
    value = raw.get("value")
    if source == "paste":
        text = value if isinstance(value, str) else ""
        if not text.strip():
            return None, FieldError("model", "missing_field", quiet=True)
        try:
            parsed = api.read_json(text, "model")       # as the API reads a request: size, depth, no NaN
        except InputError as err:
            return None, FieldError(err.field, err.code)
        if not isinstance(parsed, dict):
            return None, FieldError("model", "not_an_object")
        return parsed, None
    if source == "custom" and isinstance(value, dict):
        for name, v in value.items():
            if isinstance(v, str) and len(v) > MAX_FIELD_CHARS:
                return None, FieldError(f"model.{str(name)[:100]}", "too_large")
        # An empty field is a field the config does not set (head_dim, for instance), except one that may be null: it
        # is null, as the preset it was filled from has it (DeepSeek-V2-Lite's q_lora_rank: no low-rank query; left
        # out, its class's default of 1536 came in, +42.5 M parameters). A text field (model_type) stays text, the
        # others are read as numbers.
        kinds = {f.name: f.field_kind for f in api.MODEL_FIELDS}
        nullable = {name for name, kind in kinds.items() if kind.nullable}
        empty = lambda v: isinstance(v, str) and not v.strip()      # noqa: E731
        typed = lambda name, v: v.strip() if name in kinds and kinds[name].text else parse_number(v)   # noqa: E731
        model = {name: None if empty(v) else typed(name, v) if isinstance(v, str) else v
                 for name, v in value.items() if name in nullable or not empty(v)}
        return model, _custom_number_error(model)
    return value, None


#: The custom form's number fields and their upper bounds. Each is a number field: what it holds must be a whole number
#: even where this architecture does not read it (an expert width of a dense model, an MLA rank without MLA), or "abc"
#: would only be listed as ignored, far from the field, with no error at it.
_CUSTOM_NUMBERS: dict[str, int | None] = {f.name: f.high for f in api.MODEL_FIELDS if f.field_kind.number}


def _custom_number_error(model: dict[str, Any]) -> FieldError | None:
    """The first custom number field holding no whole number (wrong_type) or a negative or too large one
    (out_of_range), at that field; the estimator checks the lower bounds of the fields the architecture reads (a 0
    in a field it does not read is the form's own "none")."""
    for name, v in model.items():
        if name not in _CUSTOM_NUMBERS or v is None:
            continue
        if isinstance(v, bool) or not isinstance(v, int):
            return FieldError(f"model.{name}", "wrong_type")
        high = _CUSTOM_NUMBERS[name]
        if v < 0 or (high is not None and v > high):
            return FieldError(f"model.{name}", "out_of_range")
    return None


# ---------------------------------------------------------------------------------------------------------------
# Writing into the form: what calc.js puts into the controls (a link, a pasted config, the model as last read)
# ---------------------------------------------------------------------------------------------------------------
#: Which values each control (inputs.CONTROLS) can show: calc.js writes them as they are (a list into a checkbox per
#: module, a flag into a checkbox, a text or a number into a text box, null leaving it empty).
_SHOWS: dict[str, Callable[[Any], bool]] = {
    "checkbox": lambda v: isinstance(v, bool),
    "number": lambda v: v is None or (isinstance(v, (int, float, str)) and not isinstance(v, bool)),
    "select": lambda v: isinstance(v, str),
    "modules": lambda v: isinstance(v, list) and all(isinstance(x, str) for x in v),
}


def form_controls(s: Strings, fields: tuple[str, ...], state: dict[str, Any], sources: bool) -> dict[str, Any] | None:
    """The control values that show ``state`` (request values, as a link or a pasted training config gives them),
    for calc.js to write into the form; None when a value has no control that can show it (a key the widget does not
    edit, a value of the wrong type). A picker's value may name its entry by a Hugging Face repo or an alias, in any
    case ("Qwen/Qwen3-8B"): it becomes that entry's id (a name no entry has stays, to be refused). With ``sources`` (the estimator's model fieldset) a catalogue id selects the
    catalogue, and a config object goes into the custom fields when ``state["model_source"]`` says "custom" (the
    fields it names), else into the paste box; without, only a catalogue id is a model. A drop-down's value that it
    does not offer is calc.js's to refuse (it knows the options on the page)."""
    out: dict[str, Any] = {}
    for key, value in state.items():
        if key == SOURCE_KEY:
            continue
        if key in PICKERS and isinstance(value, str):
            value = picker_named(s, key, value) or value
        if key == "model" and isinstance(value, str):
            out.update({"model": value, **({SOURCE_KEY: "preset"} if sources else {})})
        elif key == "model" and sources and isinstance(value, dict):
            if state.get(SOURCE_KEY) == "custom":
                names = {f.name for f in api.MODEL_FIELDS}
                out.update({CUSTOM_PREFIX + n: v for n, v in value.items() if n in names})
                out[SOURCE_KEY] = "custom"
            else:
                out.update({PASTE_KEY: value, SOURCE_KEY: "paste"})
        elif key != "model" and key in fields and _SHOWS[BY_NAME[key].value_kind.control or ""](value):
            out[key] = value
        else:
            return None
    return out


def mirror_controls(raw: dict[str, Any], model: dict[str, Any]) -> dict[str, Any]:
    """The custom fields showing the model just read, while the model comes from another source: a reader who
    switches to "Custom architecture" starts from it (every field the estimator uses, experts included)."""
    if raw.get(SOURCE_KEY) in (None, "custom"):
        return {}
    return {CUSTOM_PREFIX + name: value for name, value in custom_values(model).items()}


def link_state(raw: dict[str, Any], state: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """The state as the page's address keeps it (a config object says which source it came from: ``model_source``),
    and the keys the address drops, telling the reader, when it is too long to keep them (a pasted config)."""
    if not isinstance(state.get("model"), dict):
        return state, []
    return {**state, SOURCE_KEY: raw.get(SOURCE_KEY, "paste")}, ["model", SOURCE_KEY]


def error_slots(field: str | None, code: str, raw: dict[str, Any], edited: Any) -> list[str]:
    """Where an error is shown, best first (calc.js takes the first whose box is on screen, else the form's own): a
    conflict between two settings (``contradiction``) at the control edited last; the model's errors at the control
    of its source (the paste box, the drop-down; a custom model as a whole at the custom field edited last); every
    other error at its own field."""
    field = field or ""
    edited = edited if isinstance(edited, str) else ""
    source = raw.get(SOURCE_KEY, "preset")
    slot = field
    if field == "model" or field.startswith(CUSTOM_PREFIX):
        if source == "paste":
            slot = PASTE_KEY
        elif source == "preset":
            slot = "model"
        elif field == "model" and edited.startswith(CUSTOM_PREFIX):
            slot = edited
    return [edited, slot] if code == "contradiction" and edited and edited != PASTE_KEY else [slot]
