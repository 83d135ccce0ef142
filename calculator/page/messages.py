"""The estimator's refusals in the reader's words: a code and the field it names become the message shown next to
that field's control (a field-specific text where the string table has one, else the code's own, per kind of value
for ``wrong_type`` and with the allowed range for ``out_of_range``)."""
from __future__ import annotations

from dataclasses import dataclass

from ..inputs import BY_NAME
from .pieces import bounds_text
from .text import Html, Strings, el, filled, join, ltr

__all__ = ["FieldError", "message_for"]


@dataclass(frozen=True)
class FieldError:
    """One refusal, on the field whose control shows it."""

    field: str | None
    code: str
    quiet: bool = False      # nothing typed yet (an empty paste box): no message, results kept but out of date
    reason: str | None = None  # why (unsupported_model, unsupported_on_gpu): its sentence follows the message


def message_for(s: Strings, code: str, field: str | None, reason: str | None = None) -> Html:
    """The message for an API error on a field, with the reason's own sentence when the refusal gives one."""
    if reason:
        return join(message_for(s, code, field), " ", s.get(f"errors.reasons.{reason}"))
    field = field or ""
    specific = s.get(f"errors.by_field.{field}.{code}", "") or (
        s.get(f"errors.by_field.{field}", "") if code in ("contradiction", "missing_field") else "")
    if specific:
        return join(specific)
    spec = BY_NAME.get(field)
    if code == "wrong_type":
        kind = spec.value_kind.name if spec else ("model_field" if field.startswith("model.") else "model")
        return join(s.get(f"errors.wrong_type.{kind}", s.get("errors.wrong_type.other")),
                    _config_field_suffix(field))
    bounds = spec.value_kind.bounds(spec) if spec is not None else None
    if code == "out_of_range" and bounds is not None:
        lo, hi = bounds_text(*bounds)
        return filled(s.get("errors.out_of_range_between"), {"min": lo, "max": hi})
    return join(s.get(f"errors.{code}", s.get("errors.internal_error")), _config_field_suffix(field))


def _config_field_suffix(field: str) -> Html:
    if field.startswith("model.") and "." not in field[6:]:
        return join(" (", ltr(el("code", {}, field[6:])), ")")
    return join()
