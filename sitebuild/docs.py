"""Generated parts of the repository's own documents: ``python -m sitebuild.docs`` rewrites them, the tests check
that they are up to date (tests/unit/test_inputs.py).

* ESTIMATOR.md, between ``<!-- inputs:begin -->`` and ``<!-- inputs:end -->``: the request-key table, from the input
  specs (``calculator.inputs.markdown_table``).
"""
from __future__ import annotations

import argparse
import re
from pathlib import Path

from calculator.inputs import markdown_table

ROOT = Path(__file__).resolve().parents[1]
ESTIMATOR_MD = ROOT / "ESTIMATOR.md"
_BLOCK = re.compile(r"(<!-- inputs:begin -->\n).*?(<!-- inputs:end -->)", re.S)


def with_inputs_table(text: str) -> str:
    """``text`` with its inputs block replaced by the table generated now."""
    if not _BLOCK.search(text):
        raise ValueError("ESTIMATOR.md has no <!-- inputs:begin --> / <!-- inputs:end --> block")
    return _BLOCK.sub(lambda m: m.group(1) + markdown_table() + "\n" + m.group(2), text, count=1)


def main(argv: list[str] | None = None) -> int:
    argparse.ArgumentParser(prog="python -m sitebuild.docs", description=__doc__).parse_args(argv)
    text = ESTIMATOR_MD.read_text(encoding="utf-8")
    new = with_inputs_table(text)
    if new != text:
        ESTIMATOR_MD.write_text(new, encoding="utf-8")
        print("ESTIMATOR.md: request-key table rewritten")
    else:
        print("ESTIMATOR.md: request-key table already up to date")
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
