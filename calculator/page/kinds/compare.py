"""The compare widget: one model on one card, the methods side by side (full fine-tuning, LoRA and QLoRA, each with
and without DPO), as stacked bars against the card's memory, each with its verdict and, where it fits, its speed and
the time and cost of the run (the reader's data size; nothing for a setup that does not fit). A marker that fixes
``dpo`` (``<!-- calc:compare dpo=false -->``, the calculator page's) compares the three methods with that DPO
setting only."""
from __future__ import annotations

from typing import Any

from .base import COMPACT, DEFAULT_GPU, DEFAULT_MODEL, WidgetKind
from ..pieces import bytes_html, legend, setup_time_cost, stack_html, stack_name, stacked_bar, union_breakdown, verdict_html
from ..text import Html, Strings, el, filled, join

__all__ = ["KIND", "COMPARE_VARIANTS", "variants"]

METHODS = ("full", "lora", "qlora")
COMPARE_VARIANTS = tuple((m, d) for d in (False, True) for m in METHODS)


def variants(q: dict[str, Any]) -> tuple[tuple[str, bool], ...]:
    """The (method, DPO) pairs one request compares: all six, or the three methods with a DPO setting the article
    fixes."""
    return tuple((m, bool(q["dpo"])) for m in METHODS) if "dpo" in q else COMPARE_VARIANTS


def requests(q: dict[str, Any]) -> list[dict[str, Any]]:
    return [{**q, "method": m, "dpo": d, "include": []} for m, d in variants(q)]


def _time(s: Strings, r: dict[str, Any]) -> Html:
    """Where the variant fits: its speed, and with a data size the time and cost of the run; where it does not fit,
    nothing but the verdict (it cannot run)."""
    tp, run = r.get("throughput"), r.get("run")
    if r["gpu"]["verdict"] == "does_not_fit" or not tp:
        return join()
    st = {"tokens_per_second": tp["tokens_per_second"]}
    if run:
        st.update(seconds=run["seconds"], cost=run.get("cost"))
    return el("span", {"class": "calc-row__time", "data-calc-output": "run" if run else "throughput"},
              setup_time_cost(s, st, bool(run)))


def results(s: Strings, results: list[dict[str, Any]], state: dict[str, Any]) -> Html:
    g = results[0]["gpu"]
    scale = max(max(r["peak_bytes_per_gpu"] for r in results), g["memory_bytes"])
    rows = []
    for r in results:
        method, dpo = r["inputs"]["method"], r["inputs"]["dpo"]
        label = join(s.get(f"options.method.{method}"), f" {s.get('out.dpo_suffix')}" if dpo else "")
        rows.append(el("li", {"class": "calc-row", "data-variant": f"{method}{'+dpo' if dpo else ''}"},
                       el("span", {"class": "calc-row__label"}, label),
                       stacked_bar(s, r["breakdown_bytes"], scale, g["memory_bytes"], str(label)),
                       el("span", {"class": "calc-row__value"}, bytes_html(r["peak_bytes_per_gpu"], "peak_bytes_per_gpu"),
                          " ", verdict_html(s, r["gpu"]["verdict"]), _time(s, r)),
                       stack_html(s, r) if r.get("stack") else ""))
    return el("figure", {"class": "calc-figure"},
              el("figcaption", {"class": "calc-subtitle"}, filled(s.get("out.compare_caption"), {"gpu": g["name"]}),
                 " ", stack_name(s, results[0])),
              el("ul", {"class": "calc-rows"}, rows), legend(s, union_breakdown(results), with_bytes=False))


KIND = WidgetKind("compare", ("model", "seq_len", "micro_batch_size", "gpu", "gradient_checkpointing", "lora_rank",
                              "dataset_tokens"),
                  {"model": DEFAULT_MODEL, "gpu": DEFAULT_GPU, **COMPACT}, requests, results, varies=("method",))
