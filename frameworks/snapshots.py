"""Write each target's field-list snapshot, ``frameworks/<target>/snapshot.json``, from the framework itself.

The snapshot (names, types, defaults, choices of every class the exports write keys of, the optimizer and other
enums, the framework versions) is committed; tests/frameworks/test_checks.py regenerates it and fails on a
difference, so the generator and the frameworks cannot drift apart unnoticed. ``make snapshots`` runs this.

    python -m frameworks.snapshots [TARGET ...]
"""
from __future__ import annotations

import json
import sys

from . import venv


def snapshot(target: str) -> dict:
    out = json.loads(venv.run(target, json.dumps({"mode": "snapshot"})))
    if "fatal" in out:
        raise RuntimeError(out["fatal"])
    return out


def text(data: dict) -> str:
    return json.dumps(data, indent=1, sort_keys=True) + "\n"


def main(targets: list[str]) -> None:
    for target in targets or venv.TARGETS:
        path = venv.HERE / target / "snapshot.json"
        path.write_text(text(snapshot(target)))
        print(path.relative_to(venv.ROOT))


if __name__ == "__main__":
    main(sys.argv[1:])
