"""What makes a value inert in an exported file: one function per output form, every target writes through them.

* a YAML scalar: ``_yaml.scalar`` (plain only for words every YAML reader takes as that string, else double-quoted
  with every character that is not printable written as its escape);
* a JSON string: ``json.dumps`` (``_common.deepspeed_json`` writes its whole file with it);
* a Python literal: ``py_literal`` (``repr``), only ever as a value of an assignment or a keyword argument;
* a comment: ``comment``: one line, every character that is not printable (line breaks of every kind, controls,
  escape sequences, NUL, bidirectional overrides) written as its escape, so nothing ends it early.

A name from outside (a pasted config's ``name`` / ``_name_or_path``, a caller's summary) goes into a comment only
when ``name_ok`` holds for it; otherwise the comment says the project's own neutral words instead. Standard library
only (the page's exporters run in Pyodide).
"""
from __future__ import annotations

import re
from typing import Any

__all__ = ["comment", "name_ok", "py_literal", "escape", "MAX_NAME"]

#: The longest name a comment carries as given (a model's display name; a longer one is replaced by neutral words).
MAX_NAME = 96


def escape(ch: str) -> str:
    """One character as a backslash escape that Python, JSON-like and YAML double-quoted readers all spell alike."""
    o = ord(ch)
    return f"\\x{o:02x}" if o < 0x100 else f"\\u{o:04x}" if o < 0x10000 else f"\\U{o:08x}"


#: What would make a script's first or second comment line an encoding declaration (PEP 263: ``coding[:=]``):
#: ``# coding: utf-7`` on line 2 turns ``+AAo-`` into a line break, so a name could smuggle a statement in.
_CODING = re.compile(r"coding([:=])")


def comment(text: str) -> str:
    """``text`` as the body of one comment line: every character that is not printable (``str.isprintable``: line
    breaks of every kind, C0/C1 controls, format characters such as the bidirectional overrides, separators other
    than the space, surrogates) written as its escape, so the comment cannot end before the line does; and
    ``coding:`` / ``coding=`` written ``coding\\x3a`` / ``coding\\x3d``, so no comment declares a script's
    encoding."""
    if not text.isprintable():
        text = "".join(ch if ch.isprintable() else escape(ch) for ch in text)
    return _CODING.sub(lambda m: "coding" + escape(m.group(1)), text)


def name_ok(value: Any) -> bool:
    """Whether a name from outside may stand in a comment as given: a non-empty string of printable characters
    (no line break, control, format or bidi-override character), at most MAX_NAME long, no space at either end."""
    return (isinstance(value, str) and 0 < len(value) <= MAX_NAME and value.isprintable()
            and value == value.strip())


def py_literal(value: Any) -> str:
    """A value as a Python literal (``repr``), for the right-hand side of an assignment or a keyword argument: a
    string's quotes and escapes are Python's own, so nothing in it can end the literal."""
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(py_literal(v) for v in value) + "]"
    if value is None or isinstance(value, (bool, int, float, str)):
        return repr(value)
    raise TypeError(f"not a literal the exports write: {type(value).__name__}")
