"""YAML in the frameworks' dialect: a small writer for the exports, and ruamel.yaml (imported lazily) for reading.

Every target reads its config with PyYAML's ``safe_load``, which is YAML 1.1: ``yes/no/on/off`` are booleans, ``017``
is octal 15 and ``2e-4`` (no dot) is a string. The writer therefore emits only forms that read the same in YAML 1.1
and 1.2 (``true``/``false``, decimal integers, floats with a dot, quoted strings where a plain one could be read as
something else); the reader is ruamel.yaml 0.19 (pure Python, ``typ="safe"``) told to read YAML 1.1, so a pasted
config means what the framework would make of it. Standard library only apart from that lazy import.
"""
from __future__ import annotations

import math
import re
from typing import Any

from ._quote import comment, escape

__all__ = ["dump", "load", "scalar", "quoted", "YamlError"]

#: A string written plain (no quotes): a word that starts with a letter, ``_`` or ``/`` (never ``.``: ``.inf`` and
#: ``.nan`` are floats) and holds only ``[A-Za-z0-9_./-]``, so no YAML 1.1 or 1.2 resolver reads it as anything else
#: once the words of ``_SPECIAL`` are left out. The file's own keys must be such words too.
_PLAIN = re.compile(r"[A-Za-z_/][A-Za-z0-9_./-]*")
#: Plain words YAML 1.1 or 1.2 would read as a boolean or null (PyYAML's resolver, yaml.org/type/bool.html).
_SPECIAL = frozenset("y n yes no on off true false null ~".split())


class YamlError(ValueError):
    """A text that is not YAML, or whose top level is not a mapping (``code`` ``invalid_yaml``), or one beyond the
    limits a pasted request has (``too_large``: longer than ``api.MAX_INPUT_CHARS``, nested deeper than
    ``api.MAX_DEPTH``, or more values than ``MAX_NODES`` once its aliases and merge keys are followed); ``line`` is
    1-based when known."""

    def __init__(self, line: int | None = None, code: str = "invalid_yaml") -> None:
        super().__init__(line, code)
        self.line = line
        self.code = code


#: The most values (keys, values and collections) a pasted YAML may hold once its aliases and merge keys are
#: followed: a real config has a few hundred (the largest file an export writes, 48), while an alias bomb ("billion
#: laughs") is a few lines that name the same list 10^9 times and a chain of merge keys copies 3^n mappings. Counted
#: as they are composed (``_limited``), so no text costs more than composing MAX_NODES values (about 0.1 s of
#: CPython for 2,000: ``python -m benchmarks.hostile_inputs``) before it is refused, and nothing is constructed.
MAX_NODES = 2_000


def scalar(v: Any) -> str:
    """One value as YAML text that PyYAML (1.1) and YAML 1.2 parsers read back as the same Python value."""
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if not math.isfinite(v):
            raise ValueError(v)
        text = repr(v)
        if "e" in text or "E" in text:          # 1e-05 -> 1.0e-05: PyYAML's float needs the dot
            mant, exp = text.lower().split("e")
            text = (mant if "." in mant else mant + ".0") + "e" + exp
        return text
    s = str(v)
    if _PLAIN.fullmatch(s) and s.lower() not in _SPECIAL:
        return s
    return quoted(s)


