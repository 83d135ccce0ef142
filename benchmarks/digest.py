"""One sha256 digest of what the deterministic benchmarks print: the check that a refactor changed no figure.

``python -m benchmarks.digest`` runs each benchmark of ``NAMES`` as ``python -m benchmarks.<name>`` (no arguments,
stdout only), in that order, and prints the sha256 of their outputs joined in that order, then one line per benchmark
with its own digest. ``--saved DIR`` digests ``DIR/<name>.txt`` instead (outputs saved earlier with
``python -m benchmarks.<name> > DIR/<name>.txt``), so ``cat DIR/{accuracy,...}.txt | sha256sum`` gives the same figure.
Equal digests before and after a change: every benchmark printed the same numbers, byte for byte.
"""
from __future__ import annotations

import argparse
import hashlib
import os
import subprocess
import sys
from pathlib import Path

# The benchmarks whose output depends on the code and the committed data only (no clock, no browser, no network).
NAMES = ("accuracy", "time_accuracy", "param_counts", "peers", "peers_time", "traces", "evidence")
ROOT = Path(__file__).resolve().parents[1]


def run(name: str) -> bytes:
    """What ``python -m benchmarks.<name>`` prints, run from this checkout (its code before any installed copy)."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, (str(ROOT), os.environ.get("PYTHONPATH")))))
    return subprocess.run([sys.executable, "-m", f"benchmarks.{name}"], cwd=ROOT, env=env, check=True,
                          stdout=subprocess.PIPE).stdout


def digest(outputs: dict[str, bytes]) -> str:
    """The sha256 of the outputs joined in ``NAMES`` order."""
    h = hashlib.sha256()
    for name in NAMES:
        h.update(outputs[name])
    return h.hexdigest()


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--saved", type=Path, metavar="DIR", help="digest DIR/<name>.txt instead of running the benchmarks")
    args = p.parse_args(argv)
    outputs = {n: (args.saved / f"{n}.txt").read_bytes() if args.saved else run(n) for n in NAMES}
    print(digest(outputs))
    for n in NAMES:
        print(f"  {hashlib.sha256(outputs[n]).hexdigest()}  {n}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
