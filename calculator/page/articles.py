"""What an article shows without JavaScript: its tables (``<!-- calc:table … -->``), its inline figures
(``<!-- calc:value … -->``, each figure's format in ``figures``) and the sentence of its shared assumptions
(``<!-- calc:assumptions -->``). The site build writes them into the page on CPython with these functions and
nothing redraws them live, so the page shows exactly this markup.

Every number is an answer of the estimator: ``ask`` is the caller's ``calculator.api`` call (the build's is cached
and fails the build on a refusal, naming the marker), and the decision chart's smallest setup is
``api.smallest_setup``'s (the estimator's one solver). What an author wrote wrong (a table option, a figure without
its card) raises ``PageError``, which the build reports with the page's name.

An article's shared assumptions are its front matter's ``calc:`` mapping (identical in both language files); a table
or an inline figure starts from them and applies its marker's own keys.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from .. import api
from ..errors import FigureUnavailable, PageError
from ..inputs import BY_NAME, LORA_KEYS
from .figures import CARD_FIGURES, change_html, figure, figure_html, figure_names, size_text
from .pieces import bytes_html, describe_assumptions, phrase_html, setup_label, table_html, verdict_html
from .text import Html, Strings, counted, el, filled, fmt_percent, join, ltr, plain_text

__all__ = ["Ask", "ArticleTable", "ARTICLE_TABLES", "TABLE_SIZES", "TABLE_CARD", "TABLE_COUNTS", "TABLE_ASSUMPTIONS",
           "GPU_CLASSES", "TABLE_CLASS_METHODS", "STACKS", "STACK_KEYS", "STACK_WORKLOADS", "DECISION_BRANCHES", "class_members", "class_card", "table_html_for",
           "value_html", "assumptions_html"]

#: The result of one request (the ``result`` of ``api.answer``); raises on a refusal.
Ask = Callable[[dict[str, Any]], dict[str, Any]]

# ---------------------------------------------------------------------------------------------------------------
# Article tables
# ---------------------------------------------------------------------------------------------------------------
#: The models standing for each size class in the VRAM guide: the models readers fine-tune in late 2026, with their
#: large vocabularies (Llama 3.1's 128k, Qwen2.5's 152k). Llama 3.3 70B has Llama 3.1 70B's architecture.
TABLE_SIZES = (("8B", "llama-3.1-8b"), ("14B", "qwen2.5-14b"), ("32B", "qwen2.5-32b"), ("70B", "llama-3.1-70b"))
TABLE_CARD = "h100-80gb"                 # the guide's "80 GB" node card (the A100 80GB reports a little more)
TABLE_COUNTS = (1, 2, 4, 8)              # several cards are sharded with ZeRO-3 / FSDP full shard
#: Pure bf16 with fused AdamW (torchtune's full fine-tuning recipes), checkpointing on. A marker may override any of
#: them; the caption lists the ones used.
TABLE_ASSUMPTIONS: dict[str, Any] = {
    "precision": "bf16", "optimizer": "adamw_torch_fused", "lora_rank": 16, "lora_targets": "all-linear",
    "seq_len": 2048, "micro_batch_size": 1, "grad_accum_steps": 1, "gradient_checkpointing": True,
    "attention": "sdpa",
}
#: The GPU classes of the guide by the memory their cards report (GiB, as nvidia-smi shows it), not the size they are
#: sold as: (label, lowest GiB, highest GiB, the kinds of card the class takes). A class's members are the catalogue's
#: cards in its band, so a new card joins its class by itself; a class is checked on its smallest member, so what the
#: table says holds on every member. (The V100 32GB reports 32 GiB but predates bf16: it stays out of the 32 GB class.)
GPU_CLASSES = (("24 GB", 20.0, 26.0, ("consumer", "datacenter")),
               ("32 GB", 30.0, 34.0, ("consumer",)),
               ("48 GB", 44.0, 50.0, ("workstation", "datacenter")),
               ("80 GB", 78.0, 82.0, ("datacenter",)),
               ("94–96 GB", 90.0, 100.0, ("workstation", "datacenter")),
               ("141 GB", 135.0, 150.0, ("datacenter",)),
               ("180–192 GB", 170.0, 200.0, ("datacenter",)))
#: The methods the class table answers for, in the order a reader with one card tries them (QLoRA first), with the
#: settings that make a method a different recommendation.
TABLE_CLASS_METHODS = (("qlora", {}), ("lora", {}), ("full", {}), ("full", {"optimizer": "adamw_8bit"}))
#: The branches of the decision chart: method, then precision (the request keys that make it), each answered per size
#: with the smallest setup of the classes above that holds the run comfortably.
DECISION_BRANCHES = (("qlora", "nf4", {}), ("lora", "base16", {}), ("full", "bf16", {}),
                     ("full", "mixed", {"precision": "mixed"}))
_GIB = 1 << 30


def class_members(label: str) -> list[str]:
    """The catalogue's cards of a class, smallest reported memory first."""
    _label, lo, hi, kinds = next(c for c in GPU_CLASSES if c[0] == label)
    found = [g for g in api.GPUS.values() if lo <= g.memory_bytes / _GIB <= hi and g.klass in kinds]
    return [g.id for g in sorted(found, key=lambda g: (g.memory_bytes, g.name))]


