"""How the estimator's answers read: number formatting, plurals, bidi isolation and escaped markup.

The one place that turns numbers into text for readers: the page (the site build runs it on CPython for the figures
a page shows before any script runs, the page's worker in Pyodide for every later figure, so the two cannot differ)
and the CLI (``calculator/__main__.py``, in English). Standard library only; no string of the page's languages is
written here (they come from the string tables, ``calculator/strings/<lang>.json``, passed in as ``Strings``).
"""
from __future__ import annotations

import re
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path
from typing import Any, Callable

from ..errors import StringMissing

__all__ = ["Html", "Strings", "el", "join", "ltr", "filled", "plain_text", "counted", "rate", "plural_category", "amount",
           "duration", "money", "fmt_number", "fmt_int", "fmt_bytes", "fmt_percent", "fmt_count", "GB", "GIB", "MB",
           "MIB", "MEMO_LIMIT", "STRING_TABLES"]

#: The string tables, one per language (``<lang>.json``: ``calc`` for the estimator's words, the rest for the
#: site's): package data of the estimator, so an installed ``vram-estimate`` finds its words. The one place that
#: says where they are: the CLI, the site build (sitebuild/strings.py), the tests and the benchmarks read them here.
STRING_TABLES = Path(__file__).resolve().parents[1] / "strings"

GB = 10**9
GIB = 1 << 30
MB = 10**6
MIB = 1 << 20


# ---------------------------------------------------------------------------------------------------------------
# Numbers: Latin digits and en-US grouping in both languages (the articles and the seeds use Latin digits)
# ---------------------------------------------------------------------------------------------------------------
def fmt_number(x: float, digits: int) -> str:
    """``x`` with ``digits`` decimals, grouped by thousands, rounded half away from zero on the shortest decimal
    form of the float (so 0.125 -> "0.13", as a reader rounding by hand would)."""
    d = Decimal(repr(float(x))).quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_UP)
    return f"{d:,.{digits}f}"


def fmt_int(n: int) -> str:
    return f"{int(n):,}"


def fmt_bytes(b: int, unit: str | None = None, digits: int = 1) -> tuple[str, str]:
    """(decimal, binary) labels, e.g. ("86.2 GB", "80.3 GiB"); MB and MiB below 1 GB. ``unit`` forces "gb" / "gib"
    for the first label (then both labels are the same unit's)."""
    if unit == "gib":
        label = f"{fmt_number(b / GIB, digits)} GiB"
        return label, label
    if unit == "gb" or b >= GB:
        return f"{fmt_number(b / GB, digits)} GB", f"{fmt_number(b / GIB, digits)} GiB"
    return f"{fmt_number(b / MB, 0)} MB", f"{fmt_number(b / MIB, 0)} MiB"


def fmt_percent(share: float, digits: int = 2) -> str:
    return f"{fmt_number(share * 100, digits)}%"


def fmt_count(n: int, digits: int = 1) -> tuple[str, str]:
    """A parameter count as (number, scale key): (6.7, "billion"), (494.0, "million"), (1,234, "")."""
    if n >= 10**9:
        return fmt_number(n / 10**9, digits), "billion"
    if n >= 10**6:
        return fmt_number(n / 10**6, digits), "million"
    return fmt_int(n), ""


# ---------------------------------------------------------------------------------------------------------------
# Strings of the page's language
# ---------------------------------------------------------------------------------------------------------------
#: Fragments a Strings remembers (verdict badges, GPU-table rows, time-and-cost lines) before it starts afresh: a page
#: recomputing after each change asks for the same few hundred again; the bound keeps a long session's memory flat.
MEMO_LIMIT = 20_000


