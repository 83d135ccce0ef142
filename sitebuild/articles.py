"""What the build alone computes into an article (no JavaScript): the article tables, the inline figures of the
prose and the sentence that states the article's shared assumptions. Every number comes from the estimator when
the page is built, and is formatted by ``calculator.display`` / ``calculator.widgets`` like the widgets' figures.

An article's shared assumptions are its front matter's ``calc:`` mapping (identical in both language files); an
inline figure starts from them and applies its marker's own keys.
"""
from __future__ import annotations

from typing import Any

from mkdocs.exceptions import PluginError

from calculator import vocab
from calculator.catalog import GPUS, MODELS
from calculator.display import Html, Strings, duration, el, filled, fmt_bytes, fmt_count, fmt_int, fmt_number, \
    fmt_percent, join, ltr, money
from calculator.widgets import bytes_html, describe_assumptions, setup_label, table_html, verdict_html

from . import compute
from .markers import Marker

# ---------------------------------------------------------------------------------------------------------------
# Article tables
# ---------------------------------------------------------------------------------------------------------------
#: The models standing for each size class in the VRAM guide.
TABLE_SIZES = (("7B", "llama-2-7b"), ("13B", "llama-2-13b"), ("34B", "qwen2.5-32b"), ("70B", "llama-2-70b"))
TABLE_CARD = "h100-80gb"                 # the guide's "80 GB" node card (A100 80GB has slightly more memory)
TABLE_COUNTS = (1, 2, 4, 8)              # several cards are sharded with ZeRO-3 / FSDP full shard
#: Pure bf16 with fused AdamW (torchtune's full fine-tuning recipes), checkpointing on: the setting under which the
#: guide's "13B on 2 x 80 GB, 34B on 4 x 80 GB, 70B on 8 x 80 GB" holds (tests/unit/test_source_claims.py). A marker
#: may override any of them; the caption lists the ones used.
TABLE_ASSUMPTIONS: dict[str, Any] = {
    "precision": "bf16", "optimizer": "adamw_torch_fused", "lora_rank": 16, "lora_targets": "all-linear",
    "seq_len": 2048, "micro_batch_size": 1, "grad_accum_steps": 1, "gradient_checkpointing": True,
    "attention": "sdpa",
}
#: The GPU classes of the guide, each stood for by one card, and the methods (with the settings that make a method
#: a different recommendation) the table answers for: per class and method, the largest of TABLE_SIZES that fits one
#: card (tight counts) and the next size up.
TABLE_CLASSES = (("24 GB", "rtx-4090"), ("48 GB", "l40s"), ("80 GB", "h100-80gb"))
TABLE_CLASS_METHODS = (("full", {}), ("full", {"optimizer": "adamw_8bit"}), ("lora", {}), ("qlora", {}))
METHODS = ("full", "lora", "qlora")


def render_table(s: Strings, marker: Marker, article: dict[str, Any], where: str) -> Html:
    """A table starts from the article's shared assumptions (else TABLE_ASSUMPTIONS), then the marker's own keys;
    its caption lists the assumptions it used."""
    assumptions = {**TABLE_ASSUMPTIONS, **article, **marker.attrs}
    if marker.name == "needs-by-size":
        return _needs_by_size(s, marker.options.get("method", "full"), assumptions, where)
    return _gpu_classes(s, assumptions, where)


def _needs_by_size(s: Strings, method: str, assumptions: dict[str, Any], where: str) -> Html:
    if method not in METHODS:
        raise PluginError(f"{where}: calc:table needs-by-size method must be one of {METHODS}")
    head = [el("th", {"scope": "col"}, s.get("table.size")), el("th", {"scope": "col"}, s.get("table.model"))]
    head += [el("th", {"scope": "col"}, setup_label(n, "80 GB")) for n in TABLE_COUNTS]
    body = []
    for label, model in TABLE_SIZES:
        cells = []
        for n in TABLE_COUNTS:
            r = compute.checked({**assumptions, "model": model, "method": method, "gpu": TABLE_CARD, "num_gpus": n,
                                 "sharding": "zero3" if n > 1 else "none", "include": []}, where)
            cells.append(el("td", {"data-gpus": n}, bytes_html(r["peak_bytes_per_gpu"], "peak_bytes_per_gpu"), el("br"),
                            verdict_html(s, r["gpu"]["verdict"])))
        body.append(el("tr", {"data-model": model}, el("th", {"scope": "row"}, ltr(label)),
                       el("td", {}, ltr(MODELS[model].name)), cells))
    caption = join(filled(s.get("table.needs_title"), {"gpu": GPUS[TABLE_CARD].name}), " ",
                   s.get("table.assuming"), " ", describe_assumptions(s, assumptions), ".")
    return table_html({"class": "calc-table-figure calc-static", "data-calc-table": "needs-by-size",
                       "data-method": method}, caption, head, body)


