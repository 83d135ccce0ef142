"""Python time of one widget change on this interpreter: ``Page.render``, the worker's whole answer to a change (read
the message through the guards, estimate, render). Prints figures; not a test.

    .venv/bin/python benchmarks/widget_speed.py [--repeat N]

For each widget kind (calculator.page.WIDGET_KINDS), every change a reader can make to one of its controls from the
kind's defaults (each choice of a select, a toggled checkbox, a number halved and doubled, ten models of the
catalogue, every GPU) is answered N times with every remembered result forgotten first (the estimator's caches and the page's memo) (a setup the page has not
seen: the slowest case), and the median and the worst change are printed, in CPU time of this process
(time.process_time: other work on a shared machine does not count). Then the hostile inputs of the
reliability review, sent to the estimator widget: the longest paste the box takes, a 200 KB list of integers, a
config 32 levels deep and one 100,000 levels deep, 4,301 digits in a number field, a field of 300,000 characters cut
by calc.js to its transport limit. The promise is 100 ms of Python per change in the page; a phone runs Python about
3-5 x slower than this machine, and Pyodide about 1.5-2 x slower than CPython (benchmarks/page.py prints the page's
own figure for the estimator), so a change must cost under 100 / (5 x 2) = 10 ms here to hold it everywhere, and
under 100 / 5 = 20 ms for a phone at CPython's speed.
"""
from __future__ import annotations

import argparse
import json
import platform
import statistics
import time

from calculator import api
from calculator.inputs import BY_NAME
from calculator.page import SLICE_MS, WIDGET_KINDS, Page
from calculator.page.form import TRANSPORT_LIMITS
from sitebuild.strings import calc_strings

from benchmarks.estimator_speed import forget

MODELS = ["llama-3.2-1b", "qwen2.5-7b", "llama-3.1-8b", "mistral-7b", "gemma-2-9b", "qwen2.5-14b", "qwen2.5-32b",
          "llama-3.1-70b", "mixtral-8x7b", "qwen2.5-72b"]


def changes(kind) -> dict[str, dict]:
    """Every one-control change from the kind's defaults: {label: raw}."""
    state = kind.state({})
    out: dict[str, dict] = {"defaults": {}}
    for key in kind.fields:
        spec, value = BY_NAME[key], state[key]
        if key == "model":
            for model in MODELS:
                if model in api.MODELS and model != value:
                    out[f"model={model}"] = {"model": {"source": "preset", "value": model}}
        elif key == "gpu":
            for gpu in sorted(api.GPUS):
                out[f"gpu={gpu}"] = {"gpu": gpu}
        elif spec.choices:
            for choice in spec.choices:
                if choice != value:
                    out[f"{key}={choice}"] = {key: choice}
        elif isinstance(value, bool):
            out[f"{key}={not value}"] = {key: not value}
        elif isinstance(value, int) and not isinstance(value, bool):
            for v in {max(1, value // 2), value * 2}:
                out[f"{key}={v}"] = {key: str(v)}
    return out


def hostile() -> dict[str, dict]:
    config = {"hidden_size": 4096, "num_hidden_layers": 32, "num_attention_heads": 32, "vocab_size": 32000,
              "intermediate_size": 11008}
    paste = lambda text: {"model": {"source": "paste", "value": text[:TRANSPORT_LIMITS["text"]]}}  # noqa: E731
    listed = json.dumps({**config, "junk": list(range(40_000))})
    return {
        "paste: 200 KB list of integers": paste(listed[:api.MAX_INPUT_CHARS - 1] if len(listed) >= api.MAX_INPUT_CHARS
                                                else listed),
        "paste: longest the box takes (a string)": paste(json.dumps({**config, "notes": ""})[:-2]
                                                         + "x" * api.MAX_INPUT_CHARS),
        "paste: config 32 levels deep": paste(json.dumps({**config, "junk": None})
                                              .replace("null", "[" * 30 + "]" * 30)),
        "paste: 100,000 levels deep (cut)": paste("[" * 100_000),
        "number field: 4,301 digits": {"seq_len": "9" * 4301},
        "number field: 300,000 characters (cut)": {"seq_len": ("1" * 300_000)[:TRANSPORT_LIMITS["field"]]},
    }


def timed(page: Page, kind: str, raw: dict, repeat: int) -> float:
    message = json.dumps({"kind": kind, "raw": raw, "fixed": {}})
    times = []
    for _ in range(repeat):
        forget()
        page.forget()                         # and the page's memo of answers
        t = time.process_time()
        answer = page.render(message)
        times.append((time.process_time() - t) * 1000)
    out = json.loads(answer)
    if not out["ok"] and any(e["code"] == "internal_error" for e in out["errors"]):
        raise RuntimeError(f"{kind} {raw}: the page answered internal_error: {out}")
    return statistics.median(times)


def sliced(page: Page, kind: str, raw: dict, repeat: int) -> tuple[float, float]:
    """As worker.mjs answers a change: ``Page.prepare`` until nothing is left, then ``Page.render`` (caches and memo
    forgotten first). Medians of the change's whole Python time and of its longest single call."""
    message = json.dumps({"kind": kind, "raw": raw, "fixed": {}})
    totals, longest = [], []
    for _ in range(repeat):
        forget()
        page.forget()
        calls, left = [], None
        while left != 0:
            t = time.process_time()
            left = page.prepare(message)
            calls.append((time.process_time() - t) * 1000)
        t = time.process_time()
        page.render(message)
        calls.append((time.process_time() - t) * 1000)
        totals.append(sum(calls))
        longest.append(max(calls))
    return statistics.median(totals), statistics.median(longest)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args(argv)
    page = Page(json.dumps(calc_strings("en")), "en")
    print(f"{platform.python_implementation()} {platform.python_version()}, Page.render per change, first time "
          f"(caches forgotten), median of {args.repeat} each")
    worst_all = (0.0, "")
    for name in sorted(WIDGET_KINDS):
        figures = {label: timed(page, name, raw, args.repeat) for label, raw in changes(WIDGET_KINDS[name]).items()}
        label, worst = max(figures.items(), key=lambda item: item[1])
        worst_all = max(worst_all, (worst, f"{name}: {label}"))
        print(f"  {name:<10} {len(figures):3d} changes   median {statistics.median(figures.values()):6.2f} ms   "
              f"worst {worst:6.2f} ms ({label})")
    print(f"  worst widget change: {worst_all[0]:.2f} ms ({worst_all[1]})")
    print(f"as the page's worker answers it (Page.prepare in slices of {SLICE_MS:g} ms, then Page.render), "
          "the worst change of each kind:")
    for name in sorted(WIDGET_KINDS):
        figures = {label: sliced(page, name, raw, args.repeat) for label, raw in changes(WIDGET_KINDS[name]).items()}
        label, (total, longest) = max(figures.items(), key=lambda item: item[1][1])
        print(f"  {name:<10} longest single call {longest:6.2f} ms ({label}; {total:6.2f} ms in all)")
    print("hostile inputs (estimator widget):")
    for label, raw in hostile().items():
        print(f"  {label:<42} {timed(page, 'estimator', raw, args.repeat):6.2f} ms")


if __name__ == "__main__":
    main()
