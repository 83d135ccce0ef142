"""How long the pickers' search takes per keystroke: every prefix of every model and card name, typed one character
at a time, searched in English (CPython here; Pyodide in the page is slower by its own factor).

    python -m benchmarks.search_speed
"""
from __future__ import annotations

import hashlib
import json
import time

from calculator import api
from calculator.page.search import search
from calculator.page.text import STRING_TABLES, Strings


def main() -> None:
    s = Strings(json.loads((STRING_TABLES / "en.json").read_text(encoding="utf-8"))["calc"], "en")
    queries = [("model", m.name[:i]) for m in api.MODELS.values() for i in range(1, len(m.name) + 1)]
    queries += [("gpu", g.name[:i]) for g in api.GPUS.values() for i in range(1, len(g.name) + 1)]
    start = time.perf_counter()
    answers = [search(s, kind, text) for kind, text in queries]
    took = time.perf_counter() - start
    digest = hashlib.sha256(json.dumps(answers).encode()).hexdigest()[:16]
    print(f"{len(queries)} keystrokes, {took * 1000 / len(queries):.2f} ms each ({took:.2f} s in all); "
          f"answers' digest {digest}")


if __name__ == "__main__":
    main()