class Strings:
    """The ``calc`` part of one language's string table, looked up by dotted path (``"out.peak"``). Keys that contain
    dots themselves (``fields["model.hidden_size"]``) are found too: the lookup tries the longest key first."""

    def __init__(self, table: dict[str, Any], lang: str) -> None:
        self.table = table
        self.lang = lang
        self.rtl = lang == "ar"
        self.memo: dict[Any, Any] = {}    # fragments that depend on the language only (a verdict badge, say)

    def get(self, path: str, default: str | None = None) -> str:
        found = self.memo.get(path)
        if found is not None:
            return found
        node = _find(self.table, path.split("."))
        if isinstance(node, str):
            self.memo[path] = node
            return node
        if default is not None:
            return default
        raise StringMissing(f"calc.{path} ({self.lang})")

    def has(self, path: str) -> bool:
        return isinstance(_find(self.table, path.split(".")), str)

    def remember(self, key: Any, make: Callable[[], Any]) -> Any:
        """The fragment ``make()`` builds, remembered under ``key`` (a tuple naming what it depends on besides the
        language), up to MEMO_LIMIT fragments."""
        if key not in self.memo:
            if len(self.memo) > MEMO_LIMIT:
                self.memo.clear()
            self.memo[key] = make()
        return self.memo[key]

    __call__ = get


def _find(node: Any, parts: list[str]) -> Any:
    if not parts:
        return node
    if not isinstance(node, dict):
        return None
    for n in range(len(parts), 0, -1):           # "model.hidden_size" as one key before "model" -> "hidden_size"
        key = ".".join(parts[:n])
        if key in node:
            found = _find(node[key], parts[n:])
            if found is not None:
                return found
    return None


def plural_category(lang: str, n: int) -> str:
    """The CLDR plural category of a whole number: Arabic has six (zero, one, two, few for 3-10, many for 11-99,
    other), counted on the last two digits past 100; English has one and other."""
    if lang == "ar":
        if n == 0:
            return "zero"
        if n == 1:
            return "one"
        if n == 2:
            return "two"
        if 3 <= n % 100 <= 10:
            return "few"
        if 11 <= n % 100 <= 99:
            return "many"
        return "other"
    return "one" if n == 1 else "other"


def counted(s: "Strings", noun: str, n: int) -> "Html":
    """"4 cards", "8,192 tokens", and in Arabic «بطاقتين», «4 بطاقات», «2,048 رمزًا», «4,194,304 رموز»: the noun
    agrees with the number (``calc.units.<noun>.<category>``, falling back to ``other``); the number is isolated."""
    forms = s.table.get("units", {}).get(noun, {})
    template = forms.get(plural_category(s.lang, n)) or forms.get("other")
    if not isinstance(template, str):
        raise StringMissing(f"calc.units.{noun}.other ({s.lang})")
    return filled(template, {"n": fmt_int(n)})


def rate(s: "Strings", tokens_per_second: float) -> "Html":
    """A speed in tokens per second, rounded to whole tokens, its noun agreeing with the number (the page and the
    CLI round it the same way)."""
    return counted(s, "tokens_per_second", round(tokens_per_second))


def amount(s: "Strings", noun: str, value: float, digits: int) -> "Html":
    """A measured quantity with its unit noun: "1.9 hours", "2.74 USD"; in Arabic «1.9 ساعة», «5 ساعات», «2.74 دولار».
    A whole number takes the noun's plural category; a fraction takes the ``other`` form."""
    text = fmt_number(value, digits)
    whole = digits == 0 or float(text.replace(",", "")) == int(float(text.replace(",", "")))
    forms = s.table.get("units", {}).get(noun, {})
    category = plural_category(s.lang, int(round(value))) if whole else "other"
    template = forms.get(category) or forms.get("other")
    if not isinstance(template, str):
        raise StringMissing(f"calc.units.{noun}.other ({s.lang})")
    return filled(template, {"n": fmt_int(round(value)) if whole else text})


def duration(s: "Strings", seconds: float) -> "Html":
    """A run time in the unit a reader plans with: seconds, minutes, hours (two significant digits below ten), days."""
    if seconds < 90:
        return amount(s, "seconds", seconds, 1 if seconds < 10 else 0)
    if seconds < 90 * 60:
        return amount(s, "minutes", seconds / 60, 0)
    hours = seconds / 3600
    if hours < 48:
        return amount(s, "hours", hours, 1 if hours < 10 else 0)
    days = hours / 24
    return amount(s, "days", days, 1 if days < 10 else 0)