def class_card(label: str) -> str:
    """The card a class is checked on: its smallest member."""
    return class_members(label)[0]


@dataclass(frozen=True)
class ArticleTable:
    """One kind of article table: the marker options it takes beside request keys, whether its caption names the
    LoRA settings (``lora(options)``), and how it is drawn from its assumptions and its caption's sentence
    (``draw(s, options, assumptions, said, ask)``)."""

    name: str
    options: frozenset[str]
    draw: Callable[[Strings, dict[str, Any], dict[str, Any], Html, Ask], Html]
    lora: Callable[[dict[str, Any]], bool] = lambda options: True


def table_html_for(s: Strings, name: str, options: dict[str, Any], own: dict[str, Any], article: dict[str, Any],
                   ask: Ask) -> Html:
    """The table ``name`` of a marker: it starts from the article's shared assumptions (else TABLE_ASSUMPTIONS), then
    the marker's own keys ``own``; its caption lists the assumptions it used."""
    table = ARTICLE_TABLES[name]
    assumptions = {**TABLE_ASSUMPTIONS, **article, **own}
    said = _assumed(s, article, own, assumptions, lora=table.lora(options))
    return table.draw(s, options, assumptions, said, ask)


def _assumed(s: Strings, article: dict[str, Any], own: dict[str, Any], assumptions: dict[str, Any],
             lora: bool) -> Html:
    """What a table's caption says it assumed: the article's assumptions stated above it, and only the marker's own
    keys beside them (a full-fine-tuning table leaves the LoRA settings out); without front matter, every key."""
    if not article:
        shown = {k: v for k, v in assumptions.items() if lora or k not in LORA_KEYS}
        return join(s.get("table.assuming"), " ", describe_assumptions(s, shown), ".")
    own = {k: v for k, v in own.items() if lora or k not in LORA_KEYS}
    if not own:
        return join(s.get("table.as_above"), ".")
    return join(s.get("table.as_above_but"), " ", describe_assumptions(s, own), ".")


def _on_cards(n: int) -> dict[str, Any]:
    """The request keys of a setup on ``n`` cards: several are sharded with ZeRO-3 / FSDP full shard."""
    return {"num_gpus": n, "sharding": "zero3" if n > 1 else "none"}


def _fit_cell(s: Strings, r: dict[str, Any]) -> Html:
    """The verdict of one estimate, with its share of the card: "✓ comfortable 58%"; a share that whole percents
    would print as "100%" beside "does not fit" (100.5%) or "tight" (99.6%) keeps one decimal."""
    share = r["gpu"]["share_of_memory"]
    digits = 1 if fmt_percent(share, 0) == fmt_percent(1.0, 0) and share != 1.0 else 0
    return el("span", {"class": "calc-fitcell"}, verdict_html(s, r["gpu"]["verdict"]), " ",
              el("span", {"class": "calc-fitcell__share"}, ltr(fmt_percent(share, digits))))


