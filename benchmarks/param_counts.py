"""Parameter counts of the real config.json files in tests/data/configs/ against their published totals. Prints a
table; not a test (tests/unit/test_configs.py asserts the same equalities).

    .venv/bin/python benchmarks/param_counts.py

Each config is pasted through the JSON API exactly as a reader would paste it; "published" is the catalogue entry's
``published_params`` (sources: tests/data/configs/README.md and calculator/catalog.py).
"""
from __future__ import annotations

import json
from pathlib import Path

from calculator import api
from calculator.catalog import MODELS

DATA = Path(__file__).resolve().parents[1] / "tests" / "data" / "configs"
CATALOGUE = {"mixtral-8x7b-v0.1": "mixtral-8x7b", "olmoe-1b-7b-0924": "olmoe-1b-7b"}


def main() -> None:
    print(f"{'config':22} {'ours':>17} {'published':>17}  match  ignored fields")
    for path in sorted(DATA.glob("*.json")):
        out = json.loads(api.answer_text(json.dumps({"model": json.loads(path.read_text()), "include": []})))
        if not out["ok"]:
            print(f"{path.stem:22} {'refused: ' + out['error']['code']:>36}")
            continue
        ours = out["result"]["params"]
        model = MODELS.get(CATALOGUE.get(path.stem, path.stem))
        published = model.published_params if model else None
        match = "yes" if ours == published else "NO"
        print(f"{path.stem:22} {ours:>17,} {published or 0:>17,}  {match:5}  {len(out['result']['model']['ignored_fields'])}")


if __name__ == "__main__":
    main()
