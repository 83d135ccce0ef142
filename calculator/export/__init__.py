"""From an estimate to a run and back: the setup as the files a framework runs, and a framework's config read into a
request.

``export(request, target)`` takes a request (the JSON object ``calculator.api`` accepts) and returns the target's
files (``{file name: text}``), the keys it cannot express (each with the value the file gives instead, why, and what
to do), and the request the files realise (the input after the export's adjustments; the estimate beside the export
is computed for it). ``read(target_or_auto, files)`` reads pasted configs (a YAML, plus a DeepSpeed JSON or an
accelerate YAML) into a request, filling what they leave out with that framework's defaults
(``calculator.frameworks``); unread keys are listed, contradictions are error codes naming the field.

Targets, one module each: ``trl`` (TRL CLI YAML + accelerate config + DeepSpeed JSON), ``axolotl``,
``llamafactory``, ``unsloth`` (a Python script, plus ``unsloth train``'s YAML when the setup fits it). Pure Python;
YAML is read with ruamel.yaml, imported only when reading. No prose for readers: comments in the files are
rendered from codes through ``TEXT`` (the caller may pass its own table), errors are codes.
"""
from __future__ import annotations

from typing import Any, Mapping

from .. import api, frameworks
from ..errors import InputError
from . import axolotl, llamafactory, trl, unsloth
from ._common import EXPORT_KEYS, TEXT, CannotExpress, Export, Plan, Read, ReadState, kind_of, parse_texts, relevant, summary_of

__all__ = ["TARGETS", "export", "read", "Export", "Read", "CannotExpress", "TEXT", "relevant", "READ_ERRORS"]

#: Export targets, in the order the page shows them.
TARGETS: tuple[str, ...] = ("trl", "axolotl", "llamafactory", "unsloth")
_MODULES = {"trl": trl, "axolotl": axolotl, "llamafactory": llamafactory, "unsloth": unsloth}

#: Error codes ``read`` answers with (beside the request codes of ``calculator.api.ERROR_CODES``).
READ_ERRORS: tuple[str, ...] = ("invalid_yaml", "invalid_json", "invalid_python", "not_an_object", "too_large", "unknown_target",
                                "missing_field", "wrong_type", "unknown_value", "out_of_range", "contradiction",
                                "not_modelled")


def export(request: Mapping[str, Any], target: str, *, summary: Mapping[str, Any] | None = None,
           text: Mapping[str, str] | None = None) -> Export:
    """The target's files for ``request``. Raises ``errors.InputError`` for a request the estimator refuses (the exporter
    refuses it too) and ``KeyError`` for an unknown target.

    ``summary`` (model, method, peak, statistic, count, gpu) is the estimate the header names; by default the
    estimate of the adjusted request. ``text`` maps comment codes to the reader's language (default ``TEXT``).
    """
    module = _MODULES[target]
    plan = Plan(target, request)
    module.plan(plan)
    adjusted = plan.request()
    api.parse_request({k: v for k, v in adjusted.items()})      # the adjusted request must be one the estimator takes
    files = module.write(plan, summary if summary is not None else summary_of(plan), text)
    return Export(target=target, framework_version=plan.framework.version, files=files,
                  cannot_express=tuple(plan.cannot), request=adjusted, adjustments=tuple(plan.adjustments))


def _fill(state: ReadState) -> None:
    """Keys the files leave out: the framework's default (``calculator.frameworks``), else the estimator's own (a
    regime the framework has no switch for, e.g. ``keeps_logits``)."""
    fw = frameworks.defaults(state.target, request=state.keys)
    for key in EXPORT_KEYS:
        if key not in state.keys:
            state.keys[key] = fw.get(key, api.DEFAULTS[key])


def read(target: str, files: Mapping[str, str]) -> Read:
    """Pasted configs (file name -> text) read into a request for ``target`` (or ``"auto"``: told from the keys)."""
    state = ReadState(target)
    cfgs = parse_texts(files, state)
    if state.errors:
        return Read(target=None if target == "auto" else target, request=None, unread=tuple(state.unread),
                    errors=tuple(state.errors))
    kinds = {name: kind_of(cfg) for name, cfg in cfgs.items()}
    if target == "auto":
        main = [k for k in kinds.values() if k not in ("deepspeed", "accelerate")]
        target = main[0] if len(set(main)) == 1 else ""
    if target not in _MODULES:
        return Read(target=None, request=None, unread=(), errors=({"code": "unknown_target", "file": None,
                                                                    "field": None},))
    state.target = target
    for name, kind in kinds.items():
        if kind not in ("deepspeed", "accelerate"):
            kinds[name] = target
    _MODULES[target].read(state, cfgs, kinds)
    _fill(state)
    request: dict[str, Any] | None = dict(state.keys)
    if state.model is not None:
        request["model"] = state.model
    if state.errors:
        request = None
    else:
        request = {k: list(v) if isinstance(v, tuple) else v for k, v in request.items()}
        if "model" in request:
            try:
                api.parse_request(request)
            except InputError as err:
                state.error(err.code, None, err.field)
                request = None
    return Read(target=target, request=request, unread=tuple(state.unread), errors=tuple(state.errors))
