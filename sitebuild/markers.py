"""The ``<!-- calc:… -->`` markers of a page: where they are, what they ask for. Nothing is rendered here.

Markers (the same in both language files; anything else that starts with ``<!-- calc`` fails the build)::

    <!-- calc:estimator [key=value …] -->         the full estimator
    <!-- calc:compare [key=value …] -->           full vs LoRA vs QLoRA (and + DPO), stacked bars
    <!-- calc:fits [key=value …] -->              which catalogue models fit one card, per method
    <!-- calc:seqlen [key=value …] -->            peak memory against sequence length
    <!-- calc:table needs-by-size method=full [key=value …] -->   computed article tables (also ``gpu-classes``,
                                                  ``gpu-memory``: the cards' reported memory, ``decision``: the chart)
    <!-- calc:value out=peak [unit=gib] [digits=1] [key=value …] -->   one computed figure, inline in a sentence
    <!-- calc:value out=verdict gpu=… [key=value …] to.seq_len=8192 -->   the same figure told as a change
    <!-- calc:value out=logits_loss … to.dpo=true compare=true -->   a size change with the words for its ratio
    <!-- calc:assumptions -->                     the article's shared assumptions as a sentence

``key=value`` are request keys of the estimator (``calculator/inputs.py``) with values in the API's own form; a
value is read by its key's kind (``seq_len=4096`` a number, ``dpo=true`` a flag, ``lora_targets=q_proj,v_proj`` a
list). An unknown kind, attribute or output fails the build here; a value the estimator rejects fails it where the
figure is computed (``sitebuild.compute``).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from mkdocs.exceptions import PluginError

from calculator.inputs import BY_NAME
from calculator.page import WIDGET_KINDS
from calculator.page.articles import ARTICLE_TABLES

#: Computed tables and the marker attributes each takes beside request keys (calculator/page/articles.py).
TABLES = {name: table.options for name, table in ARTICLE_TABLES.items()}
#: Request keys a table sets itself, cell by cell (a marker cannot fix them).
TABLE_VARIES = frozenset({"model", "method", "gpu", "num_gpus", "sharding"})

_COMMENT = r"<!--\s*calc:(?P<body>.*?)-->"
# A marker alone in its paragraph comes wrapped in <p>…</p>; one inside a sentence is the bare comment.
_MARKER = re.compile(rf"<p>\s*{_COMMENT}\s*</p>|{_COMMENT.replace('body', 'inline')}", re.S)
_LOOSE = re.compile(r"<!--\s*calc\b", re.I)
_TOKEN = re.compile(r"^(?P<key>[a-z_][a-z0-9_.]*)=(?P<value>[A-Za-z0-9_.,+-]+)$")
_INT = re.compile(r"^-?[0-9]+$")


@dataclass(frozen=True)
class Marker:
    kind: str                   # a widget kind (page.WIDGET_KINDS) or a static one (STATIC_MARKERS)
    name: str | None            # the table's name
    attrs: dict[str, Any] = field(default_factory=dict)   # request keys (API form)
    options: dict[str, Any] = field(default_factory=dict)  # value options (out, unit, digits), table options
    inline: bool = False        # inside a sentence (not a paragraph of its own)


class StaticMarker:
    """One kind of marker the build fills in itself, without JavaScript (``calc:table``, ``calc:value``, …): which
    attributes it takes beside request keys (``options``), how it reads what follows its kind (``head``) and an
    attribute of its own (``own_attribute``), what it must be given (``check``) and how it is drawn (``render``,
    by ``sitebuild/articles.py``). ``with_widgets``: placed with the widgets, after the search has indexed the page
    (files stay out of the search); else the article's own text. A new static marker is one class here, registered
    in ``STATIC_MARKERS``; the widgets' markers are ``calculator.page.WIDGET_KINDS``."""

    name: str = ""
    options: frozenset[str] = frozenset()
    with_widgets: bool = False

    def head(self, rest: list[str], where: str) -> tuple[str | None, list[str], frozenset[str]]:
        """(the marker's name, its key=value tokens, the attributes it takes beside request keys)."""
        return None, rest, self.options

    def own_attribute(self, marker_name: str | None, key: str, value: str, options: dict[str, Any],
                      where: str) -> bool:
        """True when ``key`` is read here (into ``options``) rather than as a request key."""
        return False

    def check(self, options: dict[str, Any], where: str) -> None:
        """PluginError when an option it needs is missing or wrong."""

    def render(self, s: Any, marker: Marker, article: dict[str, Any], where: str, slot: str) -> Any:
        """The marker's markup (``slot``: its id among the page's widgets)."""
        raise NotImplementedError(self.name)


class TableMarker(StaticMarker):
    """``calc:table <name>``: a computed article table (``TABLES``); the keys it varies cell by cell are its own."""

    name = "table"

    def head(self, rest, where):
        if not rest or rest[0] not in TABLES:
            raise PluginError(f"{where}: <!-- calc:table --> needs one of {sorted(TABLES)}, got {rest[:1]}")
        return rest[0], rest[1:], TABLES[rest[0]]

    def own_attribute(self, marker_name, key, value, options, where):
        if key in TABLE_VARIES:
            raise PluginError(f"{where}: 'calc:table {marker_name}' sets {key!r} itself, cell by cell")
        return False

    def render(self, s, marker, article, where, slot):
        from . import articles
        return articles.render_table(s, marker, article, where)


