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
from ...inputs import BY_NAME, GROUP_SHOWN_WHEN, GROUPS, INPUTS, LORA_KEYS
from .base import FIRST_SETUP, WidgetKind
from ..form import control, field_id, mirror_controls, model_fieldset, when_attrs
from ..run import import_box, run_section
from ..pieces import (VERDICT_MARKS, bytes_html, effective_batch, facts_html, fit_word, gpu_name, legend, setup_label,
                      phrase_html, setup_time_cost, stack_html, stack_name, stacked_bar, table_html, verdict_html, write_attr)
from ..text import (Html, Strings, counted, duration, el, filled, fmt_bytes, fmt_int, fmt_number, fmt_percent, join, ltr,
                    money, plain_text, rate)

__all__ = ["KIND", "FIELDS", "REGIME_FIELD"]

#: The full estimator edits every key the form shows (inputs.py: ``control``), plus the model.
FIELDS = ("model",) + tuple(s.name for s in INPUTS if s.control is not None)
#: The framework every widget and article starts from (issue 42, H2): none, the plain stack (the input table's
#: defaults: a model loaded in its bf16 checkpoint, pure bf16, the PyTorch AdamW, the full logits). Each answer names
#: the keys by which any other stack moves its figure away from this one (``recommend.stack``), so one baseline is
#: what makes the frameworks comparable; the articles' figures and the compact widgets were already estimated on
#: it, so the calculator page's estimator and its side-by-side give the same figure for the same visible inputs.
DEFAULT_FRAMEWORK = "none"
#: What picking a framework sets in the form: the keys of its training regime (the method, LoRA and memory groups).
#: The method, the batch and sequence (the reader's data), the hardware and the run stay as the reader set them; the
#: framework's defaults for them still fill the request keys the form does not show (calculator/frameworks.py).
FRAMEWORK_FORM_KEYS = tuple(s.name for s in INPUTS if s.control is not None and s.group in ("lora", "memory"))


def framework_form(framework: str, method: str) -> dict[str, Any]:
    """The form's values of FRAMEWORK_FORM_KEYS under ``framework`` for ``method`` (lists for module lists)."""
    values = api.framework_defaults(framework, {"method": method})
    out = {k: values[k] for k in FRAMEWORK_FORM_KEYS}
    out["lora_targets"] = list(api.check_value(BY_NAME["lora_targets"], out["lora_targets"]))
    return out


#: A hidden control of the form: the framework and method whose defaults its regime keys were last filled from
#: ("trl qlora"). A framework or method changed since then is a switch: ``_regime`` applies it.
REGIME_FIELD = "regime"


def _regime_of(state: dict[str, Any]) -> str:
    return f"{state.get('framework')} {state.get('method')}"


def _same(key: str, a: Any, b: Any) -> bool:
    """Two values of a form key, as the estimator reads them (a typed "16" is 16, a list of modules in any order)."""
    try:
        return api.check_value(BY_NAME[key], a) == api.check_value(BY_NAME[key], b)
    except Exception:  # noqa: BLE001 - a value the estimator refuses is the reader's own
        return False


def _regime(state: dict[str, Any], raw: dict[str, Any] | None) -> tuple[dict[str, Any], dict[str, Any]]:
    """The reader's values are the reader's (issue 42, H3): on a switch of framework or method (``REGIME_FIELD``
    names the pair the form was filled from), a regime key (``FRAMEWORK_FORM_KEYS``) still at the old pair's default
    was not set by the reader and takes the new pair's; one the reader set keeps its value (``_marks`` says the
    framework's beside it). Returns the state to answer and the controls to write. A link's state (``raw`` None)
    switches nothing: the form is told which pair it shows; a message without the hidden control, neither."""
    if "framework" not in state or "method" not in state:
        return state, {}
    now = _regime_of(state)
    if raw is None:
        return state, {REGIME_FIELD: now}
    if REGIME_FIELD not in raw or raw[REGIME_FIELD] == now:
        return state, {}
    was, controls = str(raw[REGIME_FIELD]).split(" "), {REGIME_FIELD: now}
    if len(was) != 2 or " ".join(was) == now or was[0] not in BY_NAME["framework"].choices \
            or was[1] not in BY_NAME["method"].choices or now.split(" ")[0] not in BY_NAME["framework"].choices \
            or state.get("method") not in BY_NAME["method"].choices:
        return state, controls
    old, new = framework_form(*was), framework_form(state["framework"], state["method"])
    state = dict(state)
    for key in FRAMEWORK_FORM_KEYS:
        if _same(key, state[key], old[key]) and not _same(key, state[key], new[key]):
            state[key] = controls[key] = new[key]
    return state, controls


