"""The pieces every widget, article table and inline figure is built from: a figure in bytes, a verdict badge, a
setup ("2 × H100 80GB"), the stacked bar of a breakdown and its legend, a table with its caption, a list of facts,
a value said as a phrase, the assumptions as a sentence. Markup only; the numbers come formatted from ``text``."""
from __future__ import annotations

import functools
from collections.abc import Iterable
from typing import Any

import json

from .. import api, vocab
from ..inputs import INPUTS
from ..values import Phrase, plain_number
from .text import Html, Strings, duration, el, filled, fmt_bytes, fmt_int, join, ltr, money, plain_text, rate

__all__ = ["VERDICT_MARKS", "bytes_html", "verdict_html", "setup_label", "gpu_name", "stacked_bar", "legend",
           "union_breakdown", "table_html", "facts_html", "fit_word", "phrase_html", "bounds_text", "effective_batch",
           "describe_assumptions", "setup_time_cost", "time_cost_text", "stack_html", "stack_name", "write_attr"]


@functools.lru_cache(maxsize=4096)
def bytes_html(value: int, output: str | None = None) -> Html:
    """Bytes as "86.2 GB (80.3 GiB)", the raw figure in data-value."""
    dec, binary = fmt_bytes(value)
    return el("span", {"class": "calc-bytes", "data-calc-output": output, "data-value": value},
              ltr(dec), " ", el("span", {"class": "calc-bytes__alt"}, "(", ltr(binary), ")"))


#: A mark per verdict (vocab.VERDICTS), for tables too narrow for the words (a phone's GPU table): shape and colour
#: both say it.
VERDICT_MARKS = {"comfortable": "✓", "tight": "~", "at_edge": "±", "fits_by_paging": "↕", "does_not_fit": "✗"}


def verdict_html(s: Strings, v: str) -> Html:
    return s.remember(("verdict", v), lambda: el(
        "span", {"class": f"calc-verdict calc-verdict--{v}", "data-verdict": v},
        el("span", {"class": "calc-verdict__mark", "aria-hidden": "true"}, VERDICT_MARKS[v]),
        el("span", {"class": "calc-verdict__word"}, s.get(f"verdict.{v}"))))


def setup_label(n: int, gpu_name: str) -> Html:
    """"2 × H100 80GB" as ONE left-to-right run: isolating the count and the card separately lets an Arabic sentence
    show them as "H100 80GB × 2"."""
    return ltr(f"{n} × {gpu_name}")


def gpu_name(gpu_id: str) -> str:
    return api.GPUS[gpu_id].name


_BAR_W = 1000


def stacked_bar(s: Strings, breakdown: dict[str, int], scale: int, line: int | None, label: str) -> Html:
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


def legend(s: Strings, breakdown: dict[str, int], with_bytes: bool = True) -> Html:
    return el("ul", {"class": "calc-legend"}, [
        el("li", {"class": "calc-legend__item", "data-component": key},
           el("span", {"class": f"calc-swatch calc-c--{key}", "aria-hidden": "true"}),
           el("span", {"class": "calc-legend__name"}, s.get(f"components.{key}")),
           join(" ", bytes_html(value)) if with_bytes else None)
        for key, value in breakdown.items() if value > 0])


def union_breakdown(results: list[dict[str, Any]]) -> dict[str, int]:
    """Every component that is non-zero in at least one result (for a shared legend), in the vocabulary's order."""
    return {k: max(r["breakdown_bytes"].get(k, 0) for r in results) for k in vocab.COMPONENTS} if results else {}


def table_html(attrs: dict[str, Any], caption: Any, head: list[Any], body: list[Any],
               table_class: str = "calc-table", bodies: list[Any] | None = None) -> Html:
    """A table whose caption stays outside the horizontal scroller (so a phone shows it whole); the scroller can be
    reached and scrolled with the keyboard and is named by the caption. ``bodies``: ready ``tbody`` groups instead of
    the one ``body``."""
    return el("figure", {"class": "calc-table-figure", **attrs},
              el("figcaption", {"class": "calc-table-caption"}, caption),
              el("div", {"class": "calc-table-wrap", "tabindex": "0", "role": "region", "aria-label": plain_text(caption)},
                 el("table", {"class": table_class}, el("thead", {}, el("tr", {}, head)),
                    bodies if bodies is not None else el("tbody", {}, body))))


def facts_html(facts: list[tuple[Any, Any]]) -> Html:
    """Terms and their figures, as one description list."""
    return el("dl", {"class": "calc-facts"}, [el("div", {}, el("dt", {}, t), el("dd", {}, v)) for t, v in facts])


def fit_word(s: Strings, ok: bool) -> Html:
    return el("span", {"class": f"calc-fit calc-fit--{'yes' if ok else 'no'}"},
              s.get("out.fits") if ok else s.get("verdict.does_not_fit"))


def names_html(s: Strings, names: Iterable[str]) -> Html:
    """A list of left-to-right names (modules, packages with their versions, file names) inside a sentence: each
    isolated left to right, joined by the language's comma (``out.item_sep``: «، » in Arabic, not a Latin one)."""
    sep = s.get("out.item_sep")
    names = list(names)
    return join(*[join(ltr(name), sep if i < len(names) - 1 else "") for i, name in enumerate(names)])


