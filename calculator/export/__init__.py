"""From an estimate to a run and back: the setup as the files a framework runs, and a framework's config read into a
request.

``export(request, target)`` takes a request (the JSON object ``calculator.api`` accepts) and returns the target's
files (``{file name: text}``), the keys it cannot express (each with the value the file gives instead, why, and what
to do), and the request the files realise (the input after the export's adjustments, every key written and
``framework`` the target: the estimate beside the export is computed for it, under the target's name and version). ``read(target_or_auto, files)`` reads pasted configs (a YAML, plus a DeepSpeed JSON or an
accelerate YAML) into a request, filling what they leave out with that framework's defaults
(``calculator.frameworks``); unread keys are listed, contradictions are error codes naming the field.

Targets, one module each: ``trl`` (TRL CLI YAML + accelerate config + DeepSpeed JSON; GRPO: ``trl grpo`` with a
fixed placeholder ``reward.py``), ``axolotl``, ``llamafactory``, ``unsloth`` (a Python script, plus ``unsloth
train``'s YAML when the setup fits it). A target without GRPO files (``GRPO_REFUSAL``: Axolotl and Unsloth not yet,
LLaMA-Factory 0.9.5 has no GRPO stage) lists the objective in ``cannot_express`` and writes the supervised run. Pure Python;
YAML is read with ruamel.yaml, imported only when reading. No prose for readers: comments in the files are
rendered from codes (``COMMENT_CODES``) through the caller's table of words, errors are codes.
"""
from __future__ import annotations

import json
from typing import Any, Callable, Mapping

from .. import api, frameworks
from ..inputs import FRAMEWORK_IDS
from ..errors import EstimatorError, InputError, InputErrors
from . import axolotl, llamafactory, trl, unsloth
from ._common import (ADJUST_REASONS, CANNOT_REASONS, COMMENT_CODES, EXPORT_KEYS, UNREAD_CODES, WHAT_TO_DO, CannotExpress,
                      Export, Plan, Read, ReadState, defaults_for, kind_of, parse_texts, relevant, summary_of)

__all__ = ["TARGETS", "export", "read", "answer_export", "answer_read", "Export", "Read", "CannotExpress", "COMMENT_CODES",
           "relevant", "READ_ERRORS", "CANNOT_REASONS", "WHAT_TO_DO", "ADJUST_REASONS", "UNREAD_CODES", "MAX_FILES",
           "MAX_TEMPLATE"]

#: Export targets, in the order the page shows them.
TARGETS: tuple[str, ...] = ("trl", "axolotl", "llamafactory", "unsloth")
_MODULES = {"trl": trl, "axolotl": axolotl, "llamafactory": llamafactory, "unsloth": unsloth}

#: Error codes ``read`` answers with (beside the request codes of ``calculator.api.ERROR_CODES``).
READ_ERRORS: tuple[str, ...] = ("invalid_yaml", "invalid_json", "invalid_python", "not_an_object", "too_large", "unknown_target",
                                "missing_field", "wrong_type", "unknown_value", "out_of_range", "contradiction",
                                "not_modelled", "unsupported_format", "unsupported_trainer", "not_followed")
#: Files read beside a training file rather than as one (``dataset_info``: LLaMA-Factory's dataset registry, which the
#: estimate does not read).
_COMPANIONS = ("deepspeed", "accelerate", "dataset_info")
#: Formats recognised by their keys that the estimator does not read: the field its refusal names.
UNSUPPORTED_FORMATS: dict[str, str] = {"llamafactory_v1": "LLaMA-Factory v1"}
#: The longest comment template a caller's ``text`` may give (the string tables' longest is under 200 characters):
#: each is filled by name (``{model}``), never with ``str.format``, so a template is only ever as long as it is.
MAX_TEMPLATE = 1000
#: The most files one reading takes: a training file and its companions (accelerate YAML, DeepSpeed JSON).
MAX_FILES = 4
#: The catalogue model a read whose model the catalogue lacks is checked on (only the rules that span keys count).
_STAND_IN = "llama-3.1-8b"


