"""The calculator widgets of the site: what each kind asks for, which estimates it needs, and all of its markup.

One renderer for every figure a reader sees: the site build calls it on CPython to write each widget into the page
(useful before any script runs, and without JavaScript), and the page's worker calls the same functions in Pyodide
on every change (``Page.render``), so the page script only swaps the fragment it receives. Nothing here computes
memory (``api`` does) and nothing formats numbers outside ``display``.

A widget's state is a dict of request keys in the API's own form (``model`` a catalogue id or a config object,
``lora_targets`` a list of modules). ``fixed`` keys come from the article (its front matter and the marker) and are
not editable in that widget; the editable ``state`` goes on top of them.
"""
from __future__ import annotations

import functools
import html
import json
import re
from dataclasses import dataclass
from typing import Any, Callable

from . import api, vocab
from .catalog import GPUS, MODELS
from .configs import ARCH_FIELDS, MODEL_FIELD_KINDS, QK_NORMS
from .display import Html, Strings, counted, duration, el, filled, fmt_bytes, fmt_int, fmt_number, fmt_percent, \
    join, ltr, money
from .inputs import BY_NAME, DEFAULTS, GROUPS, INPUTS, InputSpec
from .models import ModelArch

__all__ = ["KINDS", "Kind", "Page", "state_for", "fixed_for", "requests_for", "read_form", "render_results",
           "render_widget", "describe_assumptions", "message_for", "bytes_html", "verdict_html", "table_html",
           "setup_label", "DEFAULT_MODEL", "DEFAULT_GPU"]

DEFAULT_MODEL = "llama-3.1-8b"
DEFAULT_GPU = "rtx-4090"


# =====================================================================================================================
# Kinds
# =====================================================================================================================
@dataclass(frozen=True)
class Kind:
    """One kind of widget: the request keys it lets the reader edit (in form order), its defaults over the API's, and
    the renderer of its results."""

    name: str
    fields: tuple[str, ...]
    defaults: dict[str, Any]
    render: Callable[..., Html]
    requests: Callable[[dict[str, Any]], list[dict[str, Any]]]


#: The full estimator edits every key the form shows (inputs.py: ``control``), plus the model.
ESTIMATOR_FIELDS = ("model",) + tuple(s.name for s in INPUTS if s.control is not None)
COMPARE_VARIANTS = (("full", False), ("lora", False), ("qlora", False), ("full", True), ("lora", True), ("qlora", True))
#: "What fits" lists the method most readers of a card's page came for first: QLoRA, then LoRA, then full.
FITS_METHODS = ("qlora", "lora", "full")
SEQLEN_POINTS = (512, 1024, 2048, 4096, 8192, 16384, 32768)
# The compact widgets train with gradient checkpointing on by default: without it nothing but tiny models fits a
# 24 GB card, and every QLoRA recipe turns it on.
_COMPACT = {"seq_len": 2048, "micro_batch_size": 1, "gradient_checkpointing": True}


def _requests_estimator(q: dict[str, Any]) -> list[dict[str, Any]]:
    return [q]


def _requests_compare(q: dict[str, Any]) -> list[dict[str, Any]]:
    return [{**q, "method": m, "dpo": d, "include": []} for m, d in COMPARE_VARIANTS]


def _requests_fits(q: dict[str, Any]) -> list[dict[str, Any]]:
    return [{**q, "model": model, "method": m, "include": []} for model in MODELS for m in FITS_METHODS]


def _requests_seqlen(q: dict[str, Any]) -> list[dict[str, Any]]:
    return [{**q, "seq_len": SEQLEN_POINTS[0], "include": ["inverse"]},
            *({**q, "seq_len": n, "include": []} for n in SEQLEN_POINTS)]


# =====================================================================================================================
# State
# =====================================================================================================================
def state_for(kind: str, attrs: dict[str, Any], fixed: dict[str, Any] | None = None) -> dict[str, Any]:
    """The widget's editable state for a marker: the kind's fields, from the marker's attributes, else the article's
    assumptions, else the kind's defaults, else the API's. Values in the API's form."""
    k = KINDS[kind]
    fixed = fixed or {}
    state: dict[str, Any] = {}
    for key in k.fields:
        value = attrs.get(key, fixed.get(key, k.defaults.get(key, DEFAULTS.get(key))))
        if key == "lora_targets":          # the form shows one checkbox per module: the state is the list
            value = list(api.check_value(BY_NAME[key], value))
        state[key] = value
    return state


def fixed_for(kind: str, attrs: dict[str, Any], article: dict[str, Any] | None = None) -> dict[str, Any]:
    """The request keys a widget takes from its article and marker without letting the reader edit them."""
    fields = KINDS[kind].fields
    merged = {**(article or {}), **attrs}
    return {k: v for k, v in merged.items() if k not in fields}