def _differing(state: dict[str, Any]) -> dict[str, Any]:
    """The regime keys the reader set away from the chosen framework's defaults for the method (none for framework
    none, whose defaults are the estimator's own; the LoRA keys for full fine-tuning mean nothing)."""
    # a framework or method the form cannot send (a link's "", a typo) is the request's error at its control
    if state.get("framework") not in BY_NAME["framework"].choices or state.get("framework") == "none" \
            or state.get("method") not in BY_NAME["method"].choices:
        return {}
    fw = framework_form(state["framework"], state["method"])
    return {k: fw[k] for k in FRAMEWORK_FORM_KEYS
            if not (state["method"] == "full" and k in LORA_KEYS) and not _same(k, state[k], fw[k])}


def _marks(s: Strings, state: dict[str, Any]) -> dict[str, Html]:
    """Beside each regime key the reader set away from the framework's default: "TRL's default: 16"; beside the
    framework, the one action that takes all of its values."""
    theirs = _differing(state)
    if not theirs:
        return {}
    name = s.get(f"options.framework.{state['framework']}")
    out = {k: filled(s.get("out.framework_default"), {"framework": name, "value": phrase_html(
        s, BY_NAME[k].value_kind.describe(BY_NAME[k], v))}) for k, v in theirs.items()}
    out["framework"] = el("button", {"type": "button", "class": "calc-button",
                                     "data-calc-write": write_attr(theirs, FIELDS)},
                          filled(s.get("out.framework_take"), {"framework": name}))
    return out


#: Config fields a pasted model had that the estimator did not read, listed by name in the note (the rest counted).
IGNORED_SHOWN = 40


#: The estimator's answer asked in three parts (the API's ``include``: each part's answer carries the estimate and
#: what it includes), so that the worker answers them in three Python calls: the longest sequence and micro-batch
#: (a bisection each), the remedies, and the GPU table with the smallest, fastest and cheapest setups. ``_combine``
#: joins them into the one answer the request with every part gives; tests/unit/test_widget_markup.py holds them equal.
PARTS = (("inverse",), ("remedies",), ("gpu_table", "smallest_setup"))


def _requests(q: dict[str, Any]) -> list[dict[str, Any]]:
    return [{**q, "include": list(part)} for part in PARTS]


def _combine(results: list[dict[str, Any]]) -> list[dict[str, Any]]:
    joined: dict[str, Any] = {}
    for r in results:
        joined.update(r)
    return [joined]


def _summary(s: Strings, r: dict[str, Any]) -> Html:
    """The estimator's headline (peak, verdict, share of the card, range, the bar against the card): it stays on
    screen while the reader edits the inputs (a sticky strip between the form and the rest of the results)."""
    g = r["gpu"]
    scale = max(r["peak_bytes_per_gpu"], g["memory_bytes"])
    return el("div", {"class": "calc-peak", "data-calc-summary": True},
              el("p", {"class": "calc-peak__label"}, s.get("out.peak")),
              el("p", {"class": "calc-peak__value"}, bytes_html(r["peak_bytes_per_gpu"], "peak_bytes_per_gpu"), " ",
                 el("span", {"class": "calc-peak__phase", "data-calc-output": "phase", "data-value": r["phase"]},
                    s.get(f"phase_at.{r['phase']}"))),
              el("p", {"class": "calc-peak__verdict"}, filled(s.get("out.verdict_on"), {"gpu": g["name"]}), " ",
                 el("span", {"data-calc-output": "gpu.verdict", "data-value": g["verdict"]}, verdict_html(s, g["verdict"])),
                 " ", el("span", {"class": "calc-peak__share", "data-calc-output": "gpu.share_of_memory",
                                  "data-value": g["share_of_memory"]},
                         filled(s.get("out.share_range" if g["verdict"] == "at_edge" else "out.share"),
                                {"share": fmt_percent(g["share_of_memory"], 0),
                                 "low": fmt_percent(g["range_share"][0], 0),
                                 "high": fmt_percent(g["range_share"][1], 0)}))),
              el("p", {"class": "calc-peak__range"}, s.get("out.range"), ": ",
                 bytes_html(r["range"]["low_bytes"], "range.low_bytes"), " ", s.get("out.range_sep"), " ",
                 bytes_html(r["range"]["high_bytes"], "range.high_bytes")),
              _paging_line(s, g),
              _experts_line(s, r),
              _data_parallel_line(s, r),
              stack_html(s, r, FIELDS, brief=True),
              _run_line(s, r),
              stacked_bar(s, r["breakdown_bytes"], scale, g["memory_bytes"], s.get("out.breakdown")))


