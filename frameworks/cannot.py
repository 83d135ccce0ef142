"""Per export target, what it cannot express: each request key with the reasons, over every request of the export
grid (tests/frameworks/export_grid.py), as a Markdown table for the notes and frameworks/README.md.

    python -m frameworks.cannot
"""
from __future__ import annotations

import sys
from collections import defaultdict
from pathlib import Path

from calculator.export import TARGETS, export

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "frameworks"))
from export_grid import GRID  # noqa: E402


def table() -> str:
    lines = ["| target | key | what the file gives instead | reasons (codes) | grid requests |", "|---|---|---|---|---|"]
    for target in TARGETS:
        seen: dict[str, dict] = defaultdict(lambda: {"becomes": set(), "reasons": set(), "n": 0})
        for _, req in GRID:
            for c in export(req, target).cannot_express:
                entry = seen[c.key]
                entry["becomes"].add(repr(c.becomes))
                entry["reasons"].add(c.reason)
                entry["n"] += 1
        for key in sorted(seen):
            e = seen[key]
            lines.append(f"| {target} | `{key}` | {', '.join(sorted(e['becomes']))} | "
                         f"{', '.join(sorted(e['reasons']))} | {e['n']} |")
    return "\n".join(lines)


if __name__ == "__main__":
    print(f"{len(GRID)} grid requests")
    print(table())
