"""The full estimator: every input the form shows (and a pasted training config read into them), and its results:
the peak and its verdict on the chosen card (a strip that stays on screen while the inputs are edited), the
breakdown, the counts and files, the time and cost of the run, the remedies, the smallest, fastest and cheapest
setups, the time-against-cost chart and the GPU table; under them, "Run it": the setup as each framework's files
(``page/run.py``)."""
from __future__ import annotations

import math
import re
from typing import Any

from ... import api, vocab
from ...inputs import GROUPS, INPUTS
from .base import DEFAULT_GPU, DEFAULT_MODEL, WidgetKind
from ..form import control, custom_values, field_id, model_fieldset
from ..run import import_box, run_section
from ..pieces import (VERDICT_MARKS, bytes_html, effective_batch, facts_html, fit_word, gpu_name, legend, setup_label,
                      stacked_bar, table_html, verdict_html)
from ..text import (Html, Strings, counted, duration, el, filled, fmt_bytes, fmt_int, fmt_number, fmt_percent, join, ltr,
                    money, plain_text)

__all__ = ["KIND", "FIELDS"]

#: The full estimator edits every key the form shows (inputs.py: ``control``), plus the model.
FIELDS = ("model",) + tuple(s.name for s in INPUTS if s.control is not None)
#: Config fields a pasted model had that the estimator did not read, listed by name in the note (the rest counted).
IGNORED_SHOWN = 40


def _requests(q: dict[str, Any]) -> list[dict[str, Any]]:
    return [q]


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
              stacked_bar(s, r["breakdown_bytes"], scale, g["memory_bytes"], s.get("out.breakdown")))


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


def _results(s: Strings, results: list[dict[str, Any]], state: dict[str, Any]) -> Html:
    r = results[0]
    g = r["gpu"]
    breakdown = el("figure", {"class": "calc-figure"},
                   el("figcaption", {"class": "calc-subtitle"}, s.get("out.breakdown")),
                   legend(s, r["breakdown_bytes"]))
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
    notes = [el("p", {"class": "calc-note", "data-note": n}, s.get(f"notes.{n}")) for n in r["notes"]]
    ignored = r["model"].get("ignored_fields") or []
    if ignored:
        shown = ", ".join(ignored[:IGNORED_SHOWN]) + (" …" if len(ignored) > IGNORED_SHOWN else "")
        notes.append(el("p", {"class": "calc-note", "data-note": "ignored_fields"},
                        filled(s.get("out.ignored_fields"), {"fields": shown})))
    return join(breakdown, facts_html(facts), notes, _time_and_cost(s, r), _remedies(s, r, g), _smallest(s, r),
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


def _time_and_cost(s: Strings, r: dict[str, Any]) -> Html:
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
                spec = api.GPUS[g["id"]]
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
              facts_html(facts), [el("p", {"class": "calc-note"}, n) for n in notes])


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
                              fit_word(s, x["fits_alone"])]
        if x["peak_bytes_cumulative"] is not None:
            figures += [s.get("out.remedy_sep"), s.get("out.remedy_cumulative"), " ",
                        bytes_html(x["peak_bytes_cumulative"]), " ", fit_word(s, x["fits_cumulative"])]
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
                setup_label(ss[key]["num_gpus"], gpu_name(ss[key]["gpu"])), " — ",
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
    return s.remember(key, lambda: _time_cost_text(s, st, with_run))


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
    return s.remember(key, lambda: el(
        "tr", {"data-gpu": row["gpu"], "class": "calc-table__current" if current else None},
        el("th", {"scope": "row"}, ltr(row["name"])), el("td", {}, bytes_html(row["memory_bytes"])),
        [el("td", {"class": f"calc-cell calc-cell--{st['verdict']}"}, verdict_html(s, st["verdict"]),
            el("span", {"class": "calc-cell__time"}, _setup_time_cost(s, st, with_run))
            if st["verdict"] != "does_not_fit" and st.get("tokens_per_second") else "")
         for st in row["setups"]]))


def _form(s: Strings, wid: str, state: dict[str, Any], results: list[dict[str, Any]]) -> Html:
    """The model fieldset, then every key the form shows (inputs.py ``control``) by group, the advanced ones under
    "More settings"; the effective batch among the batch inputs."""
    parts = [import_box(s, wid), model_fieldset(s, wid, state, results[0]["model"])]
    for group in GROUPS:
        keys = [spec.name for spec in INPUTS if spec.group == group and not spec.advanced]
        controls = [control(s, wid, key, state[key]) for key in keys]
        if group == "batch":
            eff = results[0]["effective_batch_size"]
            controls.append(el("div", {"class": "calc-field calc-field--output"},
                               el("span", {"class": "calc-field__label", "id": f"{field_id(wid, 'effective_batch')}-label"},
                                  s.get("fields.effective_batch.label")),
                               el("output", {"class": "calc-field__value", "data-calc-slot-out": "effective_batch_size",
                                             "aria-labelledby": f"{field_id(wid, 'effective_batch')}-label"},
                                  effective_batch(eff)),
                               el("p", {"class": "calc-field__help"}, s.get("fields.effective_batch.help"))))
        grid = el("div", {"class": "calc-grid"}, controls)
        legend = s.get(f"fields.{group}_group", "")
        attrs = {"class": "calc-group", "data-calc-group": group}
        if group == "lora":
            attrs["hidden"] = state["method"] == "full"
        parts.append(el("fieldset", attrs, el("legend", {"class": "calc-group__legend"}, legend), grid) if legend
                     else el("div", attrs, grid))
    advanced = [control(s, wid, spec.name, state[spec.name]) for spec in INPUTS if spec.advanced and spec.control]
    parts.append(el("details", {"class": "calc-more"}, el("summary", {}, s.get("fields.advanced")),
                    el("div", {"class": "calc-grid"}, advanced)))
    return join(*parts)


def _slots(s: Strings, results: list[dict[str, Any]]) -> dict[str, Html]:
    """The sticky summary and the effective batch shown among the inputs (``data-calc-slot-out`` names them)."""
    return {"summary": _summary(s, results[0]),
            "effective_batch_size": effective_batch(results[0]["effective_batch_size"])}


def _summary_text(s: Strings, results: list[dict[str, Any]]) -> str:
    """The live region's sentence: the peak, the card and the verdict."""
    first = results[0]
    g = first.get("gpu")
    if not g:
        return s.get("out.updated")
    return plain_text(filled(s.get("out.summary"), {"peak": fmt_bytes(first["peak_bytes_per_gpu"])[0], "gpu": g["name"],
                                                    "verdict": s.get(f"verdict.{g['verdict']}")}))


KIND = WidgetKind("estimator", FIELDS, {"model": DEFAULT_MODEL, "gpu": DEFAULT_GPU}, _requests, _results, form=_form,
                  slots=_slots, summary=_summary_text, extra=lambda results: {"custom": custom_values(results[0]["model"])},
                  tail=run_section)