def money(s: "Strings", value: float, currency: str = "USD") -> "Html":
    """A cost: cents below 100, whole units above."""
    return amount(s, currency.lower(), value, 2 if value < 100 else 0)


# ---------------------------------------------------------------------------------------------------------------
# Markup: every text is escaped unless it is ``Html`` built here
# ---------------------------------------------------------------------------------------------------------------
class Html(str):
    """Markup that is already escaped (made by ``el``/``join``/``ltr``/``filled``). Any other str is text."""

    __slots__ = ()


_VOID = frozenset({"br", "input", "img", "meta", "col", "hr", "wbr"})


def _render(child: Any) -> str:
    if child is None or child is False or child == "":
        return ""
    if isinstance(child, Html):
        return child
    if isinstance(child, (list, tuple)):
        return "".join(_render(c) for c in child)
    return escape(str(child))


def join(*children: Any) -> Html:
    return Html("".join(_render(c) for c in children))


def el(tag: str, attrs: dict[str, Any] | None = None, *children: Any) -> Html:
    """``<tag a="v">children</tag>``; attributes whose value is None or False are left out, True is bare."""
    parts = [tag]
    for key, value in (attrs or {}).items():
        if value is None or value is False:
            continue
        if value is True:
            parts.append(key)
        else:
            parts.append(f'{key}="{escape(str(value), quote=True)}"')
    opening = "<" + " ".join(parts) + ">"
    if tag in _VOID:
        return Html(opening)
    return Html(opening + join(*children) + f"</{tag}>")


def ltr(text: Any, **attrs: Any) -> Html:
    """A left-to-right run (number, unit, model name, a whole "2 × H100" expression) isolated from the sentence around
    it, so that the Arabic sentence neither reorders it nor is reordered by it."""
    return el("bdi", {"dir": "ltr", **{k.replace("_", "-"): v for k, v in attrs.items()}}, text)


_PLACEHOLDER = re.compile(r"\{(\w+)\}")


def plain_text(markup: Any) -> str:
    """The text of a piece of markup (an aria-label, a live region, a title): ``html.unescape`` of it without its tags.
    The five references ``escape`` writes are read here; any other text with an ``&`` goes to ``html.unescape``."""
    text = _TAG.sub("", str(markup))
    if "&" not in text:
        return text
    if _OTHER_AMPERSAND.search(text):
        import html
        return html.unescape(text)
    return _OURS.sub(lambda m: _UNESCAPED[m.group(1)], text)


# ``html`` imports ``html.entities`` (2,231 named references), 24 ms of the page's start in Pyodide, for what needs
# five of them: escape is html.escape's five replacements, and plain_text reads those five itself.
_TAG = re.compile(r"<[^>]+>")
_UNESCAPED = {"amp": "&", "lt": "<", "gt": ">", "quot": '"', "#x27": "'"}
_OURS = re.compile(r"&(amp|lt|gt|quot|#x27);")
_OTHER_AMPERSAND = re.compile(r"&(?!(?:amp|lt|gt|quot|#x27);)")


def escape(text: str, quote: bool = False) -> str:
    """``html.escape(text, quote)``."""
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    if quote:
        text = text.replace('"', "&quot;").replace("'", "&#x27;")
    return text


def filled(template: str, values: dict[str, Any]) -> Html:
    """A string of the table with its ``{placeholders}`` replaced: plain values become isolated LTR runs, ``Html``
    values go in as they are. An unknown placeholder stays visible (and a test catches it)."""
    parts = _PLACEHOLDER.split(template)
    out: list[Any] = []
    for i, part in enumerate(parts):
        if i % 2 == 0:
            out.append(part)
        elif part not in values:
            out.append("{" + part + "}")
        else:
            value = values[part]
            out.append(value if isinstance(value, Html) else ltr(value))
    return join(*out)


