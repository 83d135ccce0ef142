"""The estimator's refusals in the reader's words: a code and the field it names become the message shown next to
that field's control (a field-specific text where the string table has one, else the code's own, per kind of value
for ``wrong_type`` and with the allowed range for ``out_of_range``)."""
from __future__ import annotations

from dataclasses import dataclass

from .. import api
from ..inputs import BY_NAME
from .pieces import bounds_text
from .text import Html, Strings, el, filled, fmt_count, fmt_int, join, ltr

__all__ = ["FieldError", "message_for"]


@dataclass(frozen=True)
class FieldError:
    """One refusal, on the field whose control shows it."""

    field: str | None
    code: str
    quiet: bool = False      # nothing typed yet (an empty paste box): no message, results kept but out of date
    reason: str | None = None  # why (unsupported_model, unsupported_on_gpu): its sentence follows the message
    candidates: tuple[str, ...] = ()   # the ids an ambiguous model name could be (ambiguous_model)


def message_for(s: Strings, code: str, field: str | None, reason: str | None = None,
                candidates: tuple[str, ...] = ()) -> Html:
    """The message for an API error on a field, with the reason's own sentence when the refusal gives one, and the
    ids an ambiguous model name could be."""
    if reason:
        return join(message_for(s, code, field), " ", s.get(f"errors.reasons.{reason}"))
    if code == "ambiguous_model":
        return filled(s.get("errors.ambiguous_model"),
                      {"candidates": join(*(join(", " if i else "", ltr(el("code", {}, c)))
                                            for i, c in enumerate(candidates)))})
    field = field or ""
    spec = BY_NAME.get(field)
    bounds = spec.value_kind.bounds(spec) if spec is not None else _model_bounds(field)
    own = s.get(f"errors.by_field.{field}", "")            # a field's own words: contradictions, missing values,
    general = code in ("contradiction", "missing_field") or (code == "out_of_range" and spec is not None and not bounds)
    specific = s.get(f"errors.by_field.{field}.{code}", "") or (own if general else "")   # ... a list left empty
    if specific:
        return _limits(s, specific)
    if code == "wrong_type":
        return join(s.get(f"errors.wrong_type.{_kind(field, spec)}", s.get("errors.wrong_type.other")),
                    _config_field_suffix(field))
    if code in ("out_of_range", "too_large") and bounds is not None:       # the range, said (issue 42, point 8)
        lo, hi = bounds_text(*bounds)
        return join(filled(s.get("errors.out_of_range_between"), {"min": lo, "max": hi}), _config_field_suffix(field))
    return join(_limits(s, s.get(f"errors.{code}", s.get("errors.internal_error"))), _config_field_suffix(field))


def _model_bounds(field: str) -> tuple[float, float, bool] | None:
    """The limits of a pasted or custom config's field ("model.hidden_size"), as a key's bounds."""
    limits = api.MODEL_LIMITS.get(field[6:]) if field.startswith("model.") else None
    if limits is None:
        return None
    low, high = limits
    return low, high, isinstance(low, int) and isinstance(high, int)


def _kind(field: str, spec) -> str:
    """Which wrong-type message a field takes: its key's kind of value, a config field's own kind (a flag written as
    a string is not "a whole number"), else the model's."""
    if spec is not None:
        return spec.value_kind.name
    if field.startswith("model.") and field.rsplit(".", 1)[-1] in api.CONFIG_LISTS:
        return "model_list"                          # layer_types, mlp_only_layers: a list, not a number
    if field.startswith("model."):
        f = {f.name: f for f in api.MODEL_FIELDS}.get(field[6:])
        return (f.field_kind if f is not None else api.FIELD_KINDS["int"]).message   # a read-only field: a number
    return "model"


def _limits(s: Strings, template: str) -> Html:
    """A message with the estimator's limits filled in ({chars}: the longest JSON it reads; {params}: the largest
    model it counts)."""
    number, scale = fmt_count(api.MAX_PARAMS, 0)
    return filled(template, {"chars": fmt_int(api.MAX_INPUT_CHARS),
                             "params": filled(s.get(f"units.{scale}"), {"n": number}) if scale else number})


def _config_field_suffix(field: str) -> Html:
    if field.startswith("model.") and field[6:]:           # the config's key, or its path in a nested block
        return join(" (", ltr(el("code", {}, field[6:])), ")")
    return join()