def _experts_line(s: Strings, r: dict[str, Any]) -> Html:
    """A MoE QLoRA whose experts stay 16/32-bit: the reason for its large peak and the remedy, in the strip (the
    note itself, at length, stays with the other notes)."""
    if "experts_quantized" not in r:
        return join()
    return el("p", {"class": "calc-peak__experts", "data-note": "experts_not_quantized"},
              filled(s.get("out.experts_quantized"),
                     {"peak": bytes_html(r["experts_quantized"]["peak_bytes_per_gpu"],
                                           "experts_quantized.peak_bytes_per_gpu")}))


def fits(r: dict[str, Any]) -> bool:
    """Whether the chosen setup fits its card (tight allowed: recommend's rule). A setup that does not fit cannot
    run, so no speed, time or cost is shown for it as an answer; the page points to the setups that fit."""
    return r["gpu"]["verdict"] != "does_not_fit"


def _elsewhere(s: Strings, r: dict[str, Any], tag: str = "span") -> list[Html]:
    """The fastest and the cheapest setups that fit (``_winners``); "nothing fits" when none does."""
    items = _winners(s, r, tag)
    if not items and "fastest_setup" in r:
        items = [el(tag, {"class": "calc-elsewhere", "data-setup": "none"}, s.get("out.smallest_none"))]
    return items


def _winners(s: Strings, r: dict[str, Any], tag: str) -> list[Html]:
    """The fastest and the cheapest setups that fit, each with its time and cost (or speed and cost per million
    tokens without a workload); a datasheet-only winner is marked, with the measured winner beside it."""
    with_run = "run" in r
    chosen = []
    for key in ("fastest", "cheapest"):
        best = r.get(f"{key}_setup")
        if not best:
            continue
        chosen.append((key, best))
        measured = r.get(f"{key}_measured_setup")
        # a datasheet-only winner is said as such, with the winner among the cards a measured run backs beside it
        if _datasheet(best) and measured and (measured["gpu"], measured["num_gpus"]) != (best["gpu"], best["num_gpus"]):
            chosen.append((f"{key}_measured", measured))
    return [el(tag, {"class": "calc-elsewhere", "data-setup": key, "data-gpu": best["gpu"],
                     "data-num-gpus": best["num_gpus"]},
               s.get(f"out.{key}"), " ", setup_label(best["num_gpus"], best["name"]), " — ",
               setup_time_cost(s, best, with_run), _datasheet_note(s, best))
            for key, best in chosen]


def _datasheet(entry: dict[str, Any] | None) -> bool:
    """The entry's time rests on its card's datasheet alone (``evidence``: no usable measured run on the card)."""
    return bool(entry) and (entry.get("evidence") or {}).get("basis") == "datasheet"


def _datasheet_note(s: Strings, entry: dict[str, Any] | None) -> Html:
    """" (from the card's datasheet only: ...)" after a time that rests on the datasheet alone, else nothing."""
    if not _datasheet(entry):
        return join()
    return el("span", {"class": "calc-evidence", "data-evidence": "datasheet"}, " (", s.get("out.datasheet_only"), ")")


def _paging_line(s: Strings, g: dict[str, Any]) -> Html:
    """A setup that fits only by paging says what crosses the host link and how much slower a step is."""
    paging = g.get("paging")
    if g["verdict"] != "fits_by_paging" or not paging:
        return join()
    parts: list[Any] = [filled(s.get("out.paging"), {"evicted": bytes_html(paging["evicted_bytes"]), "gpu": g["name"]})]
    if paging.get("slowdown"):
        parts += [" ", filled(s.get("out.paging_slowdown"), {"factor": ltr(fmt_number(paging["slowdown"], 1))})]
    return el("p", {"class": "calc-note", "data-note": "paging", "data-calc-output": "gpu.paging.slowdown",
                    "data-value": paging.get("slowdown")}, parts)


