"""The inline figures of the articles (``<!-- calc:value out=… -->``): which figure of the estimator's answer each
``out=`` names, what the request must include for it, and how each format reads in a sentence (one ``FigureFormat``
per format: bytes, a count, a share, a number, an integer, a verdict, a duration, money, a rate, a setup). The site
build asks the estimator and places the figure (``sitebuild/articles.py``); the words come from the string tables."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from .. import api, vocab
from ..errors import FigureUnavailable
from .pieces import setup_label
from .text import (Html, Strings, duration, el, filled, fmt_bytes, fmt_count, fmt_int, fmt_number, fmt_percent, ltr,
                   money, rate)

__all__ = ["FigureFormat", "FORMATS", "Figure", "FIGURES", "figure", "figure_names", "figure_html"]


def _speed(r: dict[str, Any]) -> dict[str, Any]:
    if not r.get("throughput"):
        raise FigureUnavailable(f"no time estimate ({r.get('time_error') or 'no gpu'})")
    return r["throughput"]


def _run(r: dict[str, Any]) -> dict[str, Any]:
    _speed(r)
    if not r.get("run"):
        raise FigureUnavailable("no run: give dataset_tokens (or dataset_examples and mean_tokens_per_example)")
    return r["run"]


def _priced(x: dict[str, Any]) -> dict[str, Any]:
    if x.get("cost") is None:
        raise FigureUnavailable("no price for this card: give gpu_hour_price")
    return x


def _best(r: dict[str, Any], key: str) -> dict[str, Any]:
    best = r.get(f"{key}_setup")
    if not best or best.get("seconds") is None:
        raise FigureUnavailable(f"no {key} setup with a run time (give a workload)")
    return best


def _state_bytes_per_param(r: dict[str, Any]) -> float:
    b = r["breakdown_bytes"]
    return (b["weights"] + b["master_copy"] + b["gradients"] + b["optimizer_states"]) / r["params"]


#: out=… -> (its format, how to read it from the answer, what the request must include besides the estimate)
_READS: dict[str, tuple[str, Callable[[dict[str, Any]], Any], tuple[str, ...]]] = {
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
}


@dataclass(frozen=True)
class FigureFormat:
    """How one format of figure reads: ``text(s, raw, unit, digits)`` gives the sentence's text and the raw value the
    figure carries in ``data-calc-value`` (a setup carries its card too)."""

    name: str
    text: Callable[[Strings, Any, str, int | None], tuple[Any, Any, dict[str, Any]]]


def _bytes(s: Strings, raw: Any, unit: str, digits: int | None) -> tuple[Any, Any, dict[str, Any]]:
    scale = 1 << 30 if unit == "gib" else 10**9
    d = digits if digits is not None else (0 if raw / scale >= 10 else 1)
    return ltr(fmt_bytes(raw, unit, d)[0]), raw, {}


def _count(s: Strings, raw: Any, unit: str, digits: int | None) -> tuple[Any, Any, dict[str, Any]]:
    number, scale_key = fmt_count(raw, digits if digits is not None else 1)
    return (filled(s.get(f"units.{scale_key}"), {"n": number}) if scale_key else ltr(number)), raw, {}


def _setup(s: Strings, raw: Any, unit: str, digits: int | None) -> tuple[Any, Any, dict[str, Any]]:
    if raw is None:
        return s.get("out.smallest_none"), 0, {}
    return setup_label(raw["num_gpus"], api.GPUS[raw["gpu"]].name), raw["num_gpus"], {"data-calc-gpu": raw["gpu"]}


FORMATS: dict[str, FigureFormat] = {f.name: f for f in (
    FigureFormat("bytes", _bytes),
    FigureFormat("count", _count),
    FigureFormat("percent", lambda s, raw, unit, digits: (
        ltr(fmt_percent(raw, digits if digits is not None else (2 if raw < 0.1 else 0))), raw, {})),
    FigureFormat("number", lambda s, raw, unit, digits: (ltr(fmt_number(raw, digits if digits is not None else 1)),
                                                         raw, {})),
    FigureFormat("int", lambda s, raw, unit, digits: (ltr(fmt_int(raw)), raw, {})),
    FigureFormat("verdict", lambda s, raw, unit, digits: (s.get(f"verdict.{raw}"), raw, {})),
    FigureFormat("duration", lambda s, raw, unit, digits: (duration(s, raw), raw, {})),
    FigureFormat("money", lambda s, raw, unit, digits: (money(s, raw), raw, {})),
    FigureFormat("rate", lambda s, raw, unit, digits: (
        rate(s, raw), raw, {})),
    FigureFormat("setup", _setup),
)}


@dataclass(frozen=True)
class Figure:
    """One ``out=``: its format, how to read it from the answer, what the request must include for it."""

    format: FigureFormat
    read: Callable[[dict[str, Any]], Any]
    needs: tuple[str, ...]


#: The inline figures besides the memory components, by their ``out=`` name.
FIGURES: dict[str, Figure] = {name: Figure(FORMATS[fmt], read, needs) for name, (fmt, read, needs) in _READS.items()}


def figure(out: str) -> Figure | None:
    """The figure an ``out=`` names: one of FIGURES, or a memory component (vocab.COMPONENTS) by its name."""
    if out in FIGURES:
        return FIGURES[out]
    if out in vocab.COMPONENTS:
        return Figure(FORMATS["bytes"], lambda r: r["breakdown_bytes"][out], ())
    return None


def figure_names() -> list[str]:
    return sorted([*FIGURES, *vocab.COMPONENTS])


def figure_html(s: Strings, out: str, answer: dict[str, Any], unit: str = "gb", digits: int | None = None) -> Html:
    """The figure ``out`` of an answer as a sentence shows it; ``FigureUnavailable`` when the answer has none."""
    fig = figure(out)
    if fig is None:
        raise KeyError(out)
    raw = fig.read(answer)
    text, value, attrs = fig.format.text(s, raw, unit, digits)
    return el("span", {"class": "calc-value", "data-calc-out": out, **attrs, "data-calc-value": value}, text)
