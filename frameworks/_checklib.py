"""Helpers every checker shares (copied into nothing: each checker imports this file by path from its venv).

Standard library only, so it runs in any target's venv: capture of warnings and framework log records, a dataclass
field snapshot, JSON in and out.
"""
from __future__ import annotations

import contextlib
import dataclasses
import enum
import io
import json
import logging
import re
import sys
import traceback
import typing
import warnings

LOGGERS = ("transformers", "trl", "accelerate", "peft", "DeepSpeed", "deepspeed", "bitsandbytes", "axolotl",
           "llamafactory", "datasets", "torch")


class _Collect(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.records: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        try:
            self.records.append(f"log:{record.name.split('.')[0]}:{record.getMessage()}")
        except Exception:  # noqa: BLE001
            self.records.append(f"log:{record.name}:{record.msg}")


def _normal(message: str) -> str:
    """A warning without the parts that change from one config to another (paths, numbers)."""
    message = re.sub(r"/tmp/[^\s'\"]+", "<path>", message)
    return re.sub(r"\d+", "N", message)[:300]


@contextlib.contextmanager
def captured():
    """Collect every warning and every WARNING+ log record of the frameworks' loggers (and stderr) inside."""
    handler = _Collect()
    loggers = [logging.getLogger(name) for name in LOGGERS] + [logging.getLogger()]
    for lg in loggers:
        lg.addHandler(handler)
    try:
        import transformers.utils.logging as tl  # warning_once is an lru_cache: clear it so each config warns anew
        tl.warning_once.cache_clear() if hasattr(tl.warning_once, "cache_clear") else None
        tl.disable_default_handler()
        tl.enable_propagation()
    except Exception:  # noqa: BLE001 - not every venv has transformers
        pass
    out: list[str] = []
    err = io.StringIO()
    with warnings.catch_warnings(record=True) as caught, contextlib.redirect_stderr(err):
        warnings.simplefilter("always")
        try:
            yield out
        finally:
            for lg in loggers:
                lg.removeHandler(handler)
            seen = set()
            for w in caught:
                text = f"warning:{w.category.__name__}:{_normal(str(w.message))}"
                if text not in seen:
                    seen.add(text)
                    out.append(text)
            for rec in handler.records:
                text = _normal(rec)
                if text not in seen:
                    seen.add(text)
                    out.append(text)


def type_name(tp: typing.Any) -> str:
    if isinstance(tp, str):
        return tp
    return getattr(tp, "__name__", None) or str(tp).replace("typing.", "")


def _default(f: dataclasses.Field) -> typing.Any:
    if f.default is not dataclasses.MISSING:
        value = f.default
    elif f.default_factory is not dataclasses.MISSING:  # type: ignore[misc]
        try:
            value = f.default_factory()  # type: ignore[misc]
        except Exception:  # noqa: BLE001
            return "<factory>"
    else:
        return "<required>"
    return jsonable(value)


def jsonable(value: typing.Any) -> typing.Any:
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    return repr(value)


def dataclass_fields(cls: type) -> dict[str, dict[str, typing.Any]]:
    """name -> {type, default, choices} of a dataclass (HfArgumentParser's view of a config class)."""
    out: dict[str, dict[str, typing.Any]] = {}
    hints = {}
    try:
        hints = typing.get_type_hints(cls)
    except Exception:  # noqa: BLE001
        pass
    for f in dataclasses.fields(cls):
        if not f.init:
            continue
        entry = {"type": type_name(hints.get(f.name, f.type)), "default": _default(f)}
        choices = f.metadata.get("choices") if f.metadata else None
        if choices:
            entry["choices"] = [jsonable(c) for c in choices]
        out[f.name] = entry
    return dict(sorted(out.items()))


def main(handlers: dict[str, typing.Callable[[dict], typing.Any]]) -> None:
    """Read ``{"mode": ..., ...}`` from stdin, answer the handler's result as JSON on stdout (one line)."""
    request = json.load(sys.stdin)
    real_stdout = sys.stdout
    sys.stdout = sys.stderr            # frameworks print; keep stdout for the answer
    try:
        result = handlers[request["mode"]](request)
    except Exception:  # noqa: BLE001
        result = {"fatal": traceback.format_exc()[-4000:]}
    sys.stdout = real_stdout
    json.dump(result, sys.stdout, default=repr)
    sys.stdout.write("\n")


def error_text(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}"[:2000]
