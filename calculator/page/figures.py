"""The inline figures of the articles (``<!-- calc:value out=… -->``): which figure of the estimator's answer each
``out=`` names, what the request must include for it, and how each format reads in a sentence (one ``FigureFormat``
per format: bytes, a count, a share, a number, an integer, a verdict, a fit, a duration, money, a rate, TFLOPS, a
bandwidth, a setup). The
article's figure is drawn by ``articles.value_html`` with the build's answers; the words come from the string tables.

The templates obey rules that ``tests/unit/test_figure_templates.py`` checks over every verdict pair and every size
from 1 MB to 1 TB in both languages: a size under 1 GB reads in MB (under 1 GiB in MiB); "bytes per parameter" is
said of the model states only; a verdict inside a sentence is either the bare label (after a colon) or the ``fit``
phrase, which carries its own verb and share; a change between two answers (``change_html``: a marker's ``to.<key>``
options) reads "stays" when nothing visible changed and names both ends otherwise."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from .. import api, vocab
from ..errors import FigureUnavailable
from .pieces import setup_label
from .text import (GB, GIB, MB, MIB, Html, Strings, counted, duration, el, filled, fmt_count, fmt_int,
                   fmt_number, fmt_percent, join, ltr, money, rate)

__all__ = ["FigureFormat", "FORMATS", "Figure", "FIGURES", "figure", "figure_names", "figure_html", "change_html",
           "size_text", "CHANGES", "CARD_FIGURES", "RATIO_WORDS", "ratio_key"]


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


def _basis(r: dict[str, Any], key: str) -> dict[str, Any]:
    best = r.get(f"{key}_setup")
    if not best or "evidence" not in best:
        raise FigureUnavailable(f"no {key} setup with its evidence (give a workload)")
    return best["evidence"]


def _best(r: dict[str, Any], key: str) -> dict[str, Any]:
    best = r.get(f"{key}_setup")
    if not best or best.get("seconds") is None:
        raise FigureUnavailable(f"no {key} setup with a run time (give a workload)")
    return best


def _card(field: str, what: str) -> Callable[[dict[str, Any]], Any]:
    """A datasheet figure of the answer's card (the catalogue's, with its source there)."""
    def read(r: dict[str, Any]) -> Any:
        value = getattr(api.GPUS[r["gpu"]["id"]], field)
        if value is None:
            raise FigureUnavailable(f"{r['gpu']['name']} has no {what} in the catalogue")
        return value
    return read


def _grpo(r: dict[str, Any]) -> dict[str, Any]:
    if not r.get("grpo"):
        raise FigureUnavailable("no GRPO cycle: give grpo=true")
    return r["grpo"]


def _grpo_term(term: str) -> Callable[[dict[str, Any]], int]:
    """The largest a GRPO cycle's term gets over its phases (generation, scoring, training): the KV cache of the
    generation, the reference model."""
    def read(r: dict[str, Any]) -> int:
        return max((p["terms"].get(term, 0) for p in _grpo(r)["phases"]), default=0)
    return read


def _grpo_vllm(r: dict[str, Any]) -> int:
    v = _grpo(r).get("vllm")
    if not v:
        raise FigureUnavailable("no vLLM engine on the card: give grpo_generator=vllm_colocate")
    return v["claim_bytes"]


def _state_bytes_per_param(r: dict[str, Any]) -> float:
    b = r["breakdown_bytes"]
    return (b["weights"] + b["master_copy"] + b["gradients"] + b["optimizer_states"]) / r["params"]


def _fit(r: dict[str, Any]) -> dict[str, Any]:
    g = r["gpu"]
    return {"verdict": g["verdict"], "share": g["share_of_memory"], "range_share": g["range_share"],
            "num_gpus": (r.get("inputs") or {}).get("num_gpus", 1)}


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
    "bytes_per_param": ("state_per_param", _state_bytes_per_param, ()),
    "checkpoint": ("bytes", lambda r: r["checkpoint_bytes"], ()),
    "adapter": ("bytes", lambda r: r["adapter_bytes"], ()),
    "optimizer_file": ("bytes", lambda r: r["optimizer_state_file_bytes"], ()),
    "host_ram": ("bytes", lambda r: r["host_ram_bytes"], ()),
    "host_ram_load": ("bytes", lambda r: r["host_ram_load_bytes"], ()),
    "effective_batch": ("int", lambda r: r["effective_batch_size"], ()),
    "verdict": ("verdict", lambda r: r["gpu"]["verdict"], ("gpu",)),
    "fit": ("fit", _fit, ("gpu",)),
    "gpu_memory": ("bytes", lambda r: r["gpu"]["memory_bytes"], ("gpu",)),
    # the card's datasheet (catalogue): dense 16-bit tensor peak, links per direction
    "peak_tflops": ("tflops", _card("peak_tflops", "tensor peak"), ("gpu",)),
    "interconnect": ("bandwidth", _card("interconnect_gb_s", "NVLink bandwidth"), ("gpu",)),
    "host_link": ("bandwidth", _card("host_link_gb_s", "PCIe bandwidth"), ("gpu",)),
    "network": ("bandwidth", _card("network_gb_s", "network bandwidth"), ("gpu",)),
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
    # what a fastest or cheapest answer's speed rests on (the answer's ``evidence``), and the same answers among the
    # cards with measured speeds alone
    "fastest_basis": ("evidence", lambda r: _basis(r, "fastest"), ("gpu_table", "smallest_setup")),
    "cheapest_basis": ("evidence", lambda r: _basis(r, "cheapest"), ("gpu_table", "smallest_setup")),
    "fastest_measured_basis": ("evidence", lambda r: _basis(r, "fastest_measured"), ("gpu_table", "smallest_setup")),
    "cheapest_measured_basis": ("evidence", lambda r: _basis(r, "cheapest_measured"),
                                ("gpu_table", "smallest_setup")),
    "fastest_measured": ("setup", lambda r: r.get("fastest_measured_setup"), ("gpu_table", "smallest_setup")),
    "cheapest_measured": ("setup", lambda r: r.get("cheapest_measured_setup"), ("gpu_table", "smallest_setup")),
    "fastest_measured_hours": ("duration", lambda r: _best(r, "fastest_measured")["seconds"],
                               ("gpu_table", "smallest_setup")),
    "fastest_measured_cost": ("money", lambda r: _priced(_best(r, "fastest_measured"))["cost"],
                              ("gpu_table", "smallest_setup")),
    "cheapest_measured_hours": ("duration", lambda r: _best(r, "cheapest_measured")["seconds"],
                                ("gpu_table", "smallest_setup")),
    "cheapest_measured_cost": ("money", lambda r: _priced(_best(r, "cheapest_measured"))["cost"],
                               ("gpu_table", "smallest_setup")),
    # a paged optimizer (bitsandbytes): its states outside the allocator's statistics, and the driver's figure with
    # them resident
    "paged_states": ("bytes", lambda r: r["paged_optimizer_bytes"], ()),
    # online RL (grpo=true, calculator/rl.py): the cycle's peak, the phase it falls in, and what the generation adds
    "grpo_peak": ("bytes", lambda r: _grpo(r)["peak_bytes_per_gpu"], ()),
    "grpo_peak_phase": ("phase", lambda r: _grpo(r)["peak_phase"], ()),
    "grpo_kv_cache": ("bytes", _grpo_term("kv_cache"), ()),
    "grpo_reference": ("bytes", _grpo_term("reference_model"), ()),
    "grpo_vllm": ("bytes", _grpo_vllm, ()),
    "driver": ("bytes", lambda r: r["driver_bytes"], ()),
}


@dataclass(frozen=True)
class FigureFormat:
    """How one format of figure reads: ``text(s, raw, unit, digits)`` gives the sentence's text and the raw value the
    figure carries in ``data-calc-value`` (a setup carries its card too)."""

    name: str
    text: Callable[[Strings, Any, str, int | None], tuple[Any, Any, dict[str, Any]]]
    #: The figure reads as a phrase of several words ("fits comfortably (72% of the card)"), which wraps like the
    #: sentence around it; any other figure is a value kept on one line ("13.0 GB").
    phrase: bool = False


def size_text(raw: int, unit: str = "gb", digits: int | None = None) -> str:
    """A size as a sentence prints it: in GB (``unit="gib"``: GiB), in MB (MiB) below one GB (GiB), so a 17 MB adapter
    never reads "0.0 GB"; one decimal below 100 of the unit, none above (the widgets' rounding too)."""
    big, small, names = (GIB, MIB, ("GiB", "MiB")) if unit == "gib" else (GB, MB, ("GB", "MB"))
    scale, name = (big, names[0]) if raw >= big else (small, names[1])
    value = raw / scale
    d = digits if digits is not None and scale == big else (1 if value < 100 else 0)
    return f"{fmt_number(value, d)} {name}"


def _bytes(s: Strings, raw: Any, unit: str, digits: int | None) -> tuple[Any, Any, dict[str, Any]]:
    return ltr(size_text(raw, unit, digits)), raw, {}


def _fit_text(s: Strings, raw: Any, unit: str, digits: int | None) -> tuple[Any, Any, dict[str, Any]]:
    """"fits comfortably (67% of the card)": the verdict as a phrase with its verb and the share it rests on."""
    d = digits if digits is not None else 0
    low, high = (ltr(fmt_percent(x, d)) for x in raw["range_share"])
    count = "one" if raw["num_gpus"] == 1 else "each"
    return (filled(s.get(f"figure.fit.{count}.{raw['verdict']}"),
                   {"share": ltr(fmt_percent(raw["share"], d)), "low": low, "high": high}), raw["share"],
            {"data-calc-verdict": raw["verdict"]})


def _count(s: Strings, raw: Any, unit: str, digits: int | None) -> tuple[Any, Any, dict[str, Any]]:
    number, scale_key = fmt_count(raw, digits if digits is not None else 1)
    return (filled(s.get(f"units.{scale_key}"), {"n": number}) if scale_key else ltr(number)), raw, {}


def _evidence(s: Strings, raw: Any, unit: str, digits: int | None) -> tuple[Any, Any, dict[str, Any]]:
    """What a time rests on, as a clause: the runs measured on that card for this method and this count of cards;
    for this method on other counts only; for other methods only (the time is then the model's extrapolation, and
    the clause names what was measured); or the card's datasheet alone. The evidence's ``method_measured`` and
    ``count_measured`` choose the words, not the card's having some measured row (issue 43 point 3)."""
    if raw["basis"] != "measured":
        return s.get("figure.evidence.datasheet"), 0, {"data-calc-basis": "datasheet"}
    key = ("measured" if raw["count_measured"] else "other_counts") if raw["method_measured"] else "other_methods"
    sep = s.get("out.item_sep")
    methods = join(*[join(s.get(f"figure.evidence.method.{m}"), sep if i < len(raw["methods"]) - 1 else "")
                     for i, m in enumerate(raw["methods"])])
    counts = join(*[join(ltr(fmt_int(n)), sep if i < len(raw["gpu_counts"]) - 1 else "")
                    for i, n in enumerate(raw["gpu_counts"])])
    return (filled(s.get(f"figure.evidence.{key}"), {"runs": counted(s, "measured_runs", raw["rows"]),
                                                     "methods": methods, "counts": counts}),
            raw["rows"], {"data-calc-basis": "measured" if key == "measured" else f"measured_{key}"})


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
    FigureFormat("state_per_param", lambda s, raw, unit, digits: (
        filled(s.get("figure.model_states_per_param"), {"n": fmt_number(raw, digits if digits is not None else 1)}),
        raw, {}), phrase=True),
    FigureFormat("fit", _fit_text, phrase=True),
    FigureFormat("int", lambda s, raw, unit, digits: (ltr(fmt_int(raw)), raw, {})),
    FigureFormat("verdict", lambda s, raw, unit, digits: (s.get(f"verdict.{raw}"), raw, {})),
    FigureFormat("duration", lambda s, raw, unit, digits: (duration(s, raw), raw, {})),
    FigureFormat("money", lambda s, raw, unit, digits: (money(s, raw), raw, {})),
    FigureFormat("rate", lambda s, raw, unit, digits: (rate(s, raw), raw, {})),
    FigureFormat("tflops", lambda s, raw, unit, digits: (ltr(f"{fmt_number(raw, digits or 0)} TFLOPS"), raw, {})),
    FigureFormat("bandwidth", lambda s, raw, unit, digits: (ltr(f"{fmt_number(raw, digits or 0)} GB/s"), raw, {})),
    FigureFormat("setup", _setup, phrase=True),
    FigureFormat("evidence", _evidence, phrase=True),
    FigureFormat("phase", lambda s, raw, unit, digits: (s.get(f"figure.grpo_phase.{raw}"), raw, {}), phrase=True),
)}