def requests_for(kind: str, state: dict[str, Any], fixed: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    """The API requests one state needs, in the order the renderer reads their results."""
    return KINDS[kind].requests({**(fixed or {}), **state})


# =====================================================================================================================
# Reading what the reader typed (the page sends raw control values; Python turns them into request values)
# =====================================================================================================================
# Digits and separators people type: Arabic-Indic and Extended Arabic-Indic (Persian/Urdu) digits, the Arabic
# thousands separator and decimal point, and the usual grouping characters.
_DIGITS = {**{ord(c): str(i) for i, c in enumerate("٠١٢٣٤٥٦٧٨٩")},
           **{ord(c): str(i) for i, c in enumerate("۰۱۲۳۴۵۶۷۸۹")},
           ord("٫"): ".", ord("٬"): None, ord(","): None, ord("_"): None, ord("'"): None, ord(" "): None,
           ord("\u00a0"): None, ord("\u202f"): None, ord("\u2009"): None, ord("\u066c"): None}
_NUMBER = re.compile(r"^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$")
_INTEGER = re.compile(r"^[+-]?\d+$")


def parse_number(text: Any) -> Any:
    """A typed number as the API expects it: an int for whole numbers (any size, so a 400-digit one is out of
    range, not an error of its own), a float for decimals; anything else goes on as typed, so that the estimator
    names the error (``wrong_type``)."""
    if not isinstance(text, str):
        return text
    s = text.strip().translate(_DIGITS)
    if _INTEGER.match(s):
        return int(s)
    if _NUMBER.match(s):
        try:
            return float(s)
        except (ValueError, OverflowError):   # pragma: no cover - the pattern admits only floats Python reads
            return text
    return text


@dataclass(frozen=True)
class FieldError:
    field: str | None
    code: str
    quiet: bool = False      # nothing typed yet (an empty paste box): no message, results kept but out of date


def read_form(kind: str, raw: dict[str, Any]) -> tuple[dict[str, Any], list[FieldError]]:
    """The state of a widget from its raw controls: ``{key: checkbox bool | select string | typed text | list}``;
    ``model`` is ``{"source": "preset" | "custom" | "paste", "value": ...}`` (a custom model is ``{field: text}``, a
    pasted one the text of the box). Errors that can be seen before asking the estimator come back per field."""
    k = KINDS[kind]
    state: dict[str, Any] = {}
    errors: list[FieldError] = []
    for key in k.fields:
        value = raw.get(key, k.defaults.get(key, DEFAULTS.get(key)))
        if key == "model":
            value, err = _read_model(value)
            if err:
                errors.append(err)
        elif BY_NAME[key].kind in ("int", "float"):
            if BY_NAME[key].nullable and (value is None or (isinstance(value, str) and not value.strip())):
                value = None                    # an empty optional field: not given
            else:
                value = parse_number(value)
        state[key] = value
    return state, errors


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
        if len(text) > api.MAX_INPUT_CHARS:
            return None, FieldError("model", "too_large")
        try:
            parsed = json.loads(text, parse_constant=_reject_constant)
        except RecursionError:
            return None, FieldError("model", "too_large")
        except (ValueError, TypeError):
            return None, FieldError("model", "invalid_json")
        if not isinstance(parsed, dict):
            return None, FieldError("model", "not_an_object")
        return parsed, None
    if source == "custom" and isinstance(value, dict):
        # An empty field is a field the config does not set (head_dim, for instance).
        return {name: parse_number(v) if isinstance(v, str) else v for name, v in value.items()
                if not (isinstance(v, str) and not v.strip())}, None
    return value, None


def _reject_constant(name: str) -> Any:
    raise ValueError(name)


# =====================================================================================================================
# Messages: (code, field) -> the reader's language
# =====================================================================================================================
def _spec_of(field: str | None) -> InputSpec | None:
    return BY_NAME.get(field or "")


def message_for(s: Strings, code: str, field: str | None) -> Html:
    """The message for an API error on a field: a field-specific text where the table has one for this code, else the
    code's text, per kind of value for ``wrong_type`` and with the allowed range for ``out_of_range``."""
    field = field or ""
    specific = s.get(f"errors.by_field.{field}.{code}", "") or (
        s.get(f"errors.by_field.{field}", "") if code in ("contradiction", "missing_field") else "")
    if specific:
        return join(specific)
    spec = _spec_of(field)
    if code == "wrong_type":
        kind = spec.kind if spec else ("model_field" if field.startswith("model.") else "model")
        return join(s.get(f"errors.wrong_type.{kind}", s.get("errors.wrong_type.other")),
                    _config_field_suffix(field))
    if code == "out_of_range" and spec is not None and spec.low is not None:
        lo, hi = (fmt_int(spec.low), fmt_int(spec.high)) if spec.kind == "int" else (f"{spec.low:g}", f"{spec.high:g}")
        return filled(s.get("errors.out_of_range_between"), {"min": lo, "max": hi})
    return join(s.get(f"errors.{code}", s.get("errors.internal_error")), _config_field_suffix(field))


def _config_field_suffix(field: str) -> Html:
    if field.startswith("model.") and "." not in field[6:]:
        return join(" (", ltr(el("code", {}, field[6:])), ")")
    return join()


# =====================================================================================================================
# Shared result pieces
# =====================================================================================================================
@functools.lru_cache(maxsize=4096)
def bytes_html(value: int, output: str | None = None) -> Html:
    """Bytes as "86.2 GB (80.3 GiB)", the raw figure in data-value."""
    dec, binary = fmt_bytes(value)
    return el("span", {"class": "calc-bytes", "data-calc-output": output, "data-value": value},
              ltr(dec), " ", el("span", {"class": "calc-bytes__alt"}, "(", ltr(binary), ")"))


#: A mark per verdict, for tables too narrow for the words (a phone's GPU table): shape and colour both say it.
VERDICT_MARKS = {"comfortable": "✓", "tight": "~", "does_not_fit": "✗"}


def verdict_html(s: Strings, v: str) -> Html:
    key = ("verdict", v)
    if key not in s.memo:
        s.memo[key] = _verdict_html(s, v)
    return s.memo[key]


def _verdict_html(s: Strings, v: str) -> Html:
    return el("span", {"class": f"calc-verdict calc-verdict--{v}", "data-verdict": v},
              el("span", {"class": "calc-verdict__mark", "aria-hidden": "true"}, VERDICT_MARKS[v]),
              el("span", {"class": "calc-verdict__word"}, s.get(f"verdict.{v}")))


def setup_label(n: int, gpu_name: str) -> Html:
    """"2 × H100 80GB" as ONE left-to-right run: isolating the count and the card separately lets an Arabic sentence
    show them as "H100 80GB × 2"."""
    return ltr(f"{n} × {gpu_name}")


def _gpu_name(gpu_id: str) -> str:
    return GPUS[gpu_id].name


_BAR_W = 1000


def _stacked_bar(s: Strings, breakdown: dict[str, int], scale: int, line: int | None, label: str) -> Html:
    """A horizontal stacked bar in an SVG the page draws itself (no chart library), mirrored in RTL."""
    rects = []
    x = 0.0
    for key, value in breakdown.items():
        if value <= 0:
            continue
        w = value / scale * _BAR_W if scale else 0.0
        left = _BAR_W - x - w if s.rtl else x
        rects.append(el("rect", {"class": f"calc-c calc-c--{key}", "x": f"{left:.2f}", "y": 2, "width": f"{w:.2f}",
                                 "height": 24}, el("title", {}, f"{s.get(f'components.{key}')}: {fmt_bytes(value)[0]}")))
        x += w
    if line is not None and scale:
        lx = line / scale * _BAR_W
        lx = _BAR_W - lx if s.rtl else lx
        rects.append(el("line", {"class": "calc-bar__limit", "x1": f"{lx:.2f}", "x2": f"{lx:.2f}", "y1": 0, "y2": 28}))
    return el("svg", {"class": "calc-bar", "viewBox": f"0 0 {_BAR_W} 28", "preserveAspectRatio": "none", "role": "img",
                      "aria-label": label, "focusable": "false"}, rects)


def _legend(s: Strings, breakdown: dict[str, int], with_bytes: bool = True) -> Html:
    return el("ul", {"class": "calc-legend"}, [
        el("li", {"class": "calc-legend__item", "data-component": key},
           el("span", {"class": f"calc-swatch calc-c--{key}", "aria-hidden": "true"}),
           el("span", {"class": "calc-legend__name"}, s.get(f"components.{key}")),
           join(" ", bytes_html(value)) if with_bytes else None)
        for key, value in breakdown.items() if value > 0])


def _union_breakdown(results: list[dict[str, Any]]) -> dict[str, int]:
    """Every component that is non-zero in at least one result (for a shared legend), in the API's order."""
    keys = list(results[0]["breakdown_bytes"]) if results else []
    return {k: max(r["breakdown_bytes"].get(k, 0) for r in results) for k in keys}


def table_html(attrs: dict[str, Any], caption: Any, head: list[Any], body: list[Any],
               table_class: str = "calc-table") -> Html:
    """A table whose caption stays outside the horizontal scroller (so a phone shows it whole); the scroller can be
    reached and scrolled with the keyboard and is named by the caption."""
    return el("figure", {"class": "calc-table-figure", **attrs},
              el("figcaption", {"class": "calc-table-caption"}, caption),
              el("div", {"class": "calc-table-wrap", "tabindex": "0", "role": "region", "aria-label": plain_text(caption)},
                 el("table", {"class": table_class}, el("thead", {}, el("tr", {}, head)), el("tbody", {}, body))))


def plain_text(markup: Any) -> str:
    """The text of a piece of markup (for an aria-label)."""
    return html.unescape(re.sub(r"<[^>]+>", "", str(markup)))


def _fit_word(s: Strings, ok: bool) -> Html:
    return el("span", {"class": f"calc-fit calc-fit--{'yes' if ok else 'no'}"},
              s.get("out.fits") if ok else s.get("verdict.does_not_fit"))


# =====================================================================================================================
# Results, per kind
# =====================================================================================================================
def _summary(s: Strings, r: dict[str, Any]) -> Html:
    """The estimator's headline (peak, verdict, share of the card, range, the bar against the card): it stays on
    screen while the reader edits the inputs (a sticky strip between the form and the rest of the results)."""
    g = r["gpu"]
    scale = max(r["peak_bytes_per_gpu"], g["memory_bytes"])
    return el("div", {"class": "calc-peak", "data-calc-summary": True},
              el("p", {"class": "calc-peak__label"}, s.get("out.peak")),
              el("p", {"class": "calc-peak__value"}, bytes_html(r["peak_bytes_per_gpu"], "peak_bytes_per_gpu")),
              el("p", {"class": "calc-peak__verdict"}, filled(s.get("out.verdict_on"), {"gpu": g["name"]}), " ",
                 el("span", {"data-calc-output": "gpu.verdict", "data-value": g["verdict"]}, verdict_html(s, g["verdict"])),
                 " ", el("span", {"class": "calc-peak__share", "data-calc-output": "gpu.share_of_memory",
                                  "data-value": g["share_of_memory"]},
                         filled(s.get("out.share"), {"share": fmt_percent(g["share_of_memory"], 0)}))),
              el("p", {"class": "calc-peak__range"}, s.get("out.range"), ": ",
                 bytes_html(r["range"]["low_bytes"], "range.low_bytes"), " ", s.get("out.range_sep"), " ",
                 bytes_html(r["range"]["high_bytes"], "range.high_bytes")),
              _run_line(s, r),
              _stacked_bar(s, r["breakdown_bytes"], scale, g["memory_bytes"], s.get("out.breakdown")))


def _run_line(s: Strings, r: dict[str, Any]) -> Html:
    """The run's time and cost in the summary strip, or the speed when no workload is given."""
    run, tp = r.get("run"), r.get("throughput")
    if run:
        parts: list[Any] = [el("span", {"data-calc-output": "run.seconds", "data-value": run["seconds"]},
                               duration(s, run["seconds"]))]
        if run.get("cost") is not None:
            parts += [s.get("out.list_sep"), el("span", {"data-calc-output": "run.cost", "data-value": run["cost"]},
                                                money(s, run["cost"], run["currency"]))]
        return el("p", {"class": "calc-peak__run"}, s.get("out.run"), s.get("out.colon"), parts)
    if tp:
        return el("p", {"class": "calc-peak__run"}, s.get("out.speed_per_gpu"), s.get("out.colon"),
                  el("span", {"data-calc-output": "throughput.tokens_per_second_per_gpu",
                              "data-value": tp["tokens_per_second_per_gpu"]},
                     filled(s.get("units.tokens_per_second.other"), {"n": fmt_int(tp["tokens_per_second_per_gpu"])})))
    return join()


def _results_estimator(s: Strings, results: list[dict[str, Any]], state: dict[str, Any]) -> Html:
    r = results[0]
    g = r["gpu"]
    breakdown = el("figure", {"class": "calc-figure"},
                   el("figcaption", {"class": "calc-subtitle"}, s.get("out.breakdown")),
                   _legend(s, r["breakdown_bytes"]))
    facts = [
        (s.get("out.params"), ltr(fmt_int(r["params"]), data_calc_output="params", data_value=r["params"])),
        (s.get("out.trainable"), join(
            ltr(fmt_int(r["trainable_params"]), data_calc_output="trainable_params", data_value=r["trainable_params"]),
            " (", ltr(fmt_percent(r["trainable_share"]), data_calc_output="trainable_share",
                      data_value=r["trainable_share"]), ")")),
    ]
    if r["adapter_bytes"] > 0:
        facts.append((s.get("out.adapter"), bytes_html(r["adapter_bytes"], "adapter_bytes")))
    facts.append((s.get("out.checkpoint"), bytes_html(r["checkpoint_bytes"], "checkpoint_bytes")))
    facts.append((s.get("out.optimizer_file"), bytes_html(r["optimizer_state_file_bytes"], "optimizer_state_file_bytes")))
    if r["host_ram_bytes"] > 0:
        facts.append((s.get("out.host_ram"), bytes_html(r["host_ram_bytes"], "host_ram_bytes")))
    for key, out, noun in (("max_seq_len", "max_seq_len", "tokens"), ("max_micro_batch", "max_micro_batch_size", "")):
        value = r[out]
        shown = (counted(s, noun, value) if noun else ltr(fmt_int(value))) if value > 0 else s.get("out.none_fits")
        facts.append((filled(s.get(f"out.{key}"), {"gpu": g["name"]}),
                      el("span", {"data-calc-output": out, "data-value": value}, shown)))
    facts_html = el("dl", {"class": "calc-facts"}, [el("div", {}, el("dt", {}, t), el("dd", {}, v)) for t, v in facts])
    notes = [el("p", {"class": "calc-note", "data-note": n}, s.get(f"notes.{n}")) for n in r["notes"]]
    ignored = r["model"].get("ignored_fields") or []
    if ignored:
        notes.append(el("p", {"class": "calc-note", "data-note": "ignored_fields"},
                        filled(s.get("out.ignored_fields"), {"fields": ", ".join(ignored[:40]) +
                                                             (" …" if len(ignored) > 40 else "")})))
    return join(breakdown, facts_html, notes, _time_and_cost(s, r, state), _remedies(s, r, g), _smallest(s, r),
                _time_cost_chart(s, r), _gpu_table(s, r, state))


_CHART_W, _CHART_H, _CHART_PAD = 600, 260, 16


def _time_cost_chart(s: Strings, r: dict[str, Any]) -> Html:
    """Every setup that fits, time against cost (both on log scales: they span orders of magnitude), one point per card
    and count; the fastest and the cheapest marked and named below. Without a workload both are per million tokens.
    Setups of cards with no reference price cannot be placed; the caption says so."""
    table, with_run = r.get("gpu_table") or [], bool(r.get("run"))
    points, unpriced = [], 0
    for row in table:
        for st in row["setups"]:
            if st["verdict"] == "does_not_fit" or not st.get("tokens_per_second"):
                continue
            t = st.get("seconds") if with_run else 1e6 / st["tokens_per_second"]
            c = st.get("cost") if with_run else st.get("cost_per_million_tokens")
            if c is None:
                unpriced += 1
            elif t:
                points.append((row["gpu"], row["name"], st["num_gpus"], float(t), float(c), st))
    if len(points) < 2:
        return join()
    import math
    lt = [math.log10(p[3]) for p in points]
    lc = [math.log10(max(p[4], 1e-6)) for p in points]
    t0, t1 = min(lt) - 0.05, max(lt) + 0.05
    c0, c1 = min(lc) - 0.05, max(lc) + 0.05
    w, h, pad = _CHART_W, _CHART_H, _CHART_PAD

    def xy(i: int) -> tuple[float, float]:
        x = pad + (lt[i] - t0) / (t1 - t0) * (w - 2 * pad)
        y = h - pad - (lc[i] - c0) / (c1 - c0) * (h - 2 * pad)
        return (w - x if s.rtl else x), y

    fastest, cheapest = r.get("fastest_setup") or {}, r.get("cheapest_setup") or {}
    marks = []
    for i, (gpu, name, n, t, c, st) in enumerate(points):
        x, y = xy(i)
        role = "fastest" if (gpu, n) == (fastest.get("gpu"), fastest.get("num_gpus")) else \
            "cheapest" if (gpu, n) == (cheapest.get("gpu"), cheapest.get("num_gpus")) else None
        label = f"{n} × {name}: {plain_text(_setup_time_cost(s, st, with_run))}"
        marks.append(el("circle", {"class": f"calc-point{' calc-point--' + role if role else ''}", "cx": f"{x:.1f}",
                                   "cy": f"{y:.1f}", "r": 7 if role else 4, "data-gpu": gpu, "data-num-gpus": n},
                        el("title", {}, label)))
    axes = [el("line", {"class": "calc-axis-line", "x1": pad, "x2": w - pad, "y1": h - pad, "y2": h - pad}),
            el("line", {"class": "calc-axis-line", "x1": w - pad if s.rtl else pad, "x2": w - pad if s.rtl else pad,
                        "y1": pad, "y2": h - pad})]
    # The extremes of each axis, written at its ends (the start of the time axis is on the reader's side).
    t_lo, t_hi = min(p[3] for p in points), max(p[3] for p in points)
    c_lo, c_hi = min(p[4] for p in points), max(p[4] for p in points)
    start, end = (w - pad, pad) if s.rtl else (pad, w - pad)
    anchor_start, anchor_end = ("end", "start") if s.rtl else ("start", "end")
    axes += [el("text", {"class": "calc-axis-text", "x": start, "y": h - 2, "text-anchor": anchor_start},
                plain_text(duration(s, t_lo))),
             el("text", {"class": "calc-axis-text", "x": end, "y": h - 2, "text-anchor": anchor_end},
                plain_text(duration(s, t_hi))),
             el("text", {"class": "calc-axis-text", "x": start + (-6 if s.rtl else 6), "y": pad + 4,
                         "text-anchor": anchor_start}, plain_text(money(s, c_hi))),
             el("text", {"class": "calc-axis-text", "x": start + (-6 if s.rtl else 6), "y": h - pad - 6,
                         "text-anchor": anchor_start}, plain_text(money(s, c_lo)))]
    caption = s.get("out.chart_caption_run" if with_run else "out.chart_caption_rate")
    legend = el("ul", {"class": "calc-legend"}, [
        el("li", {"class": "calc-legend__item", "data-setup": key},
           el("span", {"class": f"calc-point-key calc-point-key--{key}", "aria-hidden": "true"}),
           s.get(f"out.{key}"), " ", setup_label(best["num_gpus"], best["name"]))
        for key, best in (("fastest", fastest), ("cheapest", cheapest)) if best])
    note = el("p", {"class": "calc-note"}, filled(s.get("out.chart_unpriced"), {"n": counted(s, "setups", unpriced)})) \
        if unpriced else join()
    return el("figure", {"class": "calc-figure", "data-calc-output": "time_cost_chart"},
              el("figcaption", {"class": "calc-subtitle"}, caption),
              el("svg", {"class": "calc-scatter", "viewBox": f"0 0 {w} {h}", "role": "img",
                         "aria-label": plain_text(caption), "focusable": "false"}, axes, marks),
              legend, note)


def _provider(source: str) -> str:
    found = re.search(r"https?://(?:www\.)?([^/\s]+)", source or "")
    return found.group(1) if found else ""


def _time_and_cost(s: Strings, r: dict[str, Any], state: dict[str, Any]) -> Html:
    """Speed of a step on the chosen card and count, and the run's time and cost when a workload is given."""
    tp, run, g = r.get("throughput"), r.get("run"), r["gpu"]
    if not tp:
        if r.get("time_error"):      # a time the estimator refuses to guess (fp32 training, a card with no peak)
            return el("div", {"class": "calc-block", "data-calc-output": "throughput"},
                      el("p", {"class": "calc-note", "data-note": r["time_error"]},
                         filled(s.get(f"out.time_error.{r['time_error']}"), {"gpu": g["name"]})))
        return join()
    per_s = lambda n: filled(s.get("units.tokens_per_second.other"), {"n": fmt_int(n)})  # noqa: E731
    facts: list[tuple[Any, Any]] = [
        (s.get("out.tokens_per_second_per_gpu"),
         join(el("span", {"data-calc-output": "throughput.tokens_per_second_per_gpu",
                          "data-value": tp["tokens_per_second_per_gpu"]}, per_s(tp["tokens_per_second_per_gpu"])),
              " (", s.get("out.likely"), " ", ltr(f"{fmt_int(tp['range'][0])}–{fmt_int(tp['range'][1])}"), ")"))]
    if tp["num_gpus"] > 1:
        facts.append((s.get("out.tokens_per_second"), per_s(tp["tokens_per_second"])))
    facts.append((s.get("out.step_time"), duration(s, tp["step_time_s"]) if tp["step_time_s"] >= 1 else
                  filled(s.get("out.milliseconds"), {"n": fmt_int(round(tp["step_time_s"] * 1000))})))
    facts.append((s.get("out.mfu"), el("span", {"data-calc-output": "throughput.mfu", "data-value": tp["mfu"]},
                                       ltr(fmt_percent(tp["mfu"], 0)))))
    notes: list[Any] = []
    if run:
        facts.append((s.get("out.run_time"), join(
            el("span", {"data-calc-output": "run.seconds", "data-value": run["seconds"]}, duration(s, run["seconds"])),
            " (", s.get("out.likely"), " ", duration(s, run["range_seconds"][0]), " ", s.get("out.range_sep"), " ",
            duration(s, run["range_seconds"][1]), ")")))
        facts.append((s.get("out.gpu_hours"), ltr(fmt_number(run["gpu_hours"], 1 if run["gpu_hours"] < 100 else 0))))
        if run.get("cost") is not None:
            facts.append((s.get("out.cost"), join(
                el("span", {"data-calc-output": "run.cost", "data-value": run["cost"]}, money(s, run["cost"])),
                " (", s.get("out.likely"), " ", money(s, run["cost_range"][0]), " ", s.get("out.range_sep"), " ",
                money(s, run["cost_range"][1]), ")")))
            price = money(s, run["price_per_gpu_hour"])
            if run.get("price_source") == "reader":
                notes.append(filled(s.get("out.price_yours"), {"price": price}))
            else:
                spec = GPUS[g["id"]]
                notes.append(filled(s.get("out.price_catalogue"), {"price": price, "gpu": g["name"],
                                                                   "provider": _provider(spec.price_source),
                                                                   "date": spec.price_date,
                                                                   "field": join(s.get("fields.gpu_hour_price.label"))}))
        else:
            notes.append(filled(s.get("out.price_none"), {"gpu": g["name"],
                                                          "field": join(s.get("fields.gpu_hour_price.label"))}))
        if run.get("padding_share"):
            notes.append(filled(s.get("out.padding"), {"share": fmt_percent(run["padding_share"], 0)}))
    else:
        notes.append(filled(s.get("out.no_workload"), {"group": join(s.get("fields.workload_group"))}))
    title = el("p", {"class": "calc-subtitle"},
               filled(s.get("out.time_title"), {"setup": setup_label(tp["num_gpus"], g["name"])}))
    return el("div", {"class": "calc-block", "data-calc-output": "throughput"}, title,
              el("dl", {"class": "calc-facts"}, [el("div", {}, el("dt", {}, t), el("dd", {}, v)) for t, v in facts]),
              [el("p", {"class": "calc-note"}, n) for n in notes])


def _remedies(s: Strings, r: dict[str, Any], g: dict[str, Any]) -> Html:
    steps = r.get("remedies") or []
    title = el("p", {"class": "calc-subtitle"}, filled(s.get("out.remedies"), {"gpu": g["name"]}))
    if not steps:
        return el("div", {"class": "calc-block", "data-calc-output": "remedies"}, title,
                  el("p", {}, s.get("out.remedies_none")))
    items = []
    for x in steps:
        kind = vocab.remedy(x["remedy"])
        name = filled(s.get(f"remedies.{x['remedy']}"),
                      {"n": counted(s, kind.noun, x["changes"][kind.amount])} if kind.amount else {})
        figures: list[Any] = [s.get("out.remedy_alone"), " ", bytes_html(x["peak_bytes_alone"]), " ",
                              _fit_word(s, x["fits_alone"])]
        if x["peak_bytes_cumulative"] is not None:
            figures += [s.get("out.remedy_sep"), s.get("out.remedy_cumulative"), " ",
                        bytes_html(x["peak_bytes_cumulative"]), " ", _fit_word(s, x["fits_cumulative"])]
        elif x["remedy"] == "sharding" and (x.get("num_gpus_cumulative") or 0) > 1 and \
                not any(y["fits_cumulative"] for y in steps):
            figures += [s.get("out.remedy_sep"), filled(s.get("out.remedy_cumulative_cards"),
                                                        {"n": counted(s, "cards", x["num_gpus_cumulative"])})]
        items.append(el("li", {"class": "calc-remedy", "data-remedy": x["remedy"],
                               "data-alternative": x["peak_bytes_cumulative"] is None},
                        el("span", {"class": "calc-remedy__name"}, name), " ",
                        el("span", {"class": "calc-remedy__figures"}, figures)))
    return el("div", {"class": "calc-block", "data-calc-output": "remedies"}, title,
              el("ol", {"class": "calc-remedies"}, items))


def _smallest(s: Strings, r: dict[str, Any]) -> Html:
    ss = r.get("smallest_setup")
    title = el("p", {"class": "calc-subtitle"}, s.get("out.smallest"))
    if not ss or not ss.get("fits"):
        return el("div", {"class": "calc-block", "data-calc-output": "smallest_setup"}, title,
                  el("p", {}, s.get("out.smallest_none")))
    items = [el("li", {"data-setup": key}, s.get(f"out.smallest_{key}"), " ",
                setup_label(ss[key]["num_gpus"], _gpu_name(ss[key]["gpu"])), " — ",
                bytes_html(ss[key]["peak_bytes_per_gpu"]))
             for key in ("fits", "comfortable") if ss.get(key)]
    for key in ("fastest", "cheapest"):
        best = r.get(f"{key}_setup")
        if best:
            items.append(el("li", {"data-setup": key, "data-gpu": best["gpu"], "data-num-gpus": best["num_gpus"]},
                            s.get(f"out.{key}"), " ", setup_label(best["num_gpus"], best["name"]), " — ",
                            _setup_time_cost(s, best, bool(r.get("run")))))
    return el("div", {"class": "calc-block", "data-calc-output": "smallest_setup"}, title,
              el("ul", {"class": "calc-plain"}, items))


def _setup_time_cost(s: Strings, st: dict[str, Any], with_run: bool) -> Html:
    """"1.9 hours, 1.39 USD" for a workload; otherwise speed and cost per million tokens. Remembered per language
    and figures: the GPU table and the chart show the same few dozen of them after every change."""
    key = ("time_cost", with_run, st.get("seconds"), st.get("cost"), st.get("tokens_per_second"),
           st.get("cost_per_million_tokens"))
    if key not in s.memo:
        if len(s.memo) > 20_000:
            s.memo.clear()
        s.memo[key] = _time_cost_text(s, st, with_run)
    return s.memo[key]


def _time_cost_text(s: Strings, st: dict[str, Any], with_run: bool) -> Html:
    if with_run and st.get("seconds") is not None:
        parts: list[Any] = [duration(s, st["seconds"])]
        if st.get("cost") is not None:
            parts += [s.get("out.list_sep"), money(s, st["cost"])]
        return join(*parts)
    parts = [filled(s.get("units.tokens_per_second.other"), {"n": fmt_int(st["tokens_per_second"])})]
    if st.get("cost_per_million_tokens") is not None:
        parts += [s.get("out.list_sep"), filled(s.get("out.per_million"), {"cost": money(s, st["cost_per_million_tokens"])})]
    return join(*parts)


def _gpu_table(s: Strings, r: dict[str, Any], state: dict[str, Any]) -> Html:
    table = r.get("gpu_table") or []
    if not table:
        return join()
    head = [el("th", {"scope": "col"}, s.get("out.gpu_col")), el("th", {"scope": "col"}, s.get("out.memory_col"))]
    head += [el("th", {"scope": "col"}, filled(s.get("out.cards_col"), {"n": st["num_gpus"]}), el("br"),
                bytes_html(st["peak_bytes_per_gpu"])) for st in table[0]["setups"]]
    body = [_gpu_row(s, row, row["gpu"] == state.get("gpu"), bool(r.get("run"))) for row in table]
    caption = f"{s.get('out.gpu_table')}. {s.get('out.gpu_table_caption')}"
    marks = el("p", {"class": "calc-marks", "aria-hidden": "true"},
               [join(el("span", {"class": f"calc-verdict calc-verdict--{v}"}, m), " ", s.get(f"verdict.{v}"), " ")
                for v, m in VERDICT_MARKS.items()])
    return join(table_html({"data-calc-output": "gpu_table"}, join(caption, marks), head, body,
                           "calc-table calc-table--gpus"))


def _gpu_row(s: Strings, row: dict[str, Any], current: bool, with_run: bool) -> Html:
    """One card's row of the GPU table, remembered per language and figures (after a change most rows are the same
    as before: the card, its verdicts and times do not depend on which card the reader chose)."""
    key = ("gpu_row", row["gpu"], current, with_run,
           tuple((st["verdict"], st.get("tokens_per_second"), st.get("seconds"), st.get("cost"),
                  st.get("cost_per_million_tokens")) for st in row["setups"]))
    if key not in s.memo:
        if len(s.memo) > 20_000:
            s.memo.clear()
        s.memo[key] = el(
            "tr", {"data-gpu": row["gpu"], "class": "calc-table__current" if current else None},
            el("th", {"scope": "row"}, ltr(row["name"])), el("td", {}, bytes_html(row["memory_bytes"])),
            [el("td", {"class": f"calc-cell calc-cell--{st['verdict']}"}, verdict_html(s, st["verdict"]),
                el("span", {"class": "calc-cell__time"}, _setup_time_cost(s, st, with_run))
                if st["verdict"] != "does_not_fit" and st.get("tokens_per_second") else "")
             for st in row["setups"]])
    return s.memo[key]


def _results_compare(s: Strings, results: list[dict[str, Any]], state: dict[str, Any]) -> Html:
    g = results[0]["gpu"]
    scale = max(max(r["peak_bytes_per_gpu"] for r in results), g["memory_bytes"])
    rows = []
    for (method, dpo), r in zip(COMPARE_VARIANTS, results):
        label = join(s.get(f"options.method.{method}"), f" {s.get('out.dpo_suffix')}" if dpo else "")
        rows.append(el("li", {"class": "calc-row", "data-variant": f"{method}{'+dpo' if dpo else ''}"},
                       el("span", {"class": "calc-row__label"}, label),
                       _stacked_bar(s, r["breakdown_bytes"], scale, g["memory_bytes"], str(label)),
                       el("span", {"class": "calc-row__value"}, bytes_html(r["peak_bytes_per_gpu"], "peak_bytes_per_gpu"),
                          " ", verdict_html(s, r["gpu"]["verdict"]))))
    return el("figure", {"class": "calc-figure"},
              el("figcaption", {"class": "calc-subtitle"}, filled(s.get("out.compare_caption"), {"gpu": g["name"]})),
              el("ul", {"class": "calc-rows"}, rows), _legend(s, _union_breakdown(results), with_bytes=False))


def _results_fits(s: Strings, results: list[dict[str, Any]], state: dict[str, Any]) -> Html:
    g = results[0]["gpu"]
    k = len(FITS_METHODS)
    head = [el("th", {"scope": "col"}, s.get("out.model_col"))]
    head += [el("th", {"scope": "col"}, s.get(f"options.method.{m}")) for m in FITS_METHODS]
    body = []
    for row, model_id in enumerate(MODELS):
        cells = []
        for j, _m in enumerate(FITS_METHODS):
            r = results[row * k + j]
            cells.append(el("td", {"class": f"calc-cell calc-cell--{r['gpu']['verdict']}"},
                            verdict_html(s, r["gpu"]["verdict"]), " ", bytes_html(r["peak_bytes_per_gpu"], "peak_bytes_per_gpu")))
        body.append(el("tr", {"data-model": model_id}, el("th", {"scope": "row"}, ltr(MODELS[model_id].name)), cells))
    return table_html({}, filled(s.get("out.fits_caption"), {"gpu": g["name"]}), head, body, "calc-table calc-table--fits")


_COL_STEP, _COL_W, _COL_TOP, _COL_BASE = 100, 64, 10, 215


def _results_seqlen(s: Strings, results: list[dict[str, Any]], state: dict[str, Any]) -> Html:
    inv, rows = results[0], results[1:]
    g = inv["gpu"]
    scale = max(max(r["peak_bytes_per_gpu"] for r in rows), g["memory_bytes"])
    n = len(rows)
    cols = []
    for i, r in enumerate(rows):
        slot = n - 1 - i if s.rtl else i
        h = r["peak_bytes_per_gpu"] / scale * (_COL_BASE - _COL_TOP) if scale else 0.0
        cols.append(el("rect", {"class": f"calc-col calc-col--{r['gpu']['verdict']}",
                                "x": f"{slot * _COL_STEP + (_COL_STEP - _COL_W) / 2:g}", "y": f"{_COL_BASE - h:.2f}",
                                "width": _COL_W, "height": f"{h:.2f}"},
                       el("title", {}, f"{fmt_int(SEQLEN_POINTS[i])}: {fmt_bytes(r['peak_bytes_per_gpu'])[0]}")))
    y = f"{_COL_BASE - (g['memory_bytes'] / scale * (_COL_BASE - _COL_TOP) if scale else 0):.2f}"
    cols.append(el("line", {"class": "calc-bar__limit", "x1": 0, "x2": _COL_STEP * n, "y1": y, "y2": y}))
    chart = el("figure", {"class": "calc-figure"},
               el("figcaption", {"class": "calc-subtitle"}, filled(s.get("out.seqlen_caption"), {"gpu": g["name"]})),
               el("svg", {"class": "calc-columns", "viewBox": f"0 0 {_COL_STEP * n} 220",
                          "preserveAspectRatio": "none", "role": "img", "aria-label": s.get("title.seqlen"),
                          "focusable": "false"}, cols),
               el("ol", {"class": "calc-axis", "style": f"--calc-points: {n}", "aria-hidden": "true"},
                  [el("li", {}, ltr(fmt_int(p))) for p in SEQLEN_POINTS]))
    longest = inv["max_seq_len"]
    inverse = el("p", {"class": "calc-inverse"}, filled(s.get("out.max_seq_len"), {"gpu": g["name"]}), ": ",
                 el("span", {"data-calc-output": "max_seq_len", "data-value": longest},
                    counted(s, "tokens", longest) if longest > 0 else s.get("out.none_fits")))
    head = [el("th", {"scope": "col"}, s.get(f"out.{c}")) for c in ("seq_col", "peak_col", "verdict_col")]
    body = [el("tr", {"data-seq-len": p}, el("th", {"scope": "row"}, ltr(fmt_int(p))),
               el("td", {}, bytes_html(r["peak_bytes_per_gpu"], "peak_bytes_per_gpu")),
               el("td", {"class": f"calc-cell calc-cell--{r['gpu']['verdict']}"}, verdict_html(s, r["gpu"]["verdict"])))
            for p, r in zip(SEQLEN_POINTS, rows)]
    return join(chart, inverse, table_html({}, s.get("out.seqlen_table"), head, body))


KINDS: dict[str, Kind] = {
    "estimator": Kind("estimator", ESTIMATOR_FIELDS, {"model": DEFAULT_MODEL, "gpu": DEFAULT_GPU},
                      _results_estimator, _requests_estimator),
    "compare": Kind("compare", ("model", "seq_len", "micro_batch_size", "gpu", "gradient_checkpointing"),
                    {"model": DEFAULT_MODEL, "gpu": DEFAULT_GPU, **_COMPACT}, _results_compare, _requests_compare),
    "fits": Kind("fits", ("gpu", "seq_len", "micro_batch_size", "gradient_checkpointing"),
                 {"gpu": DEFAULT_GPU, **_COMPACT}, _results_fits, _requests_fits),
    "seqlen": Kind("seqlen", ("model", "method", "micro_batch_size", "gpu", "gradient_checkpointing"),
                   {"model": DEFAULT_MODEL, "method": "qlora", "gpu": DEFAULT_GPU, **_COMPACT},
                   _results_seqlen, _requests_seqlen),
}


def summary_text(s: Strings, kind: str, results: list[dict[str, Any]]) -> str:
    """One sentence for the widget's live region: what changed, said once, not the whole table."""
    first = results[0]
    g = first.get("gpu")
    if kind == "estimator" and g:
        return _plain(s.get("out.summary"), {"peak": fmt_bytes(first["peak_bytes_per_gpu"])[0], "gpu": g["name"],
                                              "verdict": s.get(f"verdict.{g['verdict']}")})
    return s.get("out.updated")


def _plain(template: str, values: dict[str, str]) -> str:
    return re.sub(r"\{(\w+)\}", lambda m: values.get(m.group(1), m.group(0)), template)


def render_results(s: Strings, kind: str, state: dict[str, Any], fixed: dict[str, Any] | None = None,
                   ) -> tuple[Html | None, list[dict[str, Any]], list[FieldError]]:
    """The results fragment for a state, the API results it shows, and the API's error (as a field error) if the
    estimator rejects the state."""
    if "gpu" in KINDS[kind].fields and not state.get("gpu"):
        return None, [], [FieldError("gpu", "missing_field")]     # every widget gives its verdict on a card
    results = []
    for request in requests_for(kind, state, fixed):
        out = api.estimate_obj(request)
        if not out["ok"]:
            err = out["error"]
            return None, [], [FieldError(err["field"], err["code"])]
        results.append(out["result"])
    return KINDS[kind].render(s, results, state), results, []


# =====================================================================================================================
# The form (build time only: the page keeps it and reads it)
# =====================================================================================================================
def _fid(wid: str, key: str) -> str:
    return f"{wid}-{key.replace('.', '-').replace('_', '-')}"


def _help_and_error(wid: str, key: str, help_text: Any) -> Html:
    return join(el("p", {"class": "calc-field__help", "id": f"{_fid(wid, key)}-help"}, help_text),
                el("p", {"class": "calc-field__error", "id": f"{_fid(wid, key)}-error", "data-calc-error-for": key,
                         "role": "alert", "hidden": True}))


def _range_hint(s: Strings, spec: InputSpec) -> Html:
    if spec.low is None:
        return join()
    lo, hi = (fmt_int(spec.low), fmt_int(spec.high)) if spec.kind == "int" else (f"{spec.low:g}", f"{spec.high:g}")
    return join(" ", el("span", {"class": "calc-field__range"},
                        filled(s.get("fields.range"), {"min": lo, "max": hi})))


def _number(s: Strings, wid: str, key: str, value: Any, label: Any, help_text: Any, spec: InputSpec | None) -> Html:
    decimal = spec is not None and spec.kind == "float"
    attrs = {"class": "calc-field__input", "id": _fid(wid, key), "type": "text",
             "inputmode": "decimal" if decimal else "numeric", "dir": "ltr",
             "spellcheck": "false", "autocomplete": "off", "data-calc-field": key,
             "value": "" if value is None else value, "aria-describedby": f"{_fid(wid, key)}-help"}
    if spec is not None and spec.low is not None:
        attrs.update({"data-min": spec.low, "data-max": spec.high})
    return el("div", {"class": "calc-field", "data-calc-wrap": key},
              el("label", {"class": "calc-field__label", "for": _fid(wid, key)}, label), el("input", attrs),
              _help_and_error(wid, key, join(help_text, _range_hint(s, spec) if spec else "")))


def _checkbox(wid: str, key: str, value: bool, label: Any, help_text: Any) -> Html:
    return el("div", {"class": "calc-field calc-field--check", "data-calc-wrap": key},
              el("input", {"class": "calc-field__check", "id": _fid(wid, key), "type": "checkbox", "data-calc-field": key,
                           "checked": bool(value), "aria-describedby": f"{_fid(wid, key)}-help"}),
              el("label", {"class": "calc-field__label", "for": _fid(wid, key)}, label),
              _help_and_error(wid, key, help_text))


def _select(wid: str, key: str, label: Any, help_text: Any, options: Html, ltr_text: bool = False) -> Html:
    return el("div", {"class": "calc-field", "data-calc-wrap": key},
              el("label", {"class": "calc-field__label", "for": _fid(wid, key)}, label),
              el("select", {"class": "calc-field__input", "id": _fid(wid, key), "data-calc-field": key,
                            "dir": "ltr" if ltr_text else None, "aria-describedby": f"{_fid(wid, key)}-help"}, options),
              _help_and_error(wid, key, help_text))


def _model_options(value: Any) -> Html:
    families: dict[str, list[ModelArch]] = {}
    for m in MODELS.values():
        families.setdefault(m.family, []).append(m)
    return join(*[el("optgroup", {"label": family},
                     [el("option", {"value": m.id, "selected": m.id == value}, m.name) for m in models])
                  for family, models in families.items()])


def _gpu_options(s: Strings, value: Any) -> Html:
    classes: dict[str, list[Any]] = {}
    for g in GPUS.values():
        classes.setdefault(g.klass, []).append(g)
    return join(*[el("optgroup", {"label": s.get(f"options.gpu_class.{klass}")},
                     [el("option", {"value": g.id, "selected": g.id == value}, g.name) for g in gpus])
                  for klass, gpus in classes.items()])


def _control(s: Strings, wid: str, key: str, value: Any) -> Html:
    """The form control of one request key, from its spec."""
    if key == "model":
        return _select(wid, "model", s.get("fields.model.label"), s.get("fields.model.help"), _model_options(value),
                       ltr_text=True)
    spec = BY_NAME[key]
    label, help_text = s.get(f"fields.{key}.label"), s.get(f"fields.{key}.help")
    if spec.kind == "gpu":
        return _select(wid, key, label, help_text, _gpu_options(s, value))
    if spec.kind == "bool":
        return _checkbox(wid, key, value, label, help_text)
    if spec.kind in ("int", "float"):
        return _number(s, wid, key, value, label, help_text, spec)
    if spec.kind == "enum":
        aliases = {a for a, _b in spec.aliases}
        options = join(*[el("option", {"value": v, "selected": v == value}, s.get(f"options.{key}.{v}"))
                         for v in spec.choices if v not in aliases])
        return _select(wid, key, label, help_text, options)
    if spec.kind == "modules":
        boxes = [el("label", {"class": "calc-targets__item"},
                    el("input", {"type": "checkbox", "value": m, "data-calc-field": key, "checked": m in value}), " ",
                    ltr(el("code", {}, m)))
                 for m in spec.choices if m != "all-linear"]
        return el("fieldset", {"class": "calc-field calc-field--targets", "data-calc-wrap": key,
                               "aria-describedby": f"{_fid(wid, key)}-help"},
                  el("legend", {"class": "calc-field__label"}, label),
                  el("div", {"class": "calc-targets"}, boxes), _help_and_error(wid, key, help_text))
    raise AssertionError(spec)   # pragma: no cover - inputs._check_table admits no other control


def custom_fields() -> list[tuple[str, str]]:
    """The fields a "Custom architecture" carries: every architecture field the estimator reads (configs.ARCH_FIELDS),
    with how the form edits it (int, int_or_null, bool, enum, string)."""
    return [(name, MODEL_FIELD_KINDS[name]) for name in ARCH_FIELDS]


def custom_values(model: dict[str, Any]) -> dict[str, Any]:
    """A result's ``model`` object as the custom fields show it (numbers and text as typed, flags as booleans; a
    field the config leaves unset is empty)."""
    out: dict[str, Any] = {}
    for name, kind in custom_fields():
        v = model.get(name)
        out[name] = bool(v) if kind == "bool" else ("" if v is None else str(v))
    return out


def _model_fieldset(s: Strings, wid: str, state: dict[str, Any], model: dict[str, Any]) -> Html:
    radios = [el("label", {"class": "calc-choice__item"},
                 el("input", {"type": "radio", "name": f"{wid}-model-source", "value": src,
                              "data-calc-control": "model_source", "checked": src == "preset"}),
                 " ", s.get(f"fields.model_source_{src}"))
              for src in ("preset", "custom", "paste")]
    custom = []
    values = custom_values(model)
    for name, kind in custom_fields():
        key = f"model.{name}"
        label = ltr(el("code", {}, name))
        help_text = s.get(f"fields.{key}.help", "")
        if kind == "bool":
            custom.append(_checkbox(wid, key, values[name], label, help_text))
        elif kind == "enum":
            options = join(*[el("option", {"value": v, "selected": v == values[name]},
                                s.get(f"options.qk_norm.{v or 'none'}")) for v in QK_NORMS])
            custom.append(_select(wid, key, label, help_text, options, ltr_text=True))
        elif kind == "string":
            custom.append(el("div", {"class": "calc-field", "data-calc-wrap": key},
                             el("label", {"class": "calc-field__label", "for": _fid(wid, key)}, label),
                             el("input", {"class": "calc-field__input", "id": _fid(wid, key), "type": "text",
                                          "dir": "ltr", "spellcheck": "false", "autocomplete": "off",
                                          "data-calc-field": key, "data-calc-text": True, "value": values[name],
                                          "aria-describedby": f"{_fid(wid, key)}-help"}),
                             _help_and_error(wid, key, help_text)))
        else:
            custom.append(_number(s, wid, key, values[name], label, help_text, None))
    return el("fieldset", {"class": "calc-group calc-group--model"},
              el("legend", {"class": "calc-group__legend"}, s.get("fields.model_source.label")),
              el("div", {"class": "calc-choice", "role": "radiogroup",
                         "aria-describedby": f"{_fid(wid, 'model_source')}-help"}, radios),
              el("p", {"class": "calc-field__help", "id": f"{_fid(wid, 'model_source')}-help"},
                 s.get("fields.model_source.help")),
              el("div", {"class": "calc-source", "data-calc-source": "preset"},
                 el("div", {"class": "calc-field calc-field--filter"},
                    el("label", {"class": "calc-field__label", "for": _fid(wid, "model_filter")},
                       s.get("fields.model_filter.label")),
                    el("input", {"class": "calc-field__input", "id": _fid(wid, "model_filter"), "type": "search",
                                 "dir": "ltr", "spellcheck": "false", "autocomplete": "off",
                                 "data-calc-control": "model_filter",
                                 "aria-describedby": f"{_fid(wid, 'model_filter')}-help"}),
                    el("p", {"class": "calc-field__help", "id": f"{_fid(wid, 'model_filter')}-help"},
                       s.get("fields.model_filter.help"))),
                 _control(s, wid, "model", state["model"] if isinstance(state["model"], str) else "")),
              el("div", {"class": "calc-source calc-grid", "data-calc-source": "custom", "hidden": True}, custom),
              el("div", {"class": "calc-source", "data-calc-source": "paste", "hidden": True},
                 el("div", {"class": "calc-field", "data-calc-wrap": "config"},
                    el("label", {"class": "calc-field__label", "for": _fid(wid, "config")}, s.get("fields.config.label")),
                    el("textarea", {"class": "calc-field__input calc-field__textarea", "id": _fid(wid, "config"),
                                    "rows": 6, "dir": "ltr", "spellcheck": "false", "autocomplete": "off",
                                    "data-calc-field": "config",
                                    "placeholder": '{"hidden_size": 4096, "num_hidden_layers": 32, '
                                                   '"num_attention_heads": 32, "vocab_size": 32000}',
                                    "aria-describedby": f"{_fid(wid, 'config')}-help"}),
                    _help_and_error(wid, "config", s.get("fields.config.help")))))


def _estimator_form(s: Strings, wid: str, state: dict[str, Any], results: list[dict[str, Any]]) -> Html:
    parts = [_model_fieldset(s, wid, state, results[0]["model"])]
    for group in GROUPS:
        keys = [spec.name for spec in INPUTS if spec.group == group and not spec.advanced]
        controls = [_control(s, wid, key, state[key]) for key in keys]
        if group == "batch":
            eff = results[0]["effective_batch_size"]
            controls.append(el("div", {"class": "calc-field calc-field--output"},
                               el("span", {"class": "calc-field__label", "id": f"{_fid(wid, 'effective_batch')}-label"},
                                  s.get("fields.effective_batch.label")),
                               el("output", {"class": "calc-field__value", "data-calc-slot-out": "effective_batch_size",
                                             "aria-labelledby": f"{_fid(wid, 'effective_batch')}-label"},
                                  effective_batch(eff)),
                               el("p", {"class": "calc-field__help"}, s.get("fields.effective_batch.help"))))
        grid = el("div", {"class": "calc-grid"}, controls)
        legend = s.get(f"fields.{group}_group", "")
        attrs = {"class": "calc-group", "data-calc-group": group}
        if group == "lora":
            attrs["hidden"] = state["method"] == "full"
        parts.append(el("fieldset", attrs, el("legend", {"class": "calc-group__legend"}, legend), grid) if legend
                     else el("div", attrs, grid))
    advanced = [_control(s, wid, spec.name, state[spec.name]) for spec in INPUTS if spec.advanced and spec.control]
    parts.append(el("details", {"class": "calc-more"}, el("summary", {}, s.get("fields.advanced")),
                    el("div", {"class": "calc-grid"}, advanced)))
    return join(*parts)


def slots(s: Strings, kind: str, results: list[dict[str, Any]]) -> dict[str, Html]:
    """Parts of a widget outside its results fragment that follow the results: the estimator's sticky summary and
    the effective batch shown among the inputs (``data-calc-slot-out`` names them in the page)."""
    if kind != "estimator":
        return {}
    return {"summary": _summary(s, results[0]),
            "effective_batch_size": effective_batch(results[0]["effective_batch_size"])}


def effective_batch(n: int) -> Html:
    return ltr(fmt_int(n), data_calc_output="effective_batch_size", data_value=n)


def _compact_form(s: Strings, wid: str, kind: str, state: dict[str, Any]) -> Html:
    return el("div", {"class": "calc-grid"}, [_control(s, wid, key, state[key]) for key in KINDS[kind].fields])


# =====================================================================================================================
# Assumptions as a sentence (a widget's fixed keys; the article's shared assumptions)
# =====================================================================================================================
def describe_assumptions(s: Strings, request: dict[str, Any]) -> Html:
    """"label: value" for every request key given, in the input table's order, in the reader's language."""
    parts = []
    for spec in INPUTS:
        if spec.name not in request or spec.name in ("include",):
            continue
        v = request[spec.name]
        if spec.name == "model":
            text: Any = ltr(MODELS[v].name) if isinstance(v, str) and v in MODELS else s.get("out.custom_model")
        elif spec.kind == "gpu":
            text = ltr(GPUS[v].name) if v else s.get("out.none_fits")
        elif spec.kind == "bool":
            text = s.get("out.on") if v else s.get("out.off")
        elif spec.kind == "enum":
            text = s.get(f"options.{spec.name}.{v}")
        elif spec.kind == "modules":
            mods = list(api.check_value(spec, v))
            text = ltr(", ".join(mods))
        elif spec.kind in ("int", "float"):
            text = ltr(fmt_int(v) if spec.kind == "int" else f"{v:g}")
        else:                                    # pragma: no cover - every kind is handled above
            text = str(v)
        label = s.get(f"fields.{spec.name}.label", "") or ltr(spec.name)
        parts.append(el("span", {"class": "calc-assumption", "data-key": spec.name}, label, s.get("out.colon"), text))
    return join(*[join(p, s.get("out.list_sep") if i < len(parts) - 1 else "") for i, p in enumerate(parts)])


# =====================================================================================================================
# A whole widget (build time)
# =====================================================================================================================
def render_widget(s: Strings, kind: str, wid: str, state: dict[str, Any], fixed: dict[str, Any],
                  first: bool) -> Html:
    """The widget as the build writes it: shell, form and the results for ``state``. Raises ``api``'s error as
    ``ValueError(code, field)`` when the estimator rejects the state (the build reports it)."""
    fragment, results, errors = render_results(s, kind, state, fixed)
    if errors:
        raise ValueError(errors[0].code, errors[0].field)
    form = _estimator_form(s, wid, state, results) if kind == "estimator" else _compact_form(s, wid, kind, state)
    fixed_note = el("p", {"class": "calc__fixed"}, s.get("out.fixed"), " ", describe_assumptions(s, fixed)) \
        if fixed else join()
    return el("div", {"class": f"calc calc--{kind}", "id": wid, "data-calc-root": True, "data-calc-kind": kind,
                      "data-calc-state": "loading", "data-calc-defaults": _json_attr(state),
                      "data-calc-fixed": _json_attr(fixed)},
              el("p", {"class": "calc__title"}, s.get(f"title.{kind}")),
              fixed_note,
              el("div", {"class": "calc__state"},
                 el("p", {"class": "calc__status", "data-calc-status": True, "role": "status", "aria-live": "polite"},
                    s.get("status.idle")),
                 el("progress", {"class": "calc__progress", "data-calc-progress": True, "hidden": True,
                                 "aria-label": s.get("status.downloading")})),
              el("noscript", {}, el("p", {"class": "calc__noscript"}, s.get("status.noscript"))),
              el("p", {"class": "calc__notice", "data-calc-notice": True, "role": "status", "hidden": True}),
              el("p", {"class": "calc-sr-only", "data-calc-announce": True, "aria-live": "polite"}),
              el("div", {"class": "calc__body"},
                 el("form", {"class": "calc__form", "data-calc-form": True, "autocomplete": "off", "novalidate": True,
                             "aria-label": s.get("a11y.inputs")},
                    el("fieldset", {"class": "calc__fieldset", "data-calc-fieldset": True, "disabled": True},
                       el("legend", {"class": "calc-sr-only"}, s.get("a11y.inputs")), form),
                    el("p", {"class": "calc__form-error", "data-calc-error-for": "", "role": "alert", "hidden": True})),
                 [el("div", {"class": f"calc__slot calc__slot--{name}", "data-calc-slot-out": name}, part)
                  for name, part in slots(s, kind, results).items() if name == "summary"],
                 el("section", {"class": "calc__results", "data-calc-results": True,
                                "aria-label": s.get("a11y.results")},
                    el("p", {"class": "calc__stale", "data-calc-stale-note": True, "hidden": True},
                       s.get("out.stale")),
                    el("div", {"class": "calc__fragment", "data-calc-fragment": True}, fragment))))


def _json_attr(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


# =====================================================================================================================
# The page's entry point (the worker)
# =====================================================================================================================
class Page:
    """What the page's worker holds: the strings of the page's language. ``render`` takes a JSON message from the
    page script and answers with JSON; it never raises (a bug is answered as ``internal_error``)."""

    def __init__(self, strings_json: str, lang: str) -> None:
        self.s = Strings(json.loads(strings_json), lang)

    def render(self, message: str) -> str:
        try:
            return json.dumps(self._render(json.loads(message)), ensure_ascii=False)
        except Exception:  # noqa: BLE001 - the boundary never raises
            return json.dumps({"ok": False, "errors": [{"field": None, "code": "internal_error",
                                                        "message": str(self.s.get("errors.internal_error", ""))}]})

    def _render(self, msg: dict[str, Any]) -> dict[str, Any]:
        kind = msg["kind"]
        fixed = msg.get("fixed") or {}
        state, errors = read_form(kind, msg.get("raw") or {})
        if not errors:
            fragment, results, errors = render_results(self.s, kind, state, fixed)
        if errors:
            return {"ok": False, "errors": [self._error(e) for e in errors]}
        out: dict[str, Any] = {"ok": True, "html": fragment, "state": state, "slots": slots(self.s, kind, results),
                               "summary": summary_text(self.s, kind, results)}
        if kind == "estimator":
            out["custom"] = custom_values(results[0]["model"])
        return out

    def _error(self, e: FieldError) -> dict[str, Any]:
        return {"field": e.field, "code": e.code, "quiet": e.quiet,
                "message": "" if e.quiet else str(message_for(self.s, e.code, e.field))}