def _needs_by_size(s: Strings, options: dict[str, Any], assumptions: dict[str, Any], said: Html, ask: Ask) -> Html:
    """One row per size, one column per count of the guide's node card: the peak per card and its verdict."""
    method = options.get("method", "full")
    if method not in BY_NAME["method"].choices:
        raise PageError(f"calc:table needs-by-size method must be one of {BY_NAME['method'].choices}")
    card = api.GPUS[TABLE_CARD]
    heads = [setup_label(n, "80 GB") for n in TABLE_COUNTS]
    head = [el("th", {"scope": "col"}, s.get("table.size"))] + [el("th", {"scope": "col"}, h) for h in heads]
    body = []
    for label, model in TABLE_SIZES:
        cells = []
        for n, h in zip(TABLE_COUNTS, heads):
            r = ask({**assumptions, "model": model, "method": method, "gpu": TABLE_CARD, **_on_cards(n),
                     "include": []})
            cells.append(el("td", {"data-gpus": n, "data-label": plain_text(h)},
                            bytes_html(r["peak_bytes_per_gpu"], "peak_bytes_per_gpu"), " ", _fit_cell(s, r)))
        body.append(el("tr", {"data-model": model},
                       el("th", {"scope": "row"}, ltr(label), " ",
                          el("span", {"class": "calc-muted calc-rowmodel"}, ltr(api.MODELS[model].name))), cells))
    caption = join(filled(s.get("table.needs_title"), {"gpu": card.name,
                                                       "memory": ltr(size_text(card.memory_bytes, "gib"))}), " ", said)
    return table_html({"class": "calc-table-figure calc-static", "data-calc-table": "needs-by-size",
                       "data-method": method}, caption, head, body, "calc-table calc-table--cards")


def _largest(method: str, extra: dict[str, Any], gpu: str, assumptions: dict[str, Any],
             ask: Ask) -> tuple[int | None, list[tuple[str, str, dict[str, Any]]]]:
    """Per size, the estimate on one card; and the index of the largest size that surely fits (tight counts, the edge
    does not: recommend.surely_fits)."""
    cells = [(size, model, ask({**assumptions, **extra, "model": model, "method": method, "gpu": gpu, "include": []}))
             for size, model in TABLE_SIZES]
    fitting = [i for i, (_s, _m, r) in enumerate(cells) if api.surely_fits(r["gpu"]["verdict"])]
    return (fitting[-1] if fitting else None), cells


def _method_name(s: Strings, method: str, extra: dict[str, Any]) -> Html:
    return join(s.get(f"table.{method}"), join(" ", el("span", {"class": "calc-muted"}, "(", s.get("table.with_8bit"),
                                                       ")")) if extra.get("optimizer") == "adamw_8bit" else "")


def _gpu_classes(s: Strings, options: dict[str, Any], assumptions: dict[str, Any], said: Html, ask: Ask) -> Html:
    """One row per class, one column per method: the largest size one card of the class holds (its verdict and share)
    and the next size up; the answer columns come right after the class, and on a phone each row is a card."""
    names = [_method_name(s, m, extra) for m, extra in TABLE_CLASS_METHODS]
    head = [el("th", {"scope": "col"}, s.get("table.class"))] + [el("th", {"scope": "col"}, n) for n in names]
    body = []
    for label, *_band in GPU_CLASSES:
        members = class_members(label)
        if not members:
            continue
        gpu = members[0]
        cells = []
        for (method, extra), name in zip(TABLE_CLASS_METHODS, names):
            best, sized = _largest(method, extra, gpu, assumptions, ask)
            nxt = (best + 1 if best + 1 < len(sized) else None) if best is not None else 0
            cells.append(el("td", {"data-method": method, "data-optimizer": extra.get("optimizer"),
                                   "data-label": plain_text(name)},
                            _size_cell(s, "best", sized, best), _size_cell(s, "next", sized, nxt)))
        memory = ltr(size_text(api.GPUS[gpu].memory_bytes, "gib"))
        body.append(el("tr", {"data-gpu": gpu, "data-class": label},
                       el("th", {"scope": "row"}, el("span", {"class": "calc-classname"}, ltr(label)), " ",
                          el("span", {"class": "calc-muted calc-rowmodel"},
                             filled(s.get("table.checked_on"), {"gpu": api.GPUS[gpu].name, "memory": memory}))),
                       cells))
    caption = join(s.get("table.gpu_classes_title"), " ", said)
    return table_html({"class": "calc-table-figure calc-static", "data-calc-table": "gpu-classes"}, caption, head,
                      body, "calc-table calc-table--cards")


def _size_cell(s: Strings, role: str, cells: list[tuple[str, str, dict[str, Any]]], index: int | None) -> Html:
    if index is None:
        return el("span", {"class": f"calc-sizecell calc-sizecell--{role}", "data-role": role},
                  s.get("table.none") if role == "best" else "")
    size, model, r = cells[index]
    lead = join(s.get("table.next"), " ") if role == "next" else ""
    return el("span", {"class": f"calc-sizecell calc-sizecell--{role}", "data-role": role, "data-model": model},
              lead, el("b", {}, ltr(size)), " ", _fit_cell(s, r))


