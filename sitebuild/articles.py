"""The article markers a page shows without JavaScript (``calc:table``, ``calc:value``, ``calc:assumptions``,
``calc:config``), routed to the page's renderer (``calculator.page.articles``, ``calculator.page.run``) with the
build's estimator (``compute.checked``); what the renderer refuses fails the build, naming the page."""
from __future__ import annotations

import functools
from typing import Any, Callable

from mkdocs.exceptions import PluginError

from calculator.errors import InputError, PageError, StringMissing
from calculator.page.articles import Ask, assumptions_html, table_html_for, value_html
from calculator.page.text import Html, Strings

from . import compute
from .markers import Marker


def render_table(s: Strings, marker: Marker, article: dict[str, Any], where: str) -> Html:
    return _built(where, lambda ask: table_html_for(s, marker.name or "", marker.options, marker.attrs, article, ask))


def render_value(s: Strings, marker: Marker, article: dict[str, Any], where: str) -> Html:
    return _built(where, lambda ask: value_html(s, marker.options, marker.attrs, article, ask))


def render_assumptions(s: Strings, article: dict[str, Any], where: str) -> Html:
    return _built(where, lambda ask: assumptions_html(s, article))


def render_config(s: Strings, marker: Marker, article: dict[str, Any], where: str, cid: str) -> Html:
    """An article's worked example as a framework's ready files (``calculator/page/run.py`` config_block)."""
    from calculator.page.run import config_block

    request = {**article, **marker.attrs}
    if "model" not in request:
        raise PluginError(f"{where}: calc:config needs model=… (in the marker or the front matter)")
    try:
        return config_block(s, cid, request, marker.options["target"])
    except InputError as exc:
        raise PluginError(f"{where}: calc:config target={marker.options['target']}: the setup is refused "
                          f"({exc.code}, {exc.field})") from exc


def _built(where: str, render: Callable[[Ask], Html]) -> Html:
    """``render(ask)`` with the build's estimator; a marker the page's renderer refuses fails the build."""
    try:
        return render(functools.partial(compute.checked, where=where))
    except StringMissing:
        raise                        # the plugin names the missing string
    except PageError as exc:
        raise PluginError(f"{where}: {exc}") from exc
