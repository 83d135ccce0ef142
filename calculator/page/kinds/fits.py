"""The "what fits" widget: every catalogue model on one card, by method (QLoRA, LoRA, full), with its verdict."""
from __future__ import annotations

from typing import Any

from ... import api
from .base import COMPACT, DEFAULT_GPU, WidgetKind
from ..pieces import bytes_html, stack_name, table_html, verdict_html
from ..text import Html, Strings, el, filled, join, ltr

__all__ = ["KIND", "FITS_METHODS"]

#: "What fits" lists the method most readers of a card's page came for first: QLoRA, then LoRA, then full.
FITS_METHODS = ("qlora", "lora", "full")


def requests(q: dict[str, Any]) -> list[dict[str, Any]]:
    """Every catalogue model by every method. Only the first request names the card (the API checks it, and its
    answer says the card's name and memory): the others ask for the memory alone, because an answer on a card also
    times the run there, which this widget never shows and which made up half of its Python time per change."""
    memory_only = {k: v for k, v in q.items() if k != "gpu"}
    out = [{**memory_only, "model": model, "method": m, "include": []} for model in api.MODELS for m in FITS_METHODS]
    out[0]["gpu"] = q.get("gpu")
    return out


def results(s: Strings, results: list[dict[str, Any]], state: dict[str, Any]) -> Html:
    g = results[0]["gpu"]
    k = len(FITS_METHODS)
    head = [el("th", {"scope": "col"}, s.get("out.model_col"))]
    head += [el("th", {"scope": "col"}, s.get(f"options.method.{m}")) for m in FITS_METHODS]
    families: dict[str, list[Html]] = {}     # one tbody per family, in the catalogue's order, its name a row header
    for row, model_id in enumerate(api.MODELS):
        cells = []
        for j, _m in enumerate(FITS_METHODS):
            r = results[row * k + j]
            # the API's rule, as on a card (a paged optimizer's states count where the driver sees them)
            verdict = api.verdict(r["peak_bytes_per_gpu"], g["memory_bytes"], r["driver_bytes"])
            cells.append(el("td", {"class": f"calc-cell calc-cell--{verdict}"},
                            verdict_html(s, verdict), " ", bytes_html(r["peak_bytes_per_gpu"], "peak_bytes_per_gpu")))
        families.setdefault(api.MODELS[model_id].family, []).append(
            el("tr", {"data-model": model_id}, el("th", {"scope": "row"}, ltr(api.MODELS[model_id].name)), cells))
    bodies = [el("tbody", {"data-family": family},
                 el("tr", {"class": "calc-table__group"}, el("th", {"scope": "rowgroup", "colspan": k + 1}, ltr(family))),
                 rows) for family, rows in families.items()]
    caption = join(filled(s.get("out.fits_caption"), {"gpu": g["name"]}), " ",
                   stack_name(s, results[0]))
    return table_html({}, caption, head, [], "calc-table calc-table--fits",
                      bodies=bodies)


KIND = WidgetKind("fits", ("gpu", "seq_len", "micro_batch_size", "gradient_checkpointing"),
                  {"gpu": DEFAULT_GPU, **COMPACT}, requests, results, varies=("model", "method"))