class ValueMarker(StaticMarker):
    """``calc:value out=…``: one computed figure, inline; ``to.<key>=…`` tells it as a change."""

    name = "value"
    options = frozenset({"out", "unit", "digits", "compare"})

    def own_attribute(self, marker_name, key, value, options, where):
        if key.startswith("to.") and key[3:] in BY_NAME and key[3:] != "include":
            options.setdefault("to", {})[key[3:]] = coerce(key[3:], value)
            return True
        return False

    def check(self, options, where):
        if "out" not in options:
            raise PluginError(f"{where}: <!-- calc:value --> needs out=… (what to show)")

    def render(self, s, marker, article, where, slot):
        from . import articles
        return articles.render_value(s, marker, article, where)


class AssumptionsMarker(StaticMarker):
    """``calc:assumptions``: the article's shared assumptions (its front matter) as a sentence."""

    name = "assumptions"

    def head(self, rest, where):
        if rest:
            raise PluginError(f"{where}: <!-- calc:assumptions --> takes no attributes (they come from front matter)")
        return None, rest, self.options

    def render(self, s, marker, article, where, slot):
        from . import articles
        return articles.render_assumptions(s, article, where)


class ConfigMarker(StaticMarker):
    """``calc:config target=…``: an article's worked example as a framework's ready files."""

    name = "config"
    options = frozenset({"target"})
    with_widgets = True

    def check(self, options, where):
        if options.get("target") not in _export_targets():
            raise PluginError(f"{where}: <!-- calc:config --> needs target= one of {', '.join(_export_targets())}")

    def render(self, s, marker, article, where, slot):
        from . import articles
        return str(articles.render_config(s, marker, article, where, slot))


#: Every static marker, by kind: the one registry the parser and the plugin read.
STATIC_MARKERS: dict[str, StaticMarker] = {k.name: k for k in (TableMarker(), ValueMarker(), AssumptionsMarker(),
                                                                ConfigMarker())}
#: A widget's marker: request keys only.
_WIDGET = StaticMarker()


def coerce(key: str, value: str) -> Any:
    """A marker or front-matter value read by its request key's kind of value (calculator/values.py); a marker's
    own options (``digits=1``, ``unit=gib``) are whole numbers, flags or text."""
    spec = BY_NAME.get(key)
    if spec is not None:
        return spec.value_kind.from_text(spec, value)
    if value in ("true", "false"):
        return value == "true"
    if _INT.match(value):
        return int(value)
    return value


def check_request_keys(keys: Any, where: str, what: str) -> None:
    unknown = sorted(k for k in keys if k not in BY_NAME or k == "include")
    if unknown:
        raise PluginError(f"{where}: {what}: unknown request key(s) {unknown} (see calculator/inputs.py)")


def parse(body: str, where: str) -> Marker:
    """``estimator model=x method=y`` -> Marker("estimator", None, {...}); ``table needs-by-size`` -> a table."""
    parts = body.split()
    if not parts:
        raise PluginError(f"{where}: empty calculator marker <!-- calc: -->")
    kind = parts[0]
    if kind not in STATIC_MARKERS and kind not in WIDGET_KINDS:
        raise PluginError(f"{where}: unknown calculator marker 'calc:{kind}' "
                          f"(known: {', '.join([*WIDGET_KINDS, *STATIC_MARKERS])})")
    reader = STATIC_MARKERS.get(kind, _WIDGET)
    name, rest, extra = reader.head(parts[1:], where)
    attrs: dict[str, Any] = {}
    options: dict[str, Any] = {}
    for token in rest:
        m = _TOKEN.match(token)
        if not m:
            raise PluginError(f"{where}: malformed attribute {token!r} in 'calc:{kind}' (write key=value)")
        key = m["key"]
        if key in attrs or key in options or (key.startswith("to.") and key[3:] in options.get("to", {})):
            raise PluginError(f"{where}: attribute {key!r} given twice in 'calc:{kind}'")
        if key in extra:
            options[key] = coerce(key, m["value"])
        elif reader.own_attribute(name, key, m["value"], options, where):
            pass
        elif key in BY_NAME and key != "include":
            attrs[key] = coerce(key, m["value"])
        else:
            raise PluginError(f"{where}: unknown attribute {key!r} for 'calc:{kind}' (request keys of "
                              f"calculator/inputs.py{', or ' + ', '.join(sorted(extra)) if extra else ''})")
    reader.check(options, where)
    return Marker(kind, name, attrs, options)


def _export_targets() -> tuple[str, ...]:
    from calculator.export import TARGETS
    return TARGETS


def find(html: str, where: str) -> list[tuple[re.Match[str], Marker]]:
    """Every marker of a page's HTML in order, with its match; a malformed one fails the build. A marker shown as
    code (escaped) is text, not a marker."""
    found = []
    for match in _MARKER.finditer(html):
        inline = match.group("inline") is not None
        marker = parse(match.group("inline") if inline else match.group("body"), where)
        found.append((match, Marker(marker.kind, marker.name, marker.attrs, marker.options, inline)))
    rest = _MARKER.sub("", html)
    leftover = _LOOSE.search(rest)
    if leftover:
        snippet = rest[leftover.start():leftover.start() + 80]
        raise PluginError(f"{where}: malformed calculator marker near {snippet!r} (write <!-- calc:kind key=value -->)")
    return found


def front_matter(meta: dict[str, Any], where: str) -> dict[str, Any]:
    """An article's shared assumptions (``calc:`` in its front matter): request keys in the API's form."""
    calc = meta.get("calc") or {}
    if not isinstance(calc, dict):
        raise PluginError(f"{where}: front matter `calc:` must be a mapping of request keys to values")
    check_request_keys(calc, where, "front matter `calc:`")
    return {k: coerce(k, v) if isinstance(v, str) else v for k, v in calc.items()}