def quoted(s: str) -> str:
    """A string as a YAML double-quoted scalar: ``\\`` and ``"`` escaped, and every character that is not printable
    (every line break YAML 1.1 knows: LF, CR, NEL U+0085, U+2028, U+2029; tabs, NUL, ESC, the other controls, the
    bidirectional overrides, surrogates) written as its ``\\x``/``\\u``/``\\U`` escape, which PyYAML (1.1) and
    ruamel.yaml read back as that character; a lone surrogate, which PyYAML refuses even as an escape, is written
    as U+FFFD, the replacement character (no UTF-8 file can hold one either). Printable letters of any script stay as they are.

    Hand-written rather than the YAML library's emitter: the one the page carries (ruamel.yaml) writes for YAML 1.2,
    where ``yes``/``on``/``0755`` are plain strings that the frameworks' PyYAML (1.1) reads as a boolean or a number,
    and the writer then needs no import (``--export`` works without the ``export`` extra). The frameworks tier holds
    that both readers give every hostile string back unchanged (tests/frameworks/test_export_hostile.py)."""
    body = s.replace("\\", "\\\\").replace('"', '\\"')
    if not body.isprintable():
        body = "".join(ch if ch.isprintable() else "\\ufffd" if 0xD800 <= ord(ch) <= 0xDFFF else escape(ch)
                       for ch in body)
    return '"' + body + '"'


def _comment(c: str | None) -> str:
    return f"  # {comment(c)}" if c else ""


def dump(items: list[tuple[str, Any, str | None]], indent: int = 0) -> list[str]:
    """Lines of a block mapping from ``(key, value, comment)``; a value may be a list of scalars or a nested list of
    such triples (a mapping). A list of mappings is written as ``- `` items."""
    pad = " " * indent
    out: list[str] = []
    for key, value, note in items:
        if not _PLAIN.fullmatch(key):
            raise ValueError(f"YAML key {key!r} is not a plain word")
        if isinstance(value, list) and value and isinstance(value[0], tuple):
            out.append(f"{pad}{key}:{_comment(note)}")
            out.extend(dump(value, indent + 2))
        elif isinstance(value, list) and value and isinstance(value[0], list):   # a list of mappings
            out.append(f"{pad}{key}:{_comment(note)}")
            for mapping in value:
                lines = dump(mapping, indent + 4)
                out.append(f"{pad}  - " + lines[0].lstrip())
                out.extend(lines[1:])
        elif isinstance(value, list):
            out.append(f"{pad}{key}: [{', '.join(scalar(x) for x in value)}]{_comment(note)}")
        else:
            out.append(f"{pad}{key}: {scalar(value)}{_comment(note)}")
    return out


# PyYAML 6.0's implicit resolvers (yaml/resolver.py), which every target reads its config with: YAML 1.1, except
# that a float needs a dot and a signed exponent (``2e-4`` is a string) and ``y``/``n`` stay strings. ruamel's own
# 1.1 rules differ on exactly those, so the reader uses these.
_PYYAML_RESOLVERS: tuple[tuple[str, str, str | tuple[str, ...]], ...] = (
    ("bool", r"^(?:yes|Yes|YES|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF)$", "yYnNtTfFoO"),
    ("float", r"^(?:[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+][0-9]+)?|\.[0-9][0-9_]*(?:[eE][-+][0-9]+)?"
              r"|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$",
     "-+0123456789."),
    ("int", r"^(?:[-+]?0b[0-1_]+|[-+]?0[0-7_]+|[-+]?(?:0|[1-9][0-9_]*)|[-+]?0x[0-9a-fA-F_]+"
            r"|[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+)$", "-+0123456789"),
    ("merge", r"^(?:<<)$", "<"),
    ("null", r"^(?:~|null|Null|NULL|)$", ("~", "n", "N", "")),
    ("timestamp", r"^(?:[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]|[0-9][0-9][0-9][0-9]-[0-9][0-9]?-[0-9][0-9]?"
                  r"(?:[Tt]|[ \t]+)[0-9][0-9]?:[0-9][0-9]:[0-9][0-9](?:\.[0-9]*)?"
                  r"(?:[ \t]*(?:Z|[-+][0-9][0-9]?(?::[0-9][0-9])?))?)$", "0123456789"),
    ("value", r"^(?:=)$", "="),
)


