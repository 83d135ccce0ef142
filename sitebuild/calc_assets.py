"""What the page's own files must carry for the estimator's vocabularies (calculator/vocab.py): a colour for every
memory component and a style for every verdict in ``docs/assets/calc/calc.css``, and exactly the runtime stages in
``docs/assets/calc/protocol.mjs``. The build checks them before it renders a page (a new component without its
colour fails the build, as one without its strings does), and so do the unit tests."""
from __future__ import annotations

import re
from pathlib import Path

from mkdocs.exceptions import PluginError

ASSETS = Path(__file__).resolve().parents[1] / "docs" / "assets" / "calc"
CSS = ASSETS / "calc.css"
PROTOCOL = ASSETS / "protocol.mjs"


def missing_styles(css: str | None = None) -> list[str]:
    """The rules calc.css lacks: ``.calc-c--<component> { --calc-c: <colour> }`` for every component, and
    ``.calc-verdict--<v>``, ``.calc-col--<v>`` for every verdict (the badge and the sequence-length column)."""
    from calculator import vocab

    css = CSS.read_text(encoding="utf-8") if css is None else css
    wanted = [(f".calc-c--{c}", r"\{\s*--calc-c:\s*#[0-9a-fA-F]{3,8}\s*;") for c in vocab.COMPONENTS]
    wanted += [(f".calc-{part}--{v}", r"\{") for v in vocab.VERDICTS for part in ("verdict", "col")]
    return [selector for selector, body in wanted if not re.search(re.escape(selector) + r"\s*" + body, css)]


def protocol_stages(text: str | None = None) -> tuple[str, ...]:
    """The values of ``STATUS`` in protocol.mjs, in their order."""
    text = PROTOCOL.read_text(encoding="utf-8") if text is None else text
    block = re.search(r"export const STATUS = Object\.freeze\(\{(.*?)\}\);", text, re.S)
    if block is None:
        raise PluginError(f"{PROTOCOL}: no `export const STATUS = Object.freeze({{...}})`")
    return tuple(re.findall(r'^\s*[A-Z_]+:\s*"([a-z_]+)"', block.group(1), re.M))


def check_calc_assets() -> None:
    """Fail the build when calc.css or protocol.mjs disagrees with the vocabularies."""
    from calculator import vocab

    missing = missing_styles()
    if missing:
        raise PluginError(f"{CSS}: no rule for {', '.join(missing)} (calculator/vocab.py lists them)")
    if protocol_stages() != vocab.STAGES:
        raise PluginError(f"{PROTOCOL}: STATUS is {protocol_stages()}, calculator/vocab.py STAGES {vocab.STAGES}")
