"""Unsloth's own checks of the Unsloth exports, run inside the Unsloth venv (pydantic + PyYAML; the wheels of
unsloth 2026.10.9, trl 1.15.0 and transformers 5.17.0 unpacked, not installed: importing unsloth needs a GPU).

mode ``check``: per config, ``unsloth train --config unsloth.yaml``'s own reading of the file, loaded from the wheel
by path: ``unsloth_cli/config.py``'s ``load_config`` (the file read as the CLI reads it, ``Config``: pydantic,
``extra="forbid"``), ``apply_overrides`` with no option given, then the keyword sets the command hands the trainer
(``model_kwargs``, ``training_kwargs``), where it would load the model on the GPU; the script's calls checked with ``ast``: every keyword of
``FastLanguageModel.from_pretrained`` (``unsloth/models/loader.py``) and ``get_peft_model``
(``FastLlamaModel.get_peft_model`` in ``unsloth/models/llama.py``, which ``FastLanguageModel`` wraps) is one of
their named parameters, every keyword of ``SFTConfig``/``DPOConfig`` a field of the pinned TRL's class (its
``_BaseConfig`` and transformers' ``TrainingArguments`` included), ``optim`` a transformers ``OptimizerNames`` value.
mode ``snapshot``: those parameter and field lists, the CLI config's fields, the optimizer names.
"""
from __future__ import annotations

import ast
import importlib.util
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import _checklib as lib  # noqa: E402


WHEELS = Path(sys.prefix) / "wheels"
UNSLOTH = WHEELS / "unsloth"
TRL = WHEELS / "trl"
TRANSFORMERS = WHEELS / "transformers"


def _version(root: Path, name: str) -> str:
    for info in root.glob(f"{name}-*.dist-info"):
        return info.name[len(name) + 1:-len(".dist-info")]
    return "?"


def _cli_config():
    spec = importlib.util.spec_from_file_location("unsloth_cli_config", UNSLOTH / "unsloth_cli" / "config.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _class(path: Path, name: str) -> ast.ClassDef:
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and node.name == name:
            return node
    raise LookupError(f"{name} not in {path}")


def _params(path: Path, cls: str, method: str) -> list[str]:
    for node in _class(path, cls).body:
        if isinstance(node, ast.FunctionDef) and node.name == method:
            a = node.args
            return sorted(x.arg for x in a.posonlyargs + a.args + a.kwonlyargs)
    raise LookupError(f"{cls}.{method} not in {path}")


def _fields(path: Path, cls: str) -> list[str]:
    return sorted(n.target.id for n in _class(path, cls).body
                  if isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name))


def _enum_values(path: Path, cls: str) -> list[str]:
    return sorted(n.value.value for n in _class(path, cls).body
                  if isinstance(n, ast.Assign) and isinstance(n.value, ast.Constant) and isinstance(n.value.value, str))


def lists() -> dict:
    training_args = _fields(TRANSFORMERS / "transformers" / "training_args.py", "TrainingArguments")
    base = _fields(TRL / "trl" / "trainer" / "base_config.py", "_BaseConfig")
    return {
        "from_pretrained": _params(UNSLOTH / "unsloth" / "models" / "loader.py", "FastLanguageModel",
                                   "from_pretrained"),
        "get_peft_model": _params(UNSLOTH / "unsloth" / "models" / "llama.py", "FastLlamaModel", "get_peft_model"),
        "SFTConfig": sorted(set(_fields(TRL / "trl" / "trainer" / "sft_config.py", "SFTConfig")) | set(base)
                            | set(training_args)),
        "DPOConfig": sorted(set(_fields(TRL / "trl" / "trainer" / "dpo_config.py", "DPOConfig")) | set(base)
                            | set(training_args)),
        "OptimizerNames": _enum_values(TRANSFORMERS / "transformers" / "training_args.py", "OptimizerNames"),
    }


def _script(text: str, allowed: dict) -> tuple[list[str], dict]:
    errors: list[str] = []
    seen: dict = {}
    tree = ast.parse(text)
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        fn = node.func
        name = fn.attr if isinstance(fn, ast.Attribute) else fn.id if isinstance(fn, ast.Name) else None
        if name not in ("from_pretrained", "get_peft_model", "SFTConfig", "DPOConfig"):
            continue
        if name in ("from_pretrained", "get_peft_model") and not (isinstance(fn, ast.Attribute) and isinstance(
                fn.value, ast.Name) and fn.value.id == "FastLanguageModel"):
            errors.append(f"{name} is not called on FastLanguageModel")
        kwargs = {}
        for kw in node.keywords:
            if kw.arg not in allowed[name]:
                errors.append(f"{name}: unexpected keyword {kw.arg!r}")
            try:
                kwargs[kw.arg] = ast.literal_eval(kw.value)
            except ValueError:
                kwargs[kw.arg] = ast.unparse(kw.value)
        if name in ("SFTConfig", "DPOConfig") and "optim" in kwargs and kwargs["optim"] not in allowed["OptimizerNames"]:
            errors.append(f"{name}: optim {kwargs['optim']!r} is not an OptimizerNames value")
        seen[name] = kwargs
    for needed in ("from_pretrained",):
        if needed not in seen:
            errors.append(f"no FastLanguageModel.{needed} call")
    return errors, seen


def cli_train(config, text: str) -> dict:
    """What ``unsloth train --config unsloth.yaml`` makes of the file before the model loads (module docstring)."""
    import tempfile
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp, "unsloth.yaml")
        path.write_text(text, encoding="utf-8")
        parsed = config.load_config(path)
    parsed.apply_overrides()
    use_lora = parsed.training.training_type.lower() == "lora"
    view = lib.jsonable(parsed.model_dump(mode="json"))
    view["model_kwargs"] = lib.jsonable(parsed.model_kwargs(use_lora, False))
    view["training_kwargs"] = lib.jsonable(parsed.training_kwargs())
    return view


def check(request: dict) -> dict:
    allowed = lists()
    config = _cli_config()

    def one(cfg: dict) -> dict:
        errors, view = [], {}
        with lib.captured() as warns:
            if "train.py" in cfg["files"]:
                try:
                    errs, view["script"] = _script(cfg["files"]["train.py"], allowed)
                    errors += [f"train.py: {e}" for e in errs]
                except SyntaxError as exc:
                    errors.append(f"train.py: {lib.error_text(exc)}")
            if "unsloth.yaml" in cfg["files"]:
                try:
                    view["cli"] = cli_train(config, cfg["files"]["unsloth.yaml"])
                except Exception as exc:  # noqa: BLE001
                    errors.append(f"unsloth.yaml: {lib.error_text(exc)}")
        return {"ok": not errors, "errors": errors, "view": view, "new_warnings": list(warns)}

    return {"results": lib.each(request["configs"], one)}


def snapshot(request: dict) -> dict:
    config = _cli_config()

    def fields(model) -> dict:
        return {name: {"type": lib.type_name(f.annotation), "default": lib.jsonable(f.default)}
                for name, f in sorted(model.model_fields.items())}

    return {"versions": {"unsloth": _version(UNSLOTH, "unsloth"), "trl": _version(TRL, "trl"),
                         "transformers": _version(TRANSFORMERS, "transformers")},
            "signatures": lists(),
            "classes": {name: fields(getattr(config, name)) for name in ("Config", "DataConfig", "TrainingConfig",
                                                                         "LoraConfig", "LoggingConfig")}}


if __name__ == "__main__":
    lib.main({"check": check, "snapshot": snapshot})