def _yaml(max_depth: int) -> Any:
    """ruamel.yaml reading PyYAML's YAML 1.1, its scanner and composer counting levels and values (``_limited``)."""
    from ruamel.yaml import YAML
    from ruamel.yaml.resolver import VersionedResolver

    table: dict[Any, list[tuple[str, Any]]] = {}
    for tag, pattern, first in _PYYAML_RESOLVERS:
        for ch in first:
            table.setdefault(ch, []).append(("tag:yaml.org,2002:" + tag, re.compile(pattern)))

    class PyYamlResolver(VersionedResolver):
        @property
        def versioned_resolver(self) -> Any:
            return table

    yaml = YAML(typ="safe", pure=True)
    yaml.Resolver = PyYamlResolver
    yaml.version = (1, 1)
    yaml.Scanner, yaml.Composer = _limited(max_depth)
    return yaml


#: The characters that can open or close a level, start or end a quoted text, or start a comment.
_SCAN = {False: re.compile(r"[\[\]{}'\"#\\]"), True: re.compile(r"[\[\](){}'\"#\\]")}
#: What may stand before a YAML quote that opens a quoted scalar (else the quote is a character of a plain scalar,
#: ``don't``): the line's start, a space or a tab, or a flow indicator.
_QUOTE_AFTER = frozenset(" \t[{,")


def nesting(text: str, python: bool = False, limit: int | None = None) -> int:
    """How deep ``text`` nests, counted before parsing (a parser recurses once per level, and the page's Python has
    a smaller stack than CPython): block levels by indentation and leading ``- ``, plus open brackets outside quotes
    and comments (YAML's flow collections; with ``python``, a script's parentheses too). Each language's own rules,
    so that no text hides a level from the count: in YAML a ``#`` starts a comment only at the line's start or after
    a space or tab (``a#b`` is a plain scalar), a quote opens a quoted scalar only where a scalar can start
    (``don't`` is plain), ``''`` is one quote in single quotes, and a backslash escapes only in double quotes; in
    Python every quote opens a string (``'a''b'`` is two), a backslash escapes in both, and ``#`` outside a string
    is a comment. Each line starts outside quotes: a text the count reads differently from its parser is
    over-counted (a quoted scalar over several lines), never under-counted below what the parser's own limits catch
    (``load`` counts the levels again as they are scanned and composed). With ``limit``, the count stops at the
    first level beyond it (the depth returned is then only known to pass it)."""
    scan = _SCAN[python]
    deepest = 0
    indents: list[int] = []
    flow = 0
    for raw in text.splitlines():
        body = raw.lstrip(" ")
        if not body or body.startswith("#"):
            continue
        indent = len(raw) - len(body)
        if flow == 0:
            while indents and indents[-1] >= indent:
                indents.pop()
            indents.append(indent)
            dashes = 0
            while body.startswith("- ") or body == "-":
                dashes += 1
                body = body[2:].lstrip(" ")
            deepest = max(deepest, len(indents) + dashes)
        if limit is not None and deepest > limit:
            break
        quote = ""
        escaped = -1                      # the index a backslash escapes
        for m in scan.finditer(body):
            ch, at = m.group(), m.start()
            if quote:
                if at == escaped:
                    continue
                if ch == "\\" and (python or quote == '"'):
                    escaped = at + 1
                elif ch == quote and body[at + 1:at + 2] == quote and (python or quote == "'"):   # 'it''s'
                    escaped = at + 1
                elif ch == quote:
                    quote = ""
            elif ch in "'\"":
                if python or at == 0 or body[at - 1] in _QUOTE_AFTER:
                    quote = ch
            elif ch == "#":
                if python or at == 0 or body[at - 1] in " \t":
                    break
            elif ch in "[{(":
                flow += 1
                deepest = max(deepest, len(indents) + flow)
                if limit is not None and deepest > limit:
                    return deepest
            elif ch in "]})":
                flow = max(0, flow - 1)
    return deepest


class _TooLarge(Exception):
    """Raised by the scanner or the composer (``_limited``) the moment a text passes its limits."""