def _data_parallel_line(s: Strings, r: dict[str, Any]) -> Html:
    """Several cards without sharding: each holds a full copy (DDP), and what ZeRO-3 on the same cards gives."""
    dp = r.get("data_parallel")
    if not dp:
        return join()
    return el("p", {"class": "calc-note", "data-note": "data_parallel",
                    "data-calc-output": "data_parallel.sharded_peak_bytes_per_gpu",
                    "data-value": dp["sharded_peak_bytes_per_gpu"]},
              filled(s.get("out.data_parallel"), {"n": counted(s, "cards", dp["num_gpus"]),
                                                  "sharded": bytes_html(dp["sharded_peak_bytes_per_gpu"])}))


def _run_line(s: Strings, r: dict[str, Any]) -> Html:
    """The run's time and cost in the summary strip, or the speed when no workload is given; for a setup that does
    not fit, that it is not estimated and where the run fits instead."""
    run, tp = r.get("run"), r.get("throughput")
    if not fits(r):
        label = s.get("out.run") if "run" in r else s.get("out.speed_per_gpu")
        elsewhere = _elsewhere(s, r)
        return el("p", {"class": "calc-peak__run", "data-calc-output": "run", "data-fits": "false"},
                  label, s.get("out.colon"), s.get("out.run_not_fit"),
                  el("span", {"class": "calc-peak__elsewhere"},
                     [join(s.get("out.list_sep") if i else " ", x) for i, x in enumerate(elsewhere)]) if elsewhere
                  else join())
    if run:
        parts: list[Any] = [el("span", {"data-calc-output": "run.seconds", "data-value": run["seconds"]},
                               duration(s, run["seconds"]))]
        if run.get("cost") is not None:
            parts += [s.get("out.list_sep"), el("span", {"data-calc-output": "run.cost", "data-value": run["cost"]},
                                                money(s, run["cost"], run["currency"]))]
        return el("p", {"class": "calc-peak__run"}, s.get("out.run"), s.get("out.colon"), parts,
                  _datasheet_note(s, tp))
    if tp:
        return el("p", {"class": "calc-peak__run"}, s.get("out.speed_per_gpu"), s.get("out.colon"),
                  el("span", {"data-calc-output": "throughput.tokens_per_second_per_gpu",
                              "data-value": tp["tokens_per_second_per_gpu"]}, rate(s, tp["tokens_per_second_per_gpu"])),
                  _datasheet_note(s, tp))
    return join()


def _phases(s: Strings, r: dict[str, Any]) -> Html:
    """The memory allocated at each phase of a step, the peak's phase marked: a change that lowers another phase
    (checkpointing lowers the backward pass) shows here even when the peak stays where it is."""
    phases = r.get("phases_allocated_bytes") or {}
    items = [el("li", {"class": "calc-phase" + (" calc-phase--peak" if p == r["phase"] else ""), "data-phase": p},
                el("span", {"class": "calc-phase__name"}, s.get(f"phases.{p}")), s.get("out.colon"),
                bytes_html(phases[p]), join(" ", el("strong", {}, s.get("out.phase_peak"))) if p == r["phase"] else "")
             for p in vocab.PHASES if p in phases]
    return el("div", {"class": "calc-block", "data-calc-output": "phases"},
              el("p", {"class": "calc-subtitle"}, s.get("out.phases")),
              el("ol", {"class": "calc-phases"}, items),
              el("p", {"class": "calc-note"}, s.get("out.phases_note")))


def _phase_bar(s: Strings, resident: int, own: int, scale: int) -> Html:
    """One GRPO phase against the peak phase: the part resident across phases, then the phase's own (mirrored in
    RTL). The figures are the row's cells: the bar is drawn for the eye alone."""
    parts, x = [], 0.0
    for key, value in (("weights", resident), ("activations", own)):
        w = value / scale * 1000 if scale > 0 else 0.0
        left = 1000 - x - w if s.rtl else x
        parts.append(el("rect", {"class": f"calc-c calc-c--{key}", "x": f"{left:.2f}", "y": 2, "width": f"{w:.2f}",
                                 "height": 24}))
        x += w
    return el("svg", {"class": "calc-bar", "viewBox": "0 0 1000 28", "preserveAspectRatio": "none",
                      "aria-hidden": "true", "focusable": "false"}, parts)