def _gpu_classes(s: Strings, assumptions: dict[str, Any], where: str) -> Html:
    head = [el("th", {"scope": "col"}, s.get(f"table.{k}")) for k in ("class", "example", "method", "largest_fits",
                                                                        "next_size")]
    body = []
    for label, gpu in TABLE_CLASSES:
        for i, (method, extra) in enumerate(TABLE_CLASS_METHODS):
            cells = []
            for size, model in TABLE_SIZES:
                r = compute.checked({**assumptions, **extra, "model": model, "method": method, "gpu": gpu,
                                     "include": []}, where)
                cells.append((size, model, r))
            fitting = [i for i, (_s, _m, r) in enumerate(cells) if r["gpu"]["verdict"] != "does_not_fit"]
            best = fitting[-1] if fitting else None
            nxt = (best + 1 if best + 1 < len(cells) else None) if best is not None else 0
            first = [el("th", {"scope": "row", "rowspan": len(TABLE_CLASS_METHODS)}, ltr(label)),
                     el("td", {"rowspan": len(TABLE_CLASS_METHODS)}, ltr(GPUS[gpu].name))] if i == 0 else []
            name = join(s.get(f"table.{method}"),
                        join(" ", el("span", {"class": "calc-muted"}, "(", s.get("table.with_8bit"), ")"))
                        if extra.get("optimizer") == "adamw_8bit" else "")
            body.append(el("tr", {"data-gpu": gpu, "data-method": method, "data-optimizer": extra.get("optimizer")},
                           first, el("td", {}, name), _size_cell(s, "best", cells, best), _size_cell(s, "next", cells, nxt)))
    caption = join(s.get("table.gpu_classes_title"), " ", s.get("table.assuming"), " ",
                   describe_assumptions(s, assumptions), ".")
    return table_html({"class": "calc-table-figure calc-static", "data-calc-table": "gpu-classes"}, caption, head,
                      body)


def _size_cell(s: Strings, role: str, cells: list[tuple[str, str, dict[str, Any]]], index: int | None) -> Html:
    if index is None:
        return el("td", {"data-role": role}, s.get("table.none") if role == "best" else "—")
    size, model, r = cells[index]
    return el("td", {"data-role": role, "data-model": model}, ltr(size), s.get("out.colon"),
              bytes_html(r["peak_bytes_per_gpu"], "peak_bytes_per_gpu"), " ", verdict_html(s, r["gpu"]["verdict"]))


# ---------------------------------------------------------------------------------------------------------------
# Inline figures: <!-- calc:value out=… -->
# ---------------------------------------------------------------------------------------------------------------
class _NoFigure(ValueError):
    """A requested figure the result does not have (no workload, no price, a refused time)."""


def _speed(r: dict[str, Any]) -> dict[str, Any]:
    if not r.get("throughput"):
        raise _NoFigure(f"no time estimate ({r.get('time_error') or 'no gpu'})")
    return r["throughput"]


def _run(r: dict[str, Any]) -> dict[str, Any]:
    _speed(r)
    if not r.get("run"):
        raise _NoFigure("no run: give dataset_tokens (or dataset_examples and mean_tokens_per_example)")
    return r["run"]


def _priced(x: dict[str, Any]) -> dict[str, Any]:
    if x.get("cost") is None:
        raise _NoFigure("no price for this card: give gpu_hour_price")
    return x


def _best(r: dict[str, Any], key: str) -> dict[str, Any]:
    best = r.get(f"{key}_setup")
    if not best or best.get("seconds") is None:
        raise _NoFigure(f"no {key} setup with a run time (give a workload)")
    return best


def _state_bytes_per_param(r: dict[str, Any]) -> float:
    b = r["breakdown_bytes"]
    return (b["weights"] + b["master_copy"] + b["gradients"] + b["optimizer_states"]) / r["params"]


