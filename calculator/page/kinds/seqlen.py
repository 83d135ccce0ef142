"""The sequence-length widget: the peak at 512 to 32,768 tokens as columns stacked by memory component (weights,
optimizer state, activations, logits…) against the card, so what grows with the tokens is seen, not read; a scale
in GB beside it; the longest sequence that fits; and the same figures as a table."""
from __future__ import annotations

from typing import Any

from .base import COMPACT, DEFAULT_GPU, DEFAULT_MODEL, WidgetKind
from ..pieces import bytes_html, legend, stack_name, table_html, union_breakdown, verdict_html
from ..text import GB, Html, Strings, counted, el, filled, fmt_bytes, fmt_int, fmt_number, join, ltr

__all__ = ["KIND", "SEQLEN_POINTS"]

SEQLEN_POINTS = (512, 1024, 2048, 4096, 8192, 16384, 32768)


def requests(q: dict[str, Any]) -> list[dict[str, Any]]:
    return [{**q, "seq_len": SEQLEN_POINTS[0], "include": ["inverse"]},
            *({**q, "seq_len": n, "include": []} for n in SEQLEN_POINTS)]


_COL_STEP, _COL_W, _COL_TOP, _COL_BASE, _COL_H = 100, 64, 10, 215, 220


def _step(scale: float) -> float:
    """A round step in GB for three to six lines of the scale."""
    gb = scale / GB
    for power in range(-1, 5):
        for m in (1, 2, 2.5, 5):
            step = m * 10 ** power
            if gb / step <= 6:
                return step
    return 10_000.0


def _short(tokens: int) -> str:
    """An axis label short enough for seven under a phone's chart: 512, 1k, 2k … 32k (the table gives them whole)."""
    return fmt_int(tokens) if tokens < 1024 else f"{tokens // 1024}k"


def results(s: Strings, results: list[dict[str, Any]], state: dict[str, Any]) -> Html:
    inv, rows = results[0], results[1:]
    g = inv["gpu"]
    scale = max(max(r["peak_bytes_per_gpu"] for r in rows), g["memory_bytes"])
    height = _COL_BASE - _COL_TOP
    y_of = lambda b: _COL_BASE - (b / scale * height if scale else 0.0)    # noqa: E731
    n = len(rows)
    step = _step(scale)
    grid, ticks = [], []
    k = 1
    while k * step * GB <= scale:
        y = y_of(k * step * GB)
        grid.append(el("line", {"class": "calc-grid-line", "x1": 0, "x2": _COL_STEP * n, "y1": f"{y:.2f}",
                                "y2": f"{y:.2f}"}))
        ticks.append(el("li", {"style": f"--calc-y: {(_COL_H - y) / _COL_H * 100:.2f}%"},
                        ltr(f"{fmt_number(k * step, 0 if step >= 1 else 1)} GB")))
        k += 1
    cols = []
    for i, r in enumerate(rows):
        slot = n - 1 - i if s.rtl else i
        x = f"{slot * _COL_STEP + (_COL_STEP - _COL_W) / 2:g}"
        bottom = 0
        parts = []
        for key, value in r["breakdown_bytes"].items():      # stacked from the base: the vocabulary's order
            if value <= 0:
                continue
            parts.append(el("rect", {"class": f"calc-c calc-c--{key}", "x": x, "y": f"{y_of(bottom + value):.2f}",
                                     "width": _COL_W, "height": f"{value / scale * height if scale else 0:.2f}"},
                            el("title", {}, f"{fmt_int(SEQLEN_POINTS[i])}: {s.get(f'components.{key}')} "
                                            f"{fmt_bytes(value)[0]}")))
            bottom += value
        cols.append(el("g", {"class": f"calc-col calc-col--{r['gpu']['verdict']}", "data-seq-len": SEQLEN_POINTS[i]},
                       el("title", {}, f"{fmt_int(SEQLEN_POINTS[i])}: {fmt_bytes(r['peak_bytes_per_gpu'])[0]}"), parts))
    y = f"{y_of(g['memory_bytes']):.2f}"
    cols.append(el("line", {"class": "calc-bar__limit", "x1": 0, "x2": _COL_STEP * n, "y1": y, "y2": y}))
    chart = el("figure", {"class": "calc-figure"},
               el("figcaption", {"class": "calc-subtitle"}, filled(s.get("out.seqlen_caption"), {"gpu": g["name"]}),
                  " ", stack_name(s, results[0])),
               el("div", {"class": "calc-plot"},
                  el("ol", {"class": "calc-yaxis", "aria-hidden": "true"}, ticks),
                  el("svg", {"class": "calc-columns", "viewBox": f"0 0 {_COL_STEP * n} {_COL_H}",
                             "preserveAspectRatio": "none", "role": "img", "aria-label": s.get("title.seqlen"),
                             "focusable": "false"}, grid, cols)),
               el("ol", {"class": "calc-axis", "style": f"--calc-points: {n}", "aria-hidden": "true"},
                  [el("li", {}, ltr(_short(p))) for p in SEQLEN_POINTS]),
               legend(s, union_breakdown(rows), with_bytes=False))
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