def export(request: Mapping[str, Any], target: str, *,
           summary: Mapping[str, Any] | Callable[[dict[str, Any]], Mapping[str, Any] | None] | None = None,
           text: Mapping[str, str] | None = None) -> Export:
    """The target's files for ``request``. Raises ``errors.InputError`` for a request the estimator refuses (the exporter
    refuses it too) and ``KeyError`` for an unknown target.

    ``summary`` (model, method, peak, statistic, count, gpu) is the estimate the header names, or a function of the
    adjusted request that gives it (the page words it in the reader's language); by default the estimate of the
    adjusted request, in codes. ``text`` maps comment codes to the reader's language (``COMMENT_CODES``; the string
    tables' ``calc.run.comments``); without it a comment is its code and values.
    """
    module = _MODULES[target]
    _estimable(request)
    plan = Plan(target, request, module.GRPO_REFUSAL)
    module.plan(plan)
    plan.settle(module.WRITTEN)
    adjusted = plan.request()
    _estimable(adjusted)                # the adjusted request must be one the estimator takes
    if callable(summary):
        summary = summary(dict(adjusted))
    files = module.write(plan, summary if summary is not None else summary_of(plan), text)
    return Export(target=target, framework_version=plan.framework.version, stack=dict(plan.framework.stack),
                  files=files,
                  cannot_express=tuple(plan.cannot), request=adjusted, adjustments=tuple(plan.adjustments))


def _estimable(request: Mapping[str, Any]) -> None:
    """Raises ``InputError`` where the estimator refuses ``request``: its keys (``api.parse_request``) and, for GRPO
    with vLLM, a KV pool that cannot hold one sequence (vLLM would not start; ``api.answer`` refuses it likewise)."""
    setup, options = api.parse_request(dict(request))
    api._check_vllm_pool(setup, options["gpu"])


def _fill(state: ReadState) -> None:
    """Keys the files leave out: the framework's default (``calculator.frameworks``), else the estimator's own (a
    regime the framework has no switch for, e.g. ``keeps_logits``)."""
    fill = defaults_for(state.target, state.keys)
    for key in EXPORT_KEYS:
        if key not in state.keys:
            state.keys[key] = fill[key]


def read(target: str, files: Mapping[str, str]) -> Read:
    """Pasted configs (file name -> text) read into a request for ``target`` (or ``"auto"``: told from the keys)."""
    state = ReadState(target)
    cfgs = parse_texts(files, state)
    if state.errors:
        return Read(target=None if target == "auto" else target, request=None, unread=tuple(state.unread),
                    errors=tuple(state.errors))
    kinds = {name: kind_of(cfg, name) for name, cfg in cfgs.items()}
    for name, kind in kinds.items():       # a format recognised by its keys that the estimator does not read
        if kind in UNSUPPORTED_FORMATS:
            return Read(target=None, request=None, unread=(), errors=({"code": "unsupported_format", "file": name,
                                                                        "field": UNSUPPORTED_FORMATS[kind]},))
    if target == "auto":
        main = [k for k in kinds.values() if k not in _COMPANIONS]
        target = main[0] if len(set(main)) == 1 else ""
        if target == "unknown":
            target = ""
    if target not in _MODULES:
        unknown = [n for n, k in kinds.items() if k == "unknown"]
        return Read(target=None, request=None, unread=(), errors=({"code": "unknown_target",
                                                                    "file": unknown[0] if unknown else None,
                                                                    "field": None},))
    state.target = target
    for name, kind in kinds.items():
        if kind not in _COMPANIONS:
            kinds[name] = target
    _MODULES[target].read(state, cfgs, kinds)
    if state.keys.get("sharding") not in (None, "none") and state.keys.get("num_gpus", 1) == 1 \
            and not state.gpus_given:
        # the files shard, the launcher says over how many GPUs: one with the optimizer offloaded (ZeRO-Offload runs
        # on one; the only sharding on one card the estimator takes), else the fewest that shard (a parameter
        # offload alone included); said to the reader either way
        if not state.keys.get("cpu_offload"):
            state.keys["num_gpus"] = 2
        state.unread_key(state.main, "num_processes", state.keys["num_gpus"], "gpus_assumed")
    _fill(state)
    request: dict[str, Any] | None = dict(state.keys)
    # A key the files leave out is the target framework's default (calculator/frameworks.py), not the API's: the
    # request names its framework, so the estimator fills those keys as the framework runs them.
    if target in FRAMEWORK_IDS:
        request.setdefault("framework", target)
    if state.model is not None:
        request["model"] = state.model
    if state.errors:
        request = None
    else:
        request = {k: list(v) if isinstance(v, tuple) else v for k, v in request.items()}
        try:
            # a model the catalogue lacks still has the rules that span several keys checked (an FSDP2 file with a
            # bitsandbytes 8-bit optimizer is refused whatever the model): on a stand-in, its contradictions only
            # (not the LoRA targets', which are the model's)
            api.parse_request(request if "model" in request else {**request, "model": _STAND_IN})
        except InputError as err:
            if err.code == "contradiction" and err.field == "grpo_generator" and request.get("gpu") is None:
                pass        # a colocated vLLM's claim is a share of the card, which the reader chooses, not the file
            elif "model" in request or (err.code == "contradiction" and err.field != "lora_targets"):
                state.error(err.code, None, err.field)
                request = None
    return Read(target=target, request=request, unread=tuple(state.unread), errors=tuple(state.errors))