#: out=… -> (what kind of figure, how to read it from the result, what the request must include)
OUTPUTS: dict[str, tuple[str, Any, tuple[str, ...]]] = {
    "peak": ("bytes", lambda r: r["peak_bytes_per_gpu"], ()),
    "peak_gib": ("bytes", lambda r: r["peak_bytes_per_gpu"], ()),
    "allocated": ("bytes", lambda r: r["allocated_bytes"], ()),
    "reserved": ("bytes", lambda r: r["reserved_bytes"], ()),
    "low": ("bytes", lambda r: r["range"]["low_bytes"], ()),
    "high": ("bytes", lambda r: r["range"]["high_bytes"], ()),
    "params": ("count", lambda r: r["params"], ()),
    "trainable": ("count", lambda r: r["trainable_params"], ()),
    "trainable_share": ("percent", lambda r: r["trainable_share"], ()),
    "bytes_per_param": ("number", _state_bytes_per_param, ()),
    "checkpoint": ("bytes", lambda r: r["checkpoint_bytes"], ()),
    "adapter": ("bytes", lambda r: r["adapter_bytes"], ()),
    "optimizer_file": ("bytes", lambda r: r["optimizer_state_file_bytes"], ()),
    "host_ram": ("bytes", lambda r: r["host_ram_bytes"], ()),
    "effective_batch": ("int", lambda r: r["effective_batch_size"], ()),
    "verdict": ("verdict", lambda r: r["gpu"]["verdict"], ("gpu",)),
    "share": ("percent", lambda r: r["gpu"]["share_of_memory"], ("gpu",)),
    "max_seq_len": ("int", lambda r: r["max_seq_len"], ("gpu", "inverse")),
    "max_micro_batch": ("int", lambda r: r["max_micro_batch_size"], ("gpu", "inverse")),
    "smallest": ("setup", lambda r: (r["smallest_setup"] or {}).get("fits"), ("smallest_setup",)),
    # time and cost (a workload in the request: dataset_tokens, or dataset_examples with mean_tokens_per_example)
    "hours": ("duration", lambda r: _run(r)["seconds"], ("gpu",)),
    "gpu_hours": ("number", lambda r: _run(r)["gpu_hours"], ("gpu",)),
    "cost": ("money", lambda r: _priced(_run(r))["cost"], ("gpu",)),
    "tokens_per_second": ("rate", lambda r: _speed(r)["tokens_per_second_per_gpu"], ("gpu",)),
    "mfu": ("percent", lambda r: _speed(r)["mfu"], ("gpu",)),
    "fastest": ("setup", lambda r: r.get("fastest_setup"), ("gpu_table", "smallest_setup")),
    "cheapest": ("setup", lambda r: r.get("cheapest_setup"), ("gpu_table", "smallest_setup")),
    "fastest_hours": ("duration", lambda r: _best(r, "fastest")["seconds"], ("gpu_table", "smallest_setup")),
    "fastest_cost": ("money", lambda r: _priced(_best(r, "fastest"))["cost"], ("gpu_table", "smallest_setup")),
    "cheapest_hours": ("duration", lambda r: _best(r, "cheapest")["seconds"], ("gpu_table", "smallest_setup")),
    "cheapest_cost": ("money", lambda r: _priced(_best(r, "cheapest"))["cost"], ("gpu_table", "smallest_setup")),
    "smallest_comfortable": ("setup", lambda r: (r["smallest_setup"] or {}).get("comfortable"), ("smallest_setup",)),
    **{c: ("bytes", (lambda key: lambda r: r["breakdown_bytes"][key])(c), ()) for c in vocab.COMPONENTS},
}


def render_value(s: Strings, marker: Marker, article: dict[str, Any], where: str) -> Html:
    out = marker.options["out"]
    if out not in OUTPUTS:
        raise PluginError(f"{where}: calc:value out={out!r} is not one of {sorted(OUTPUTS)}")
    kind, read, needs = OUTPUTS[out]
    request = {**article, **marker.attrs}
    if "gpu" in needs and not request.get("gpu"):
        raise PluginError(f"{where}: calc:value out={out} needs gpu=… (in the marker or the front matter)")
    request["include"] = [n for n in needs if n != "gpu"]
    if "model" not in request:
        raise PluginError(f"{where}: calc:value needs model=… (in the marker or the front matter)")
    try:
        raw = read(compute.checked(request, where))
    except _NoFigure as exc:
        raise PluginError(f"{where}: calc:value out={out}: {exc}") from exc
    unit = marker.options.get("unit", "gib" if out == "peak_gib" else "gb")
    if unit not in ("gb", "gib"):
        raise PluginError(f"{where}: calc:value unit must be gb or gib")
    digits = marker.options.get("digits")
    attrs: dict[str, Any] = {"class": "calc-value", "data-calc-out": out}
    if kind == "bytes":
        scale = 1 << 30 if unit == "gib" else 10**9
        d = digits if digits is not None else (0 if raw / scale >= 10 else 1)
        text: Any = ltr(fmt_bytes(raw, unit, d)[0])
    elif kind == "count":
        number, scale_key = fmt_count(raw, digits if digits is not None else 1)
        text = filled(s.get(f"units.{scale_key}"), {"n": number}) if scale_key else ltr(number)
    elif kind == "percent":
        text = ltr(fmt_percent(raw, digits if digits is not None else (2 if raw < 0.1 else 0)))
    elif kind == "number":
        text = ltr(fmt_number(raw, digits if digits is not None else 1))
    elif kind == "int":
        text = ltr(fmt_int(raw))
    elif kind == "verdict":
        text = s.get(f"verdict.{raw}")
    elif kind == "duration":
        text = duration(s, raw)
    elif kind == "money":
        text = money(s, raw)
    elif kind == "rate":
        text = filled(s.get("units.tokens_per_second.other"), {"n": fmt_int(raw)})
    else:  # setup
        if raw is None:
            text, raw = s.get("out.smallest_none"), 0
        else:
            attrs["data-calc-gpu"] = raw["gpu"]
            text, raw = setup_label(raw["num_gpus"], GPUS[raw["gpu"]].name), raw["num_gpus"]
    attrs["data-calc-value"] = raw
    return el("span", attrs, text)


def render_assumptions(s: Strings, article: dict[str, Any], where: str) -> Html:
    if not article:
        raise PluginError(f"{where}: <!-- calc:assumptions --> needs a `calc:` mapping in the front matter")
    return el("p", {"class": "calc-assumptions", "data-calc-assumptions": True}, s.get("out.assumptions_intro"),
              s.get("out.colon"), describe_assumptions(s, article), ".")