@dataclass(frozen=True)
class Figure:
    """One ``out=``: its format, how to read it from the answer, what the request must include for it, and the unit
    a size is printed in unless the marker says (a card's memory in GiB, as its driver reports it)."""

    format: FigureFormat
    read: Callable[[dict[str, Any]], Any]
    needs: tuple[str, ...]
    unit: str = "gb"


#: The figures that read the answer's card alone (its reported memory, its datasheet): a marker needs no model for them.
CARD_FIGURES = frozenset({"gpu_memory", "peak_tflops", "interconnect", "host_link", "network"})

#: The inline figures besides the memory components, by their ``out=`` name.
FIGURES: dict[str, Figure] = {name: Figure(FORMATS[fmt], read, needs, "gib" if name in ("peak_gib", "gpu_memory") else "gb")
                              for name, (fmt, read, needs) in _READS.items()}


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
    return el("span", {"class": "calc-value calc-value--phrase" if fig.format.phrase else "calc-value",
                       "data-calc-out": out, **attrs, "data-calc-value": value}, text)


# ---------------------------------------------------------------------------------------------------------------
# A change between two answers: <!-- calc:value out=verdict … to.seq_len=8192 --> (before: the marker's request;
# after: the same with the ``to.`` keys)
# ---------------------------------------------------------------------------------------------------------------
def _verdict_change(s: Strings, before: dict[str, Any], after: dict[str, Any], unit: str, digits: int | None) -> Html:
    v1, v2 = before["gpu"]["verdict"], after["gpu"]["verdict"]
    d = digits if digits is not None else 0
    s1, s2 = fmt_percent(before["gpu"]["share_of_memory"], d), fmt_percent(after["gpu"]["share_of_memory"], d)
    while v1 != v2 and s1 == s2 and digits is None and d < 3:      # 84.9% -> 85.1%, never "85% -> 85%"
        d += 1
        s1, s2 = fmt_percent(before["gpu"]["share_of_memory"], d), fmt_percent(after["gpu"]["share_of_memory"], d)
    if v1 != v2:
        return filled(s.get("figure.change.verdict_moves"), {
            "before": s.get(f"verdict.{v1}"), "after": s.get(f"verdict.{v2}"), "before_share": ltr(s1),
            "after_share": ltr(s2)})
    shares = ltr(s1) if s1 == s2 else filled(s.get("figure.change.shares"), {"before_share": s1, "after_share": s2})
    return filled(s.get(f"figure.change.verdict_stays.{v1}"), {"shares": shares})