# =====================================================================================================================
# The JSON boundary (what the page's worker and any other caller use; ``calculator.api`` stays the estimate's)
# =====================================================================================================================


def _strict(answer: dict[str, Any]) -> dict[str, Any]:
    """``answer`` when it is strict JSON (no NaN or Infinity, which the page's JSON.parse refuses); raises
    ValueError otherwise (the boundary answers ``internal_error``: the readers drop non-finite values first)."""
    json.dumps(answer, allow_nan=False)
    return answer


def _refusal(errors: list[dict[str, Any]], **more: Any) -> dict[str, Any]:
    return {"ok": False, "error": errors[0], "errors": errors, **more}


def answer_export(obj: Any) -> dict[str, Any]:
    """``{"request": {...}, "target": "trl", "text": {code: template}, "summary": {...}}`` (``text`` and
    ``summary`` optional, as in ``export``) -> ``{"ok": true, "export": Export.as_json()}``, or ``{"ok": false,
    "error": {code, field}, "errors": [...]}`` with the API's codes (a request the estimator refuses) and
    ``unknown_target``. Never raises."""
    try:
        if not isinstance(obj, dict):
            return _refusal([{"code": "not_an_object", "field": None}])
        target, request = obj.get("target"), obj.get("request")
        if target not in _MODULES:
            return _refusal([{"code": "unknown_target", "field": "target"}])
        if not isinstance(request, dict):
            return _refusal([{"code": "not_an_object", "field": "request"}])
        text, summary = obj.get("text"), obj.get("summary")
        if text is not None and not (isinstance(text, dict) and all(isinstance(v, str) for v in text.values())):
            return _refusal([{"code": "wrong_type", "field": "text"}])
        if text is not None and any(len(v) > MAX_TEMPLATE for v in text.values()):
            return _refusal([{"code": "too_large", "field": "text"}])
        if summary is not None and not isinstance(summary, dict):
            return _refusal([{"code": "wrong_type", "field": "summary"}])
        return {"ok": True, "export": export(request, target, summary=summary, text=text).as_json()}
    except InputErrors as err:
        return _refusal([{"code": e.code, "field": e.field} for e in err.errors])
    except EstimatorError as err:
        return _refusal([{"code": err.code, "field": err.field}])
    except (RecursionError, MemoryError, OverflowError):
        return _refusal([{"code": "too_large", "field": None}])
    except Exception:  # noqa: BLE001 - the boundary never raises
        return _refusal([{"code": "internal_error", "field": None}])


def answer_read(obj: Any) -> dict[str, Any]:
    """``{"target": "auto" | one of TARGETS, "files": {name: text}}`` (at most MAX_FILES) -> ``{"ok": true, "read":
    Read.as_json()}``, or ``{"ok": false, "error": {code, field, file}, "errors": [...], "unread": [...]}`` (the
    errors of ``read``: READ_ERRORS and the API's codes). Never raises."""
    try:
        if not isinstance(obj, dict):
            return _refusal([{"code": "not_an_object", "field": None, "file": None}], unread=[])
        target, files = obj.get("target", "auto"), obj.get("files")
        if target != "auto" and target not in _MODULES:
            return _refusal([{"code": "unknown_target", "field": "target", "file": None}], unread=[])
        if not isinstance(files, dict) or not files:
            return _refusal([{"code": "missing_field", "field": "files", "file": None}], unread=[])
        if len(files) > MAX_FILES:
            return _refusal([{"code": "too_large", "field": "files", "file": None}], unread=[])
        if not all(isinstance(k, str) and isinstance(v, str) for k, v in files.items()):
            return _refusal([{"code": "wrong_type", "field": "files", "file": None}], unread=[])
        r = read(target, files)
        if r.errors or r.request is None:
            errors = list(r.errors) or [{"code": "internal_error", "field": None, "file": None}]
            return _refusal(errors, unread=list(r.unread), target=r.target)
        return _strict({"ok": True, "read": r.as_json()})
    except (RecursionError, MemoryError, OverflowError):
        return _refusal([{"code": "too_large", "field": None, "file": None}], unread=[])
    except Exception:  # noqa: BLE001 - the boundary never raises
        return _refusal([{"code": "internal_error", "field": None, "file": None}], unread=[])