def _grpo(s: Strings, r: dict[str, Any]) -> Html:
    """GRPO phase by phase (the answer's ``grpo``): each phase's allocated memory on the trainer's GPU with the part
    that stays resident across phases and a bar against the peak phase (marked), the peak as the driver shows it, a
    colocated vLLM's claim and pool, and the time of one optimizer step by phase (the dominant one marked)."""
    g = r.get("grpo")
    if not g:
        return ""
    scale = max([g["peak_allocated_bytes"]] + [ph["allocated_bytes"] for ph in g["phases"]])
    rows = []
    for ph in g["phases"]:
        peak = ph["phase"] == g["peak_phase"]
        resident = min(g["resident_bytes"], ph["allocated_bytes"])
        rows.append(el("tr", {"data-phase": ph["phase"], "class": "calc-table__current" if peak else None},
                       el("th", {"scope": "row"}, s.get(f"out.grpo.phase.{ph['phase']}"),
                          join(" ", el("strong", {}, s.get("out.grpo.peak_mark"))) if peak else ""),
                       el("td", {}, bytes_html(ph["allocated_bytes"])), el("td", {}, bytes_html(resident)),
                       el("td", {"class": "calc-grpo__bar"},
                          _phase_bar(s, resident, ph["allocated_bytes"] - resident, scale))))
    head = [el("th", {"scope": "col"}, s.get(f"out.grpo.{c}"))
            for c in ("col_phase", "col_allocated", "col_resident", "col_bar")]
    key = el("ul", {"class": "calc-legend"}, [
        el("li", {"class": "calc-legend__item"},
           el("span", {"class": f"calc-swatch calc-c--{c}", "aria-hidden": "true"}),
           el("span", {"class": "calc-legend__name"}, s.get(f"out.grpo.{name}")))
        for c, name in (("weights", "resident"), ("activations", "own"))])
    facts = [(s.get("out.grpo.peak_driver"), bytes_html(g["peak_bytes_per_gpu"], "grpo.peak_bytes_per_gpu"))]
    v = g.get("vllm")
    if v:
        facts += [(s.get("out.grpo.vllm_claim"), bytes_html(v["claim_bytes"])),
                  (s.get("out.grpo.vllm_pool"), join(bytes_html(v["kv_pool_bytes"]), " — ", filled(
                      s.get("out.grpo.vllm_seqs"), {"n": ltr(fmt_int(v["sequences_at_once"])),
                                                    "rows": ltr(fmt_int(v["max_num_seqs"]))})))]
    parts = [table_html({"class": "calc-table-figure calc-grpo", "data-calc-output": "grpo"}, s.get("out.grpo.title"),
                        head, rows), key, facts_html(facts)]
    t = g.get("time")
    if t:
        trows = [el("tr", {"data-phase": phase, "class": "calc-table__current" if phase == t["dominant"] else None},
                      el("th", {"scope": "row"}, s.get(f"out.grpo.phase.{phase}"),
                         join(" ", el("strong", {}, s.get("out.grpo.dominant"))) if phase == t["dominant"] else ""),
                      el("td", {}, duration(s, sec)))
                 for phase, sec in t["seconds"].items() if sec]
        trows.append(el("tr", {}, el("th", {"scope": "row"}, s.get("out.grpo.step")),
                        el("td", {}, duration(s, t["step_s"]))))
        parts.append(table_html({"class": "calc-table-figure", "data-calc-output": "grpo.time"},
                                filled(s.get("out.grpo.time"), {"gpu": r["gpu"]["name"]}),
                                [el("th", {"scope": "col"}, s.get(f"out.grpo.{c}")) for c in ("col_phase", "col_time")],
                                trows))
    return el("div", {"class": "calc-block"}, parts)


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
        if out not in r:                   # GRPO: the inverse solver is supervised training's (answer.py)
            continue
        value = r[out]
        shown = (counted(s, noun, value) if noun else ltr(fmt_int(value))) if value > 0 else s.get("out.none_fits")
        facts.append((filled(s.get(f"out.{key}"), {"gpu": g["name"]}),
                      el("span", {"data-calc-output": out, "data-value": value}, shown)))
    notes = [el("p", {"class": "calc-note", "data-note": n}, s.get(f"notes.{n}")) for n in r["notes"]]
    if r.get("resolved"):                  # a fine-tune, mirror, format suffix or owner-less name: what it was read as
        rv = r["resolved"]
        notes.insert(0, el("p", {"class": "calc-note", "data-note": "resolved"},
                           filled(s.get("out.resolved"), {"from": rv["from"], "name": rv["name"], "repo": rv["repo"]})))
    ignored = r["model"].get("ignored_fields") or []
    if ignored:
        shown = ", ".join(ignored[:IGNORED_SHOWN]) + (" …" if len(ignored) > IGNORED_SHOWN else "")
        notes.append(el("p", {"class": "calc-note", "data-note": "ignored_fields"},
                        filled(s.get("out.ignored_fields"), {"fields": shown})))
    # What the chosen card changed to run the setup, and its caveats (recommend.runnable): these figures are for that.
    notes += [el("p", {"class": "calc-note calc-note--adjusted", "data-note": n},
                 filled(s.get(f"out.adjusted.{n}"), {"gpu": g["name"]})) for n in r.get("adjusted") or []]
    notes += [el("p", {"class": "calc-note", "data-note": n}, filled(s.get(f"out.card_notes.{n}"), {"gpu": g["name"]}))
              for n in r.get("card_notes") or []]
    return join(stack_html(s, r, FIELDS), breakdown, _phases(s, r), _grpo(s, r), facts_html(facts), notes, _time_and_cost(s, r), _remedies(s, r, g), _smallest(s, r),
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
        label = f"{n} × {name}: {plain_text(setup_time_cost(s, st, with_run))}"
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
    title = el("p", {"class": "calc-subtitle"},
               filled(s.get("out.time_title"), {"setup": setup_label(r["inputs"]["num_gpus"], g["name"])}))
    if not fits(r):
        return el("div", {"class": "calc-block", "data-calc-output": "throughput", "data-fits": "false"}, title,
                  el("p", {"class": "calc-note", "data-note": "does_not_fit"},
                     filled(s.get("out.time_not_fit"), {"setup": setup_label(r["inputs"]["num_gpus"], g["name"])})),
                  el("ul", {"class": "calc-plain"}, _elsewhere(s, r, "li")))
    if not tp:
        if r.get("time_error"):      # a time the estimator refuses to guess (fp32 training, a card with no peak)
            return el("div", {"class": "calc-block", "data-calc-output": "throughput"},
                      el("p", {"class": "calc-note", "data-note": r["time_error"]},
                         filled(s.get(f"out.time_error.{r['time_error']}"), {"gpu": g["name"]})))
        return join()
    per_s = lambda n: rate(s, n)  # noqa: E731
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
    return el("div", {"class": "calc-block", "data-calc-output": "throughput"}, title,
              facts_html(facts), [el("p", {"class": "calc-note"}, n) for n in notes])


def _remedies(s: Strings, r: dict[str, Any], g: dict[str, Any]) -> Html:
    """The remedies in recommend's order (by what they save), each alone and on top of the steps above it (with what that step saves,
    so a step that saves little says so); a step that alone raises the peak (LoRA or QLoRA without checkpointing:
    the adapters' activations) is marked and explained under the list."""
    steps = r.get("remedies") or []
    title = el("p", {"class": "calc-subtitle"}, filled(s.get("out.remedies"), {"gpu": g["name"]}))
    if not steps:
        return el("div", {"class": "calc-block", "data-calc-output": "remedies"}, title,
                  el("p", {}, s.get("out.remedies_none")))
    items, raised, before = [], False, r["peak_bytes_per_gpu"]
    for x in steps:
        kind = vocab.remedy(x["remedy"])
        name = filled(s.get(f"remedies.{x['remedy']}"),
                      {"n": counted(s, kind.noun, x["changes"][kind.amount])} if kind.amount else {})
        more = x["peak_bytes_alone"] > r["peak_bytes_per_gpu"]
        raised = raised or more
        figures: list[Any] = [s.get("out.remedy_alone"), " ", bytes_html(x["peak_bytes_alone"]), " ",
                              fit_word(s, x["fits_alone"]),
                              join(" ", el("span", {"class": "calc-remedy__more"}, s.get("out.remedy_more"))) if more
                              else ""]
        if x["peak_bytes_cumulative"] is not None:
            saved = before - x["peak_bytes_cumulative"]
            before = x["peak_bytes_cumulative"]
            figures += [s.get("out.remedy_sep"), s.get("out.remedy_cumulative"), " ",
                        bytes_html(x["peak_bytes_cumulative"]), " ",
                        el("span", {"class": "calc-remedy__saved", "data-value": saved},
                           filled(s.get("out.remedy_saves"), {"saved": fmt_bytes(saved)[0]})), " ",
                        fit_word(s, x["fits_cumulative"])]
        elif x["remedy"] == "sharding" and (x.get("num_gpus_cumulative") or 0) > 1 and \
                not any(y["fits_cumulative"] for y in steps):
            figures += [s.get("out.remedy_sep"), filled(s.get("out.remedy_cumulative_cards"),
                                                        {"n": counted(s, "cards", x["num_gpus_cumulative"])})]
        items.append(el("li", {"class": "calc-remedy", "data-remedy": x["remedy"],
                               "data-alternative": x["peak_bytes_cumulative"] is None, "data-raises": more},
                        el("span", {"class": "calc-remedy__name"}, name), " ",
                        el("span", {"class": "calc-remedy__figures"}, figures)))
    note = el("p", {"class": "calc-note", "data-note": "remedy_raises"}, s.get("out.remedy_raises")) if raised \
        else join()
    return el("div", {"class": "calc-block", "data-calc-output": "remedies"}, title,
              el("ol", {"class": "calc-remedies"}, items), note)


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
    items += _winners(s, r, "li")          # as the summary says them
    return el("div", {"class": "calc-block", "data-calc-output": "smallest_setup"}, title,
              el("ul", {"class": "calc-plain"}, items))


def _gpu_table(s: Strings, r: dict[str, Any], state: dict[str, Any]) -> Html:
    """Every card in the counts it is sold or rented in (a column per count that exists for some card; "—" where a
    card has no such setup), grouped by class in one ``tbody`` each with its class as a row header, the reader's card
    highlighted; a card that cannot run the setup says so across its row, one that runs it adjusted (fp16 on a card
    without bf16) is marked. Above it, a class filter (radios the page script applies to the groups: no recompute)."""
    table = r.get("gpu_table") or []
    if not table:
        return join()
    # the per-card peak of each count, as asked and sharded (a card that adjusts the setup differs; one that holds it
    # whole runs DDP, its cell marked)
    peaks: dict[int, int] = {}
    for row in sorted(table, key=lambda row: bool(row.get("adjusted"))):
        for st in sorted(row["setups"], key=lambda st: st.get("parallelism") == "ddp"):
            if st.get("parallelism") != "ddp" or st["num_gpus"] not in peaks:
                peaks.setdefault(st["num_gpus"], st["peak_bytes_per_gpu"])
    counts = sorted(peaks)
    head = [el("th", {"scope": "col"}, s.get("out.gpu_col")), el("th", {"scope": "col"}, s.get("out.memory_col"))]
    head += [el("th", {"scope": "col"}, filled(s.get("out.cards_col"), {"n": n}), el("br"), bytes_html(peaks[n]))
             for n in counts]
    classes: dict[str, list[dict[str, Any]]] = {}
    for row in table:
        classes.setdefault(row["klass"], []).append(row)
    with_run = bool(r.get("run"))
    bodies = [el("tbody", {"data-gpu-class": klass},
                 el("tr", {"class": "calc-table__group"},
                    el("th", {"scope": "rowgroup", "colspan": len(counts) + 2}, s.get(f"options.gpu_class.{klass}"))),
                 [_gpu_row(s, row, counts, row["gpu"] == state.get("gpu"), with_run) for row in rows])
              for klass, rows in classes.items()]
    g = r["gpu"]
    dec, binary = fmt_bytes(g["memory_bytes"])
    # the reader's several cards without sharding are not the table's: its every count follows the caption's rule
    dp = r.get("data_parallel")
    yours = join(filled(s.get("out.gpu_table_ddp"), {"n": counted(s, "cards", dp["num_gpus"]),
                                                     "peak": bytes_html(r["peak_bytes_per_gpu"])}), " ") if dp else ""
    caption = join(f"{s.get('out.gpu_table')}. {s.get('out.gpu_table_caption')} ", yours,
                   filled(s.get("out.gpu_table_memory"), {"gpu": g["name"], "gib": binary, "gb": dec}), " ",
                   stack_name(s, r))
    marks = el("p", {"class": "calc-marks", "aria-hidden": "true"},
               [join(el("span", {"class": f"calc-verdict calc-verdict--{v}"}, m), " ", s.get(f"verdict.{v}"), " ")
                for v, m in VERDICT_MARKS.items()])
    current = next((row["klass"] for row in table if row["gpu"] == state.get("gpu")), None)
    choices = [("all", s.get("out.gpu_class_all"))] + [
        (k, plain_text(filled(s.get("out.gpu_class_yours"), {"klass": s.get(f"options.gpu_class.{k}")})) if k == current
         else s.get(f"options.gpu_class.{k}")) for k in classes]
    # a label around its drop-down (no id: two estimators may share a page); the fragment is outside the form
    filter_html = el("p", {"class": "calc-classes"},
                     el("label", {"class": "calc-classes__label"}, s.get("out.gpu_class_filter"), " ",
                        el("select", {"class": "calc-classes__select", "data-calc-gpu-class": True},
                           [el("option", {"value": k, "selected": k == "all"}, label) for k, label in choices])))
    return join(filter_html, table_html({"data-calc-output": "gpu_table"}, join(caption, marks), head, [],
                                        "calc-table calc-table--gpus", bodies=bodies))


def _gpu_row(s: Strings, row: dict[str, Any], counts: list[int], current: bool, with_run: bool) -> Html:
    """One card's row of the GPU table, remembered per language and figures (after a change most rows are the same
    as before: the card, its verdicts and times do not depend on which card the reader chose)."""
    refused = (row.get("unsupported") or {}).get("reason")
    datasheet = any(_datasheet(st) for st in row["setups"])      # its times rest on its datasheet alone
    key = ("gpu_row", row["gpu"], tuple(counts), current, with_run, refused, tuple(row.get("adjusted", ())), datasheet,
           tuple((st["num_gpus"], st["verdict"], st.get("tokens_per_second"), st.get("seconds"), st.get("cost"),
                  st.get("cost_per_million_tokens"), st.get("parallelism")) for st in row["setups"]))

    def cells() -> list[Html]:
        if row.get("unsupported"):
            return [el("td", {"class": "calc-cell calc-cell--unsupported", "colspan": len(counts)},
                       el("strong", {}, s.get("out.gpu_unsupported")), ": ", s.get(f"errors.reasons.{refused}"))]
        by_count = {st["num_gpus"]: st for st in row["setups"]}
        out = []
        for n in counts:
            st = by_count.get(n)
            if st is None:
                out.append(el("td", {"class": "calc-cell calc-cell--none"},
                              el("span", {"aria-hidden": "true"}, "—"),
                              el("span", {"class": "calc-sr-only"}, s.get("out.not_offered"))))
                continue
            ddp = st.get("parallelism") == "ddp"
            out.append(el("td", {"class": f"calc-cell calc-cell--{st['verdict']}",
                                 "data-parallelism": st.get("parallelism")}, verdict_html(s, st["verdict"]),
                          el("span", {"class": "calc-cell__time"}, setup_time_cost(s, st, with_run))
                          if st["verdict"] != "does_not_fit" and st.get("tokens_per_second") else "",
                          join(" ", el("span", {"class": "calc-cell__ddp"}, ltr(s.get("out.ddp_mark")))) if ddp
                          else ""))
        return out

    def draw() -> Html:
        mark = el("span", {"class": "calc-table__adjusted"}, s.get("out.adjusted_mark")) if row.get("adjusted") else ""
        sheet = el("span", {"class": "calc-table__datasheet", "data-evidence": "datasheet"},
                   s.get("out.datasheet_mark")) if datasheet else ""
        return el("tr", {"data-gpu": row["gpu"], "class": "calc-table__current" if current else None,
                         "aria-current": "true" if current else None},
                  el("th", {"scope": "row"}, ltr(row["name"]), el("br") if mark else "", mark,
                     el("br") if sheet else "", sheet),
                  el("td", {}, bytes_html(row["memory_bytes"])), cells())
    return s.remember(key, draw)


def _form(s: Strings, wid: str, state: dict[str, Any], results: list[dict[str, Any]]) -> Html:
    """The model fieldset, then every key the form shows (inputs.py ``control``) by group, the advanced ones under
    "More settings"; the effective batch among the batch inputs."""
    parts = [import_box(s, wid), model_fieldset(s, wid, state, results[0]["model"]),
             el("input", {"type": "hidden", "data-calc-field": REGIME_FIELD, "value": _regime_of(state)})]
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
        attrs = {"class": "calc-group", "data-calc-group": group, **when_attrs(GROUP_SHOWN_WHEN.get(group), state)}
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


KIND = WidgetKind("estimator", FIELDS, {"framework": DEFAULT_FRAMEWORK,
                                        **framework_form(DEFAULT_FRAMEWORK, FIRST_SETUP["method"]), **FIRST_SETUP},
                  _requests, _results, form=_form,
                  slots=_slots, summary=_summary_text, regime=_regime, marks=_marks,
                  controls=lambda results, raw: mirror_controls(raw, results[0]["model"]), model_sources=True,
                  tail=run_section, combine=_combine)