#: How a size change is compared in words, by the ratio after / before (``ratio_key``): half and twice only where the
#: ratio rounds to 0.5 or 2.0 at one decimal, a multiple from there up, a share of more or less in between.
RATIO_WORDS = ("half", "less", "more", "twice", "times")


def ratio_key(ratio: float) -> tuple[str, dict[str, str]]:
    """The words that compare two sizes (``figure.change.ratio.<key>``) and their figure: "twice as much" only for a
    ratio that reads 2.0, "33% more" for 1.33, "2.5 times as much" for 2.5, "half as much" for 0.5."""
    if round(ratio, 1) == 2.0:
        return "twice", {}
    if round(ratio, 1) == 0.5:
        return "half", {}
    if ratio > 2.0:
        return "times", {"times": fmt_number(ratio, 1)}
    return ("more" if ratio > 1 else "less"), {"share": fmt_percent(abs(ratio - 1), 0)}


def _size_change(s: Strings, before: dict[str, Any], after: dict[str, Any], read: Callable[[dict[str, Any]], Any],
                 unit: str, digits: int | None, compare: bool = False) -> Html:
    """"from 3.2 GB to 4.2 GB"; with ``compare`` the words that say how much it grew or shrank are chosen from the
    ratio (``ratio_key``), so the sentence never says "doubles" beside +33%."""
    a, b = size_text(read(before), unit, digits), size_text(read(after), unit, digits)
    if a == b:
        return filled(s.get("figure.change.size_stays"), {"before": a})
    moves = filled(s.get("figure.change.size_moves"), {"before": a, "after": b})
    if not compare or not read(before):
        return moves
    key, fields = ratio_key(read(after) / read(before))
    return filled(s.get("figure.change.size_compared"), {
        "moves": moves, "ratio": filled(s.get(f"figure.change.ratio.{key}"), fields)})