def phrase_html(s: Strings, phrase: Phrase) -> Any:
    """A value as a sentence says it (values.Phrase): the table's words, a left-to-right run, a number, or a list
    of names, each isolated left to right and joined by the language's comma (``out.item_sep``: «، », ", ")."""
    if phrase.key is not None:
        return s.get(phrase.key)
    if phrase.items is not None:
        return names_html(s, phrase.items)
    if phrase.number is not None:
        return ltr(fmt_int(phrase.number) if phrase.integer else plain_number(phrase.number))
    return ltr(phrase.text)


def bounds_text(low: float, high: float, integer: bool) -> tuple[str, str]:
    """The limits of a number as a range hint and an out-of-range message write them: grouped by thousands, never in
    exponent form ("1 to 4,194,304", "0 to 0.05")."""
    return (fmt_int(low), fmt_int(high)) if integer else (plain_number(low), plain_number(high))


def effective_batch(n: int) -> Html:
    return ltr(fmt_int(n), data_calc_output="effective_batch_size", data_value=n)


def describe_assumptions(s: Strings, request: dict[str, Any]) -> Html:
    """"label: value" for every request key given, in the input table's order, in the reader's language."""
    parts = []
    for spec in INPUTS:
        if spec.name not in request or spec.name in ("include",):
            continue
        text = phrase_html(s, spec.value_kind.describe(spec, request[spec.name]))
        label = s.get(f"fields.{spec.name}.label", "") or ltr(spec.name)
        parts.append(el("span", {"class": "calc-assumption", "data-key": spec.name}, label, s.get("out.colon"), text))
    return join(*[join(p, s.get("out.list_sep") if i < len(parts) - 1 else "") for i, p in enumerate(parts)])


def write_attr(changes: dict[str, Any], fields: tuple[str, ...]) -> str:
    """A button's ``data-calc-write``: the request ``changes`` as the control values to write (the keys the widget
    shows) and the keys beyond its form (``imported``, kept beside it as a pasted config's are); calc.js writes
    them and computes."""
    return json.dumps({"controls": {k: v for k, v in changes.items() if k in fields},
                       "imported": {k: v for k, v in changes.items() if k not in fields}},
                      sort_keys=True, separators=(",", ":"))


def stack_name(s: Strings, r: dict[str, Any]) -> Html:
    """"Training stack: TRL 1.16.": the framework whose defaults an answer was estimated with."""
    return filled(s.get("out.stack"), {"framework": s.get(f"options.framework.{r['inputs']['framework']}")})


def stack_html(s: Strings, r: dict[str, Any], fields: tuple[str, ...] | None = None, brief: bool = False) -> Html:
    """The answer's stack (issue 42, H2): the framework whose defaults it was estimated with, and each key of that
    stack that moves the figure away from the plain stack (``framework`` none), with what it adds (+) or saves (−)
    when that is large; with ``fields`` (the widget's form), a key that adds much is a one-click remedy that takes
    the plain stack's value. ``brief`` (the estimator's strip): the keys that add much alone."""
    framework = r["inputs"]["framework"]
    items = []
    for x in r.get("stack") or ():
        if brief and not (x["large"] and x["delta_bytes"] > 0):
            continue
        setting = describe_assumptions(s, {x["key"]: x["value"]})
        delta = x["delta_bytes"]
        figure = join(" (", ltr(("+" if delta > 0 else "−") + fmt_bytes(abs(delta))[0]), ")") if x["large"] else ""
        button = el("button", {"type": "button", "class": "calc-button",
                               "data-calc-write": write_attr(x["changes"], fields)},
                    filled(s.get("out.stack_apply"), {"setting": describe_assumptions(s, {x["key"]: x["plain"]})})) \
            if fields is not None and x["large"] and delta > 0 else ""
        items.append(el("li", {"data-key": x["key"], "data-value": delta}, setting, figure, " " if button else "",
                        button))
    return el("div", {"class": "calc-stack", "data-calc-output": "stack", "data-framework": framework},
              el("p", {"class": "calc-stack__head"}, stack_name(s, r), " ", s.get("out.stack_moved") if items else ""),
              el("ul", {"class": "calc-stack__keys"}, items) if items else "")


def setup_time_cost(s: Strings, st: dict[str, Any], with_run: bool) -> Html:
    """"1.9 hours, 1.39 USD" for a workload; otherwise speed and cost per million tokens. Remembered per language
    and figures: the GPU table and the chart show the same few dozen of them after every change."""
    key = ("time_cost", with_run, st.get("seconds"), st.get("cost"), st.get("tokens_per_second"),
           st.get("cost_per_million_tokens"))
    return s.remember(key, lambda: time_cost_text(s, st, with_run))


def time_cost_text(s: Strings, st: dict[str, Any], with_run: bool) -> Html:
    if with_run and st.get("seconds") is not None:
        parts: list[Any] = [duration(s, st["seconds"])]
        if st.get("cost") is not None:
            parts += [s.get("out.list_sep"), money(s, st["cost"])]
        return join(*parts)
    parts = [rate(s, st["tokens_per_second"])]
    if st.get("cost_per_million_tokens") is not None:
        parts += [s.get("out.list_sep"), filled(s.get("out.per_million"), {"cost": money(s, st["cost_per_million_tokens"])})]
    return join(*parts)