def _gpu_memory(s: Strings, options: dict[str, Any], assumptions: dict[str, Any], said: Html, ask: Ask) -> Html:
    """Every card of the catalogue by the memory its driver reports, smallest first, beside the size it is sold as:
    a strip of bars drawn from the catalogue, so a new card appears by itself."""
    cards = sorted(api.GPUS.values(), key=lambda g: (g.memory_bytes, g.name))
    top = max(g.memory_bytes for g in cards)
    classes = {gpu: label for label, *_b in GPU_CLASSES for gpu in class_members(label)}
    rows = []
    for g in cards:
        share = g.memory_bytes / top * 100
        label = classes.get(g.id)
        rows.append(el("li", {"class": "calc-strip__row", "data-gpu": g.id, "data-class": label,
                              "data-value": g.memory_bytes, "style": f"--calc-w: {share:.2f}%"},
                       el("span", {"class": "calc-strip__name"}, ltr(g.name)),
                       el("span", {"class": "calc-strip__bar", "aria-hidden": "true"}),
                       el("span", {"class": "calc-strip__value"}, ltr(size_text(g.memory_bytes, "gib")),
                          join(" ", el("span", {"class": "calc-muted"}, "(", filled(s.get("table.class_of"),
                                                                                  {"label": ltr(label)}), ")"))
                          if label else "")))
    return el("figure", {"class": "calc-table-figure calc-static calc-strip", "data-calc-table": "gpu-memory"},
              el("figcaption", {"class": "calc-table-caption"}, s.get("table.gpu_memory_title")),
              el("ol", {"class": "calc-strip__rows"}, rows))


def _class_setup(method: str, extra: dict[str, Any], model: str, assumptions: dict[str, Any],
                 ask: Ask) -> tuple[str, str, int, dict[str, Any]] | None:
    """The smallest setup among the classes' cards, each in the guide's counts, that holds the run comfortably
    (``api.smallest_setup``: fewest cards, then least memory): (class, card, count, its estimate), or None."""
    cards = {class_card(label): label for label, *_band in GPU_CLASSES if class_members(label)}
    request = {**assumptions, **extra, "model": model, "method": method, "include": []}
    found = api.smallest_setup(request, tuple(cards), TABLE_COUNTS)["comfortable"]
    if found is None:
        return None
    gpu, n = found["gpu"], found["num_gpus"]
    return cards[gpu], gpu, n, ask({**request, "gpu": gpu, **_on_cards(n)})


def _decision(s: Strings, options: dict[str, Any], assumptions: dict[str, Any], said: Html, ask: Ask) -> Html:
    """Method -> precision -> card class on one screen, drawn as a tree of nested lists (no script, no picture): each
    method holds its precisions, and each precision ends, per model size, in the smallest setup of the guide's
    classes that holds the run comfortably, computed when the page is built. calc.css draws the boxes and arrows
    with logical properties, so the chart mirrors in Arabic and stacks on a phone; the arrows are decoration only
    (their alternative text is empty), a screen reader reads the lists."""
    methods: dict[str, list[Html]] = {}
    for method, precision, extra in DECISION_BRANCHES:
        answers = []
        for size, model in TABLE_SIZES:
            found = _class_setup(method, extra, model, assumptions, ask)
            if found is None:
                answers.append(el("li", {"class": "calc-decision__answer", "data-model": model},
                                  el("b", {}, ltr(size)), " ", s.get("table.decision_none")))
                continue
            label, gpu, n, r = found
            answers.append(el("li", {"class": "calc-decision__answer", "data-model": model, "data-gpu": gpu,
                                     "data-num-gpus": n, "data-class": label},
                              el("b", {}, ltr(size)), " ",
                              filled(s.get("table.decision_answer_one" if n == 1 else "table.decision_answer"), {
                                  "class": ltr(label), "cards": counted(s, "cards", n), "gpu": ltr(api.GPUS[gpu].name),
                                  "share": ltr(fmt_percent(r["gpu"]["share_of_memory"], 0))})))
        methods.setdefault(method, []).append(
            el("li", {"class": "calc-decision__branch", "data-method": method, "data-precision": precision},
               el("p", {"class": "calc-decision__step calc-decision__step--precision"},
                  s.get(f"table.decision.{precision}")),
               el("ul", {"class": "calc-decision__answers"}, answers)))
    tree = [el("li", {"class": "calc-decision__method", "data-method": method},
               el("p", {"class": "calc-decision__step calc-decision__step--method"}, s.get(f"table.decision.{method}")),
               el("ol", {"class": "calc-decision__precisions"}, branches))
            for method, branches in methods.items()]
    caption = join(s.get("table.decision_title"), " ", said)
    return el("figure", {"class": "calc-table-figure calc-static calc-decision", "data-calc-table": "decision"},
              el("figcaption", {"class": "calc-table-caption"}, caption),
              el("ol", {"class": "calc-decision__methods"}, tree))