def _limited(max_depth: int) -> tuple[Any, Any]:
    """ruamel's scanner and composer, stopping (``_TooLarge``) at MAX_NODES values or ``max_depth`` levels before
    anything is constructed. The scanner refuses a flow collection opened deeper than ``max_depth`` as it reads its
    bracket (its look-ahead for simple keys would otherwise read up to 1,024 brackets of a line, each against every
    open level: 0.4 s). The composer counts every value as it composes it, parser event by parser event: an alias
    counts every value of the node it names and reaches as deep below itself as that node does; a merge key
    (``<<: [*a, *b]``) is an alias too, so a chain of merges counts what the constructor would copy into each
    mapping (ruamel's ``flatten_mapping`` copies the merged pairs into every mapping: 3 merges a level cost x3 a
    level); an alias of a node that holds it (``&r [*r]``) never ends."""
    from ruamel.yaml.composer import Composer
    from ruamel.yaml.events import AliasEvent
    from ruamel.yaml.scanner import Scanner

    class FlowLimitedScanner(Scanner):  # type: ignore[misc]
        def fetch_flow_collection_start(self, TokenClass: Any, to_push: str) -> None:  # noqa: N803 - ruamel's name
            super().fetch_flow_collection_start(TokenClass, to_push)
            if self.flow_level > max_depth:
                raise _TooLarge

    class CountingComposer(Composer):  # type: ignore[misc]
        def compose_document(self) -> Any:
            self.values = 0
            self.reach = 0                                 # the deepest level composed so far
            self.sizes: dict[Any, tuple[int, int]] = {}    # anchor -> (values, levels below it)
            return super().compose_document()

        def count(self, values: int, level: int) -> None:
            self.values += values
            self.reach = max(self.reach, level)
            if self.values > MAX_NODES or level > max_depth:
                raise _TooLarge

        def compose_node(self, parent: Any, index: Any) -> Any:
            event = self.parser.peek_event()
            level = self.depth                             # the root is level 0 (ruamel counts it as 1)
            if isinstance(event, AliasEvent):
                if event.anchor in self.sizes:
                    values, below = self.sizes[event.anchor]
                    self.count(values, level + below)
                elif event.anchor in self.anchors:         # still being composed: the alias is inside it
                    raise _TooLarge
                return super().compose_node(parent, index)  # (an unknown alias: ruamel's own error)
            if event.anchor is not None:
                self.sizes.pop(event.anchor, None)         # a name given again names the new node from here on
            before, outer = self.values, self.reach
            self.reach = level
            self.count(1, level)
            node = super().compose_node(parent, index)
            if event.anchor is not None:
                self.sizes[event.anchor] = (self.values - before, self.reach - level)
            self.reach = max(outer, self.reach)
            return node

    return FlowLimitedScanner, CountingComposer


def load(text: str) -> dict[str, Any]:
    """The mapping a framework would read from ``text`` (PyYAML's YAML 1.1), within the limits the API sets on a
    pasted request: its size, its depth (counted on the text before parsing, ``nesting``, and again as it is
    scanned and composed, aliases followed) and MAX_NODES values (counted as they are composed, ``_limited``), each
    refused before anything is constructed. Raises ``YamlError``."""
    from ruamel.yaml.error import YAMLError

    from ..api import MAX_DEPTH, MAX_INPUT_CHARS

    if len(text) > MAX_INPUT_CHARS or nesting(text, limit=MAX_DEPTH) > MAX_DEPTH:
        raise YamlError(None, "too_large")
    try:
        data = _yaml(MAX_DEPTH).load(text)
    except _TooLarge:
        raise YamlError(None, "too_large") from None
    except YAMLError as exc:
        mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
        raise YamlError(None if mark is None else mark.line + 1) from None
    except RecursionError:
        raise YamlError(None, "too_large") from None
    except (ValueError, TypeError, AttributeError, OverflowError):
        raise YamlError(None) from None
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise YamlError(1)
    return data
