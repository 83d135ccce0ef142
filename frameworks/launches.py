"""How many of the export grid's TRL DeepSpeed setups start: their files through the TRL checker
(frameworks/trl/check.py), which runs accelerate launch's own ``launch_command`` on ``accelerate.yaml`` and parses
the TRL config in the environment a rank starts with (TrainingArguments builds the DeepSpeedPlugin there). Prints
the count that start and the first error of the others.

    python -m frameworks.launches
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

from calculator.export import export
from frameworks import venv

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "frameworks"))
from export_grid import GRID  # noqa: E402


def main() -> None:
    configs = []
    for rid, request in GRID:
        e = export(request, "trl")
        if "ds_config.json" in e.files:
            configs.append({"id": rid, "files": {n: t for n, t in e.files.items() if n != "measure.py"}})
    results = json.loads(venv.run("trl", json.dumps({"mode": "check", "configs": configs})))["results"]
    failed = {rid: r["errors"][0] for rid, r in results.items() if not r["ok"]}
    print(f"TRL DeepSpeed exports of the grid: {len(results)}; start: {len(results) - len(failed)}; "
          f"stop at start-up: {len(failed)}")
    for rid, error in list(failed.items())[:3]:
        print(f"  {rid}: {error[:200]}")


if __name__ == "__main__":
    main()
