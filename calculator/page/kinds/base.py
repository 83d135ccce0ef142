"""What a widget kind is: the request keys the reader edits in it, its defaults over the API's, the requests one
state needs, and how its results (and its form, its slots, its live-region sentence) are drawn. Each kind's module
(``estimator``, ``compare``, ``fits``, ``seqlen``) makes one ``WidgetKind`` and owns everything about it."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from ... import api
from ...inputs import BY_NAME, DEFAULTS
from ..form import compact_form
from ..text import Html, Strings

__all__ = ["WidgetKind", "DEFAULT_MODEL", "DEFAULT_GPU", "COMPACT", "FIRST_SETUP"]

DEFAULT_MODEL = "llama-3.1-8b"
DEFAULT_GPU = "rtx-4090"
#: The setup the full estimator opens on (the calculator page's first answer), chosen here once: the one most readers
#: come for. The threads readers write (research/anchors-2026-12-01.md §3, calculators.md) centre on 7-8B models on
#: 24 GB cards: torchtune #856 ("8k OOMs on 4090"), Unsloth PR #10815 (Llama-3.1-8B), LLaMA-Factory #3380 ("8B
#: column?"), Answer.AI's "two 24GB GPUs"; the UX review's LoRA-vs-QLoRA task is Llama 3.1 8B on an RTX 4090. So:
#: Llama 3.1 8B, QLoRA, RTX 4090, with the gradient checkpointing the frameworks turn on for it (TRL's SFTConfig,
#: LLaMA-Factory, PEFT's prepare_model_for_kbit_training). QLoRA rather than LoRA: 16-bit LoRA of an 8B model is at
#: the card's edge (about 22 GB of 24 at 2,048 tokens), QLoRA leaves room (about 12 GB), so the first answer fits;
#: the side-by-side below the estimator shows the other methods. The ``framework`` input (issue 19) adds its default
#: here and may then imply ``gradient_checkpointing``.
FIRST_SETUP = {"model": DEFAULT_MODEL, "method": "qlora", "gpu": DEFAULT_GPU, "gradient_checkpointing": True}
#: The compact widgets train with gradient checkpointing on by default: without it nothing but tiny models fits a
#: 24 GB card, and every QLoRA recipe turns it on.
COMPACT = {"seq_len": 2048, "micro_batch_size": 1, "gradient_checkpointing": True}


def _compact(kind: "WidgetKind") -> Callable[[Strings, str, dict[str, Any], list[dict[str, Any]]], Html]:
    return lambda s, wid, state, results: compact_form(s, wid, kind.fields, state)


@dataclass(frozen=True)
class WidgetKind:
    """One kind of widget. ``fields``: the request keys it lets the reader edit, in form order; ``requests``: the
    API requests one state needs, in the order ``results`` reads their answers; ``form``: its form (default: the
    controls of ``fields`` in one grid); ``slots``: parts of the widget outside the results fragment that follow the
    results; ``summary``: the sentence of its live region; ``varies``: the
    request keys its requests set themselves (a chart across sequence lengths, a comparison across methods), which an
    article's assumptions therefore do not fix and the widget does not list as set by the article. ``tail``: a part
    under the results that the results do not redraw. ``combine``: the answers as ``results``, ``slots``, ``summary``
    and ``controls`` read them, from the answers to ``requests`` (one request's answer asked in parts, each its own
    Python call in the worker, joined again)."""

    name: str
    fields: tuple[str, ...]
    defaults: dict[str, Any]
    requests: Callable[[dict[str, Any]], list[dict[str, Any]]]
    results: Callable[[Strings, list[dict[str, Any]], dict[str, Any]], Html]
    form: Callable[[Strings, str, dict[str, Any], list[dict[str, Any]]], Html] | None = None
    slots: Callable[[Strings, list[dict[str, Any]]], dict[str, Html]] = lambda s, results: {}
    summary: Callable[[Strings, list[dict[str, Any]]], str] = lambda s, results: s.get("out.updated")
    #: The form's rule as the reader edits (a framework picked fills its regime where the reader set nothing): from
    #: the state read and the raw controls (None: a link's state, written as it is), the state to answer and the
    #: control values to write into the form.
    regime: Callable[[dict[str, Any], dict[str, Any] | None], tuple[dict[str, Any], dict[str, Any]]] = \
        lambda state, raw: (state, {})
    #: What Python says beside a control about the state's value (a framework's default the reader's differs from).
    marks: Callable[[Strings, dict[str, Any]], dict[str, Html]] = lambda s, state: {}
    #: Control values to write into the form after an answer, from its results and the raw controls.
    controls: Callable[[list[dict[str, Any]], dict[str, Any]], dict[str, Any]] = lambda results, raw: {}
    #: Whether its form has the model fieldset (a catalogue model, a custom architecture, a pasted config).
    model_sources: bool = False
    varies: tuple[str, ...] = ()
    #: A part under the results that the results do not redraw (the estimator's "Run it" section), by widget id.
    tail: Callable[[Strings, str], Html] | None = None
    combine: Callable[[list[dict[str, Any]]], list[dict[str, Any]]] = lambda results: results
    def draw_form(self, s: Strings, wid: str, state: dict[str, Any], results: list[dict[str, Any]]) -> Html:
        return (self.form or _compact(self))(s, wid, state, results)

    def state(self, attrs: dict[str, Any], fixed: dict[str, Any] | None = None) -> dict[str, Any]:
        """The widget's editable state for a marker: its fields, from the marker's attributes, else the article's
        assumptions, else the kind's defaults, else the API's. Values in the API's form."""
        fixed = fixed or {}
        defaults = self.defaults
        state: dict[str, Any] = {}
        for key in self.fields:
            value = attrs.get(key, fixed.get(key, defaults.get(key, DEFAULTS.get(key))))
            if key == "lora_targets":          # the form shows one checkbox per module: the state is the list
                value = list(api.check_value(BY_NAME[key], value))
            state[key] = value
        return state

    def fixed(self, attrs: dict[str, Any], article: dict[str, Any] | None = None) -> dict[str, Any]:
        """The request keys a widget takes from its article and marker without letting the reader edit them."""
        merged = {**(article or {}), **attrs}
        return {k: v for k, v in merged.items() if k not in self.fields and k not in self.varies}

    def requests_for(self, state: dict[str, Any], fixed: dict[str, Any] | None = None) -> list[dict[str, Any]]:
        """The API requests one state needs, in the order the renderer reads their results."""
        return self.requests({**(fixed or {}), **state})
