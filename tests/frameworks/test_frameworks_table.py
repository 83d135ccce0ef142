"""calculator/frameworks.py: every entry is a value the estimator accepts, with a source, and the versions it names
are the ones the exports are validated against (the pins of frameworks/<target>/)."""
from __future__ import annotations

from pathlib import Path

import pytest

from calculator import api, frameworks
from calculator.inputs import BY_NAME

pytestmark = pytest.mark.unit
ROOT = Path(__file__).resolve().parents[2]


def _pins(target: str) -> dict[str, str]:
    pins = {}
    for name in ("requirements.txt", "build.txt", "wheels.txt"):
        path = ROOT / "frameworks" / target / name
        if path.exists():
            for line in path.read_text().splitlines():
                if "==" in line and not line.startswith("#"):
                    pkg, ver = line.split("==")
                    pins[pkg.strip().lower().replace("_", "-")] = ver.strip()
    return pins


@pytest.mark.parametrize("target", ["trl", "axolotl", "llamafactory", "unsloth"])
def test_stack_versions_are_the_pinned_ones(target: str) -> None:
    fw = frameworks.get(target)
    pins = _pins(target)
    assert fw.version == pins[target]
    for package, version in fw.stack.items():
        assert pins.get(package) == version, (target, package, version, pins.get(package))


def test_every_entry_is_a_value_the_estimator_takes() -> None:
    for fw in frameworks.FRAMEWORKS.values():
        for d in fw.defaults:
            if d.key in BY_NAME:
                value = list(d.value) if isinstance(d.value, tuple) else d.value
                api.check_value(BY_NAME[d.key], value)
            assert d.source and ("/" in d.source or d.source.startswith("calculator")), (fw.id, d.key)


def test_each_framework_default_request_is_estimable() -> None:
    for fw in frameworks.IDS:
        for method in ("full", "lora", "qlora"):
            for dpo in (False, True):
                req = {"model": "llama-3.1-8b", "method": method, "dpo": dpo}
                d = frameworks.defaults(fw, request=req)
                req.update({k: (list(v) if isinstance(v, tuple) else v) for k, v in d.items()
                            if k in BY_NAME and k not in ("method",)})
                assert api.answer(dict(req, include=[]))["ok"], (fw, method, dpo)


def test_conditional_entries_and_lookup() -> None:
    assert frameworks.defaults("trl", request={"dpo": False})["lora_dropout"] == 0.05
    assert frameworks.defaults("trl", request={"dpo": True})["lora_dropout"] == 0.0
    assert frameworks.default("trl", "gradient_checkpointing").source.startswith("trl/trainer/base_config.py")
    assert frameworks.default("llamafactory", "precision", request={"method": "full"}).value == "fp32"
    assert frameworks.default("none", "gradient_checkpointing").value is False
    assert frameworks.versions("trl") == ("1.16.0",)
    with pytest.raises(KeyError):
        frameworks.get("trl", "0.1")