# ---------------------------------------------------------------------------------------------------------------
# The stacks table: what each framework's defaults do to memory (calculator/frameworks.py, the estimator's regimes)
# ---------------------------------------------------------------------------------------------------------------
#: The columns of the stacks table: the article's own assumptions ("guide"), then each framework of the estimator's
#: regime table at its pinned version (``frameworks.LATEST``).
STACKS = ("guide", "peft", "trl", "axolotl", "llamafactory", "unsloth", "torchtune")
#: The request keys whose framework default moves memory, one row each, resolved for the methods named (a value that
#: differs between them is shown per method).
STACK_KEYS = (("precision", ("qlora", "full")), ("base_fp32", ("full",)),
              ("gradient_checkpointing", ("qlora", "full")), ("fused_linear_cross_entropy", ("full",)),
              ("chunked_cross_entropy", ("full",)), ("qlora_compute_dtype", ("qlora",)),
              ("kbit_upcast", ("qlora",)), ("lora_dtype", ("qlora",)), ("fsdp_version", ("full",)),
              ("moe_layout", ("qlora",)), ("quantize_experts", ("qlora",)))
#: The workloads each stack is asked for (model, method, tokens and batch fixed; the stack fills the rest): the
#: guide's 8,192-token QLoRA example on the 24 GB class's smallest card, and full fine-tuning of 8B on the node card.
STACK_WORKLOADS = (("qlora_8k", {"model": "llama-3.1-8b", "method": "qlora", "seq_len": 8192, "gpu": "l4"}),
                   ("full_8b", {"model": "llama-3.1-8b", "method": "full", "seq_len": 2048, "gpu": TABLE_CARD}))
_STACK_FIXED = {"micro_batch_size": 1, "grad_accum_steps": 1, "lora_rank": 16, "lora_targets": "all-linear"}


def _stack_request(stack: str, method: str, key: str, assumptions: dict[str, Any]) -> dict[str, Any] | None:
    """The request keys a stack gives a run of ``method``: the article's assumptions for the guide, a framework's
    defaults otherwise (``api.framework_json``: what calculator/frameworks.py fills); None when that framework's table
    does not set ``key``."""
    if stack == "guide":
        return {**api.DEFAULTS, **assumptions, "method": method}
    given = {d["key"]: d["value"] for d in api.framework_json({"framework": stack, "method": method})["defaults"]}
    return {**given, "method": method} if key in given else None


def _stack_value(s: Strings, key: str, requests: dict[str, dict[str, Any] | None]) -> Html:
    """A stack's value of ``key`` per method, once when the methods agree; a framework whose table does not set the
    key (None) shows a dash, not the estimator's own default."""
    spec = BY_NAME[key]
    said = {m: s.get("table.stacks_unset") if r is None else phrase_html(s, spec.value_kind.describe(spec, r[key]))
            for m, r in requests.items()}
    values = {repr(None if r is None else r[key]) for r in requests.values()}
    if len(values) == 1:
        return next(iter(said.values()))
    return join(*[join(el("span", {"class": "calc-muted"}, s.get(f"table.{m}"), s.get("out.colon")), v,
                       s.get("out.list_sep") if i < len(said) - 1 else "") for i, (m, v) in enumerate(said.items())])


