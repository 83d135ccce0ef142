"""What the build alone computes into an article (no JavaScript): the article tables, the inline figures of the
prose and the sentence that states the article's shared assumptions. Every number comes from the estimator when
the page is built, and is drawn by ``calculator.page`` like the widgets' figures (``calculator.page.figures`` says what
each inline figure is and how it reads).

An article's shared assumptions are its front matter's ``calc:`` mapping (identical in both language files); an
inline figure starts from them and applies its marker's own keys.
"""
from __future__ import annotations

from typing import Any

from mkdocs.exceptions import PluginError

from calculator.catalog import GPUS, MODELS
from calculator.errors import FigureUnavailable, InputError
from calculator.page.figures import figure, figure_html, figure_names
from calculator.page.pieces import bytes_html, describe_assumptions, setup_label, table_html, verdict_html
from calculator.page.text import Html, Strings, el, filled, join, ltr

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
# Inline figures: <!-- calc:value out=… --> (what each figure is and how it reads: calculator/page/figures.py)
# ---------------------------------------------------------------------------------------------------------------
def render_value(s: Strings, marker: Marker, article: dict[str, Any], where: str) -> Html:
    out = marker.options["out"]
    fig = figure(out)
    if fig is None:
        raise PluginError(f"{where}: calc:value out={out!r} is not one of {figure_names()}")
    needs = fig.needs
    request = {**article, **marker.attrs}
    if "gpu" in needs and not request.get("gpu"):
        raise PluginError(f"{where}: calc:value out={out} needs gpu=… (in the marker or the front matter)")
    request["include"] = [n for n in needs if n != "gpu"]
    if "model" not in request:
        raise PluginError(f"{where}: calc:value needs model=… (in the marker or the front matter)")
    answer = compute.checked(request, where)
    unit = marker.options.get("unit", "gib" if out == "peak_gib" else "gb")
    if unit not in ("gb", "gib"):
        raise PluginError(f"{where}: calc:value unit must be gb or gib")
    try:
        return figure_html(s, out, answer, unit, marker.options.get("digits"))
    except FigureUnavailable as exc:
        raise PluginError(f"{where}: calc:value out={out}: {exc}") from exc


def render_assumptions(s: Strings, article: dict[str, Any], where: str) -> Html:
    if not article:
        raise PluginError(f"{where}: <!-- calc:assumptions --> needs a `calc:` mapping in the front matter")
    return el("p", {"class": "calc-assumptions", "data-calc-assumptions": True}, s.get("out.assumptions_intro"),
              s.get("out.colon"), describe_assumptions(s, article), ".")


# ---------------------------------------------------------------------------------------------------------------
# Ready configs: <!-- calc:config target=… --> (calculator/page/run.py config_block)
# ---------------------------------------------------------------------------------------------------------------
def render_config(s: Strings, marker: Marker, article: dict[str, Any], where: str, cid: str) -> Html:
    from calculator.page.run import config_block

    request = {**article, **marker.attrs}
    if "model" not in request:
        raise PluginError(f"{where}: calc:config needs model=… (in the marker or the front matter)")
    try:
        return config_block(s, cid, request, marker.options["target"])
    except InputError as exc:
        raise PluginError(f"{where}: calc:config target={marker.options['target']}: the setup is refused "
                          f"({exc.code}, {exc.field})") from exc
