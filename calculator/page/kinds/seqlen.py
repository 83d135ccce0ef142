"""The sequence-length widget: the peak at 512 to 32,768 tokens as columns against the card, the longest sequence
that fits, and the same figures as a table."""
from __future__ import annotations

from typing import Any

from .base import COMPACT, DEFAULT_GPU, DEFAULT_MODEL, WidgetKind
from ..pieces import bytes_html, table_html, verdict_html
from ..text import Html, Strings, counted, el, filled, fmt_bytes, fmt_int, join, ltr

__all__ = ["KIND", "SEQLEN_POINTS"]

SEQLEN_POINTS = (512, 1024, 2048, 4096, 8192, 16384, 32768)


def requests(q: dict[str, Any]) -> list[dict[str, Any]]:
    return [{**q, "seq_len": SEQLEN_POINTS[0], "include": ["inverse"]},
            *({**q, "seq_len": n, "include": []} for n in SEQLEN_POINTS)]


_COL_STEP, _COL_W, _COL_TOP, _COL_BASE = 100, 64, 10, 215


def results(s: Strings, results: list[dict[str, Any]], state: dict[str, Any]) -> Html:
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


KIND = WidgetKind("seqlen", ("model", "method", "micro_batch_size", "gpu", "gradient_checkpointing"),
                  {"model": DEFAULT_MODEL, "method": "qlora", "gpu": DEFAULT_GPU, **COMPACT}, requests, results,
                  varies=("seq_len",))