def _stacks(s: Strings, options: dict[str, Any], assumptions: dict[str, Any], said: Html, ask: Ask) -> Html:
    """One column per stack (its name and pinned version, the string table's), one row per memory-relevant default
    and per workload: each cell is the estimator's regime table (calculator/frameworks.py, through the API) or its
    answer for that stack, never a typed value."""
    heads = []
    for stack in STACKS:
        if stack == "guide":
            heads.append(s.get("table.stacks_guide"))
            continue
        heads.append(s.get(f"options.framework.{stack}"))
    labels = [plain_text(h) for h in heads]
    head = [el("th", {"scope": "col"}, s.get("table.stacks_setting"))] + [el("th", {"scope": "col"}, h) for h in heads]
    body = []
    for key, methods in STACK_KEYS:
        cells = [el("td", {"data-stack": stack, "data-label": label},
                    _stack_value(s, key, {m: _stack_request(stack, m, key, assumptions) for m in methods}))
                 for stack, label in zip(STACKS, labels)]
        body.append(el("tr", {"data-key": key}, el("th", {"scope": "row"}, s.get(f"fields.{key}.label")), cells))
    for name, workload in STACK_WORKLOADS:
        cells = []
        for stack, label in zip(STACKS, labels):
            request = {**workload, **_STACK_FIXED, "include": []}
            if stack == "guide":
                request = {**assumptions, **request}
            else:
                request["framework"] = stack
            r = ask(request)
            cells.append(el("td", {"data-stack": stack, "data-label": label},
                            bytes_html(r["peak_bytes_per_gpu"], "peak_bytes_per_gpu"), " ", _fit_cell(s, r)))
        row_head = filled(s.get(f"table.stacks_{name}"), {"gpu": ltr(api.GPUS[workload["gpu"]].name),
                                                           "model": ltr(api.MODELS[workload["model"]].name)})
        body.append(el("tr", {"data-workload": name}, el("th", {"scope": "row"}, row_head), cells))
    caption = join(s.get("table.stacks_title"), " ", said)
    return table_html({"class": "calc-table-figure calc-static", "data-calc-table": "stacks"}, caption, head, body,
                      "calc-table calc-table--cards calc-table--stacks")


#: Every kind of article table, by its marker name (``<!-- calc:table NAME … -->``): the one registry that the
#: markers and the build read.
ARTICLE_TABLES: dict[str, ArticleTable] = {t.name: t for t in (
    ArticleTable("needs-by-size", frozenset({"method"}), _needs_by_size,
                 lora=lambda options: options.get("method", "full") != "full"),
    ArticleTable("gpu-classes", frozenset(), _gpu_classes),
    ArticleTable("gpu-memory", frozenset(), _gpu_memory),
    ArticleTable("decision", frozenset(), _decision),
    ArticleTable("stacks", frozenset(), _stacks),
)}


# ---------------------------------------------------------------------------------------------------------------
# Inline figures: <!-- calc:value out=… --> (what each figure is and how it reads: figures.py)
# ---------------------------------------------------------------------------------------------------------------
def value_html(s: Strings, options: dict[str, Any], own: dict[str, Any], article: dict[str, Any], ask: Ask) -> Html:
    """One inline figure: the marker's request (the article's assumptions, then its own keys) asks for what the
    figure ``out`` needs; with ``to`` (the marker's ``to.<key>`` options) it is told as a change to that request."""
    out = options["out"]
    fig = figure(out)
    if fig is None:
        raise PageError(f"calc:value out={out!r} is not one of {figure_names()}")
    request = {**article, **own}
    if "gpu" in fig.needs and not request.get("gpu"):
        raise PageError(f"calc:value out={out} needs gpu=… (in the marker or the front matter)")
    request["include"] = [n for n in fig.needs if n != "gpu"]
    if "model" not in request and out in CARD_FIGURES:
        request["model"] = next(iter(api.MODELS))     # a card's datasheet figure reads the card only, never the model
    if "model" not in request:
        raise PageError("calc:value needs model=… (in the marker or the front matter)")
    answer = ask(request)
    unit = options.get("unit", fig.unit)
    if unit not in ("gb", "gib"):
        raise PageError("calc:value unit must be gb or gib")
    if options.get("compare") and not options.get("to"):
        raise PageError("calc:value compare=true compares the figure with its to.<key> change: give one")
    to = options.get("to")
    try:
        if to:
            return change_html(s, out, answer, ask({**request, **to}), unit, options.get("digits"),
                               bool(options.get("compare")))
        return figure_html(s, out, answer, unit, options.get("digits"))
    except FigureUnavailable as exc:
        raise FigureUnavailable(f"calc:value out={out}: {exc}") from exc


def assumptions_html(s: Strings, article: dict[str, Any]) -> Html:
    """The sentence of an article's shared assumptions (``<!-- calc:assumptions -->``)."""
    if not article:
        raise PageError("<!-- calc:assumptions --> needs a `calc:` mapping in the front matter")
    return el("p", {"class": "calc-assumptions", "data-calc-assumptions": True}, s.get("out.assumptions_intro"),
              s.get("out.colon"), describe_assumptions(s, article), ".")
