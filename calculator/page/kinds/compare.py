"""The compare widget: one model on one card, full fine-tuning, LoRA and QLoRA, each with and without DPO, as
stacked bars against the card's memory."""
from __future__ import annotations

from typing import Any

from .base import COMPACT, DEFAULT_GPU, DEFAULT_MODEL, WidgetKind
from ..pieces import bytes_html, legend, stacked_bar, union_breakdown, verdict_html
from ..text import Html, Strings, el, filled, join

__all__ = ["KIND", "COMPARE_VARIANTS"]

COMPARE_VARIANTS = (("full", False), ("lora", False), ("qlora", False), ("full", True), ("lora", True), ("qlora", True))


def requests(q: dict[str, Any]) -> list[dict[str, Any]]:
    return [{**q, "method": m, "dpo": d, "include": []} for m, d in COMPARE_VARIANTS]


def results(s: Strings, results: list[dict[str, Any]], state: dict[str, Any]) -> Html:
    g = results[0]["gpu"]
    scale = max(max(r["peak_bytes_per_gpu"] for r in results), g["memory_bytes"])
    rows = []
    for (method, dpo), r in zip(COMPARE_VARIANTS, results):
        label = join(s.get(f"options.method.{method}"), f" {s.get('out.dpo_suffix')}" if dpo else "")
        rows.append(el("li", {"class": "calc-row", "data-variant": f"{method}{'+dpo' if dpo else ''}"},
                       el("span", {"class": "calc-row__label"}, label),
                       stacked_bar(s, r["breakdown_bytes"], scale, g["memory_bytes"], str(label)),
                       el("span", {"class": "calc-row__value"}, bytes_html(r["peak_bytes_per_gpu"], "peak_bytes_per_gpu"),
                          " ", verdict_html(s, r["gpu"]["verdict"]))))
    return el("figure", {"class": "calc-figure"},
              el("figcaption", {"class": "calc-subtitle"}, filled(s.get("out.compare_caption"), {"gpu": g["name"]})),
              el("ul", {"class": "calc-rows"}, rows), legend(s, union_breakdown(results), with_bytes=False))


KIND = WidgetKind("compare", ("model", "seq_len", "micro_batch_size", "gpu", "gradient_checkpointing"),
                  {"model": DEFAULT_MODEL, "gpu": DEFAULT_GPU, **COMPACT}, requests, results)
