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
    ``api.MAX_DEPTH``, or more values than ``MAX_NODES`` once its aliases are followed); ``line`` is 1-based when
    known."""

    def __init__(self, line: int | None = None, code: str = "invalid_yaml") -> None:
        super().__init__(line, code)
        self.line = line
        self.code = code


#: The most values a pasted YAML may hold once its aliases are followed (a real config has a few hundred): an
#: alias bomb ("billion laughs") is a few lines that name the same list 10^9 times.
MAX_NODES = 20_000


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
        body = "".join(ch if ch.isprintable() else "\\ufffd" if "\ud800" <= ch <= "\udfff" else escape(ch)
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


def _yaml() -> Any:
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
    return yaml


def nesting(text: str, brackets: str = "[{") -> int:
    """How deep ``text`` nests, counted before parsing (a parser recurses once per level, and the page's Python has
    a smaller stack than CPython): block levels by indentation and leading ``- ``, plus open ``brackets`` (YAML's
    flow collections; a script's parentheses too) outside quotes. An over-count is possible only for lines full of
    unbalanced brackets inside block scalars."""
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
        quote = ""
        for ch in body:
            if quote:
                if ch == quote:
                    quote = ""
            elif ch in "'\"":
                quote = ch
            elif ch == "#":
                break
            elif ch in brackets:
                flow += 1
                deepest = max(deepest, len(indents) + flow)
            elif ch in "]})":
                flow = max(0, flow - 1)
    return deepest


def _within_limits(data: Any, max_depth: int) -> bool:
    """No deeper than ``max_depth`` and at most MAX_NODES values, every alias counted where it is used."""
    budget = MAX_NODES
    stack: list[tuple[Any, int]] = [(data, 0)]
    while stack:
        node, depth = stack.pop()
        budget -= 1
        if budget < 0 or depth > max_depth:
            return False
        if isinstance(node, dict):
            stack.extend((v, depth + 1) for v in node.values())
            stack.extend((k, depth + 1) for k in node if isinstance(k, (tuple, frozenset)))
        elif isinstance(node, (list, tuple)):
            stack.extend((v, depth + 1) for v in node)
    return True


def load(text: str) -> dict[str, Any]:
    """The mapping a framework would read from ``text`` (PyYAML's YAML 1.1), within the limits the API sets on a
    pasted request (size, depth; and MAX_NODES values). Raises ``YamlError``."""
    from ruamel.yaml.error import YAMLError

    from ..api import MAX_DEPTH, MAX_INPUT_CHARS

    if len(text) > MAX_INPUT_CHARS or nesting(text) > MAX_DEPTH:
        raise YamlError(None, "too_large")
    try:
        data = _yaml().load(text)
    except YAMLError as exc:
        mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
        raise YamlError(None if mark is None else mark.line + 1) from None
    except RecursionError:
        raise YamlError(None, "too_large") from None
    except (ValueError, TypeError, AttributeError, OverflowError):
        raise YamlError(None) from None
    if not _within_limits(data, MAX_DEPTH):
        raise YamlError(None, "too_large")
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise YamlError(1)
    return data