def _time_change(s: Strings, before: dict[str, Any], after: dict[str, Any], read: Callable[[dict[str, Any]], Any],
                 unit: str, digits: int | None) -> Html:
    a, b = float(read(before)), float(read(after))
    ratio = b / a - 1 if a else 0.0
    share = fmt_percent(abs(ratio), digits if digits is not None else 0)
    if share == fmt_percent(0.0, digits if digits is not None else 0):
        return filled(s.get("figure.change.time_same"), {})
    return filled(s.get("figure.change.time_more" if ratio > 0 else "figure.change.time_less"), {"share": share})



#: The formats whose figures can be told as a change, and how.
CHANGES = ("verdict", "bytes", "duration")


def change_html(s: Strings, out: str, before: dict[str, Any], after: dict[str, Any], unit: str = "gb",
                digits: int | None = None, compare: bool = False) -> Html:
    """Figure ``out`` going from one answer to another, as one phrase: a verdict "stays tight (85% → 92%)" or "goes
    from comfortable (45%) to tight (95%)"; a size "from 11.6 GB to 24.4 GB" or "stays at 57.0 GB"; a time "29% more
    time"; ``compare`` adds to a size the words for its ratio ("from 3.2 GB to 4.2 GB, 33% more"). The span carries the later figure (``data-calc-value``) and the earlier (``data-calc-before``)."""
    fig = figure(out)
    if fig is None:
        raise KeyError(out)
    if fig.format.name not in CHANGES:
        raise FigureUnavailable(f"out={out} cannot be told as a change (only {', '.join(CHANGES)} figures can)")
    if fig.format.name == "verdict":
        text = _verdict_change(s, before, after, unit, digits)
    elif fig.format.name == "bytes":
        text = _size_change(s, before, after, fig.read, unit, digits, compare)
    else:
        text = _time_change(s, before, after, fig.read, unit, digits)
    return el("span", {"class": "calc-value calc-value--phrase", "data-calc-out": out, "data-calc-change": True,
                       "data-calc-before": fig.read(before), "data-calc-value": fig.read(after)}, text)
