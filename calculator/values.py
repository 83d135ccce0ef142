"""The kinds of value a request key takes, one class each (MkDocs's one class per config option type): everything
that depends on the kind lives in its class, and every reader asks the class instead of switching on a kind name.

Each kind says how the API checks a value (``check``), how a marker, the front matter (``from_text``) and the form
(``from_form``) write one, which CLI argument reads it (``cli_argument``), which CMS field edits it (``cms_field``),
which form control shows it (``control``, drawn by ``calculator/page/form.py``) with its choices (``options``), how
an assumption sentence says it (``describe``, a ``Phrase`` the page puts in the reader's words) and which values
ESTIMATOR.md's key table lists (``doc_values``). A new kind is
one class here (registered in ``inputs.VALUE_KINDS``) plus its wrong-type message in both string tables
(``errors.wrong_type.<name>``); a class that leaves one of these out cannot be instantiated, and says which.

A declaration, below the physics and the catalogue: this module imports neither the catalogue nor the config reader.
The two kinds that look a value up (``ModelKind``, ``GpuKind``) are given their catalogue and reader when they are
made (``inputs.VALUE_KINDS``). It writes no markup and formats no number: a ``Phrase`` names a string-table key, a
literal run or a number, and the page renders it. Standard library only.
"""
from __future__ import annotations

import re
from abc import ABC, abstractmethod
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Callable, Mapping

from .errors import InputError
from .models import ALL_LINEAR, LORA_MODULES, ModelArch

if TYPE_CHECKING:
    from .inputs import InputSpec

__all__ = ["Phrase", "Option", "ValueKind", "MAX_LIST", "MAX_DIGITS", "whole_number", "parse_number",
           "plain_number"]

#: Longest list a list-valued key accepts (more is ``too_large``).
MAX_LIST = 64
#: Digits of a whole number read as written: every limit of every key is far below 10^40, so a longer number is
#: read as ±10^40 (``out_of_range``), never converted (CPython refuses more than 4,300 digits, and converting fewer
#: costs time quadratic in their count).
MAX_DIGITS = 40


@dataclass(frozen=True)
class Phrase:
    """A value as a sentence says it: a string-table key (``key``), a literal left-to-right run (``text``), a
    number (``number``, whole when ``integer``) that the page formats, or a list of left-to-right names (``items``)
    that the page joins with its language's comma («، » in Arabic, not a Latin one)."""

    key: str | None = None
    text: str | None = None
    number: float | None = None
    integer: bool = False
    items: tuple[str, ...] | None = None


@dataclass(frozen=True)
class Option:
    """One choice of a drop-down: its value, its label and the group it is listed under (None: no groups)."""

    value: str
    label: Phrase
    group: Phrase | None = None


# Digits and separators people type: Arabic-Indic and Extended Arabic-Indic (Persian/Urdu) digits, the Arabic
# decimal point (always a decimal mark) and thousands separator, and the usual grouping characters (removed). Commas
# are read by where they stand (``_read_commas``).
_DIGITS = {**{ord(c): str(i) for i, c in enumerate("٠١٢٣٤٥٦٧٨٩")},
           **{ord(c): str(i) for i, c in enumerate("۰۱۲۳۴۵۶۷۸۹")},
           ord("٫"): ".", ord("٬"): None, ord("_"): None, ord("'"): None, ord(" "): None,
           ord("\u00a0"): None, ord("\u202f"): None, ord("\u2009"): None, ord("،"): ",",
           # the direction marks a number carries when copied from Arabic text (LRM, RLM, the Arabic letter mark)
           ord("\u200e"): None, ord("\u200f"): None, ord("\u061c"): None}
_NUMBER = re.compile(r"^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$")
_INTEGER = re.compile(r"^[+-]?\d+$")
#: A count written with its scale, as readers write a data set's size: "50M", "1.5B", "200k" (issue 42, point 8).
_SCALED = re.compile(r"^([+-]?(?:\d+(?:\.\d*)?|\.\d+))([kKmMbB])$")
_SCALES = {"k": 10**3, "m": 10**6, "b": 10**9}
#: A comma followed by exactly three digits groups thousands ("4,096", "20,000,000"), except after a leading lone 0,
#: which no grouping writes ("0,125" USD is 0.125); any other comma is a decimal mark ("1,5" epochs, "0,75" USD) —
#: what a reader of a comma-decimal locale types, in either language.
_GROUPING_COMMA = re.compile(r"(?<!^0)(?<!^[+-]0),(?=\d{3}(?!\d))")
_MARK = re.compile(r"[.,]")
# A marker's or the front matter's numbers: plain ASCII.
_TEXT_INT = re.compile(r"^-?[0-9]+$")
_TEXT_FLOAT = re.compile(r"^-?[0-9]*\.?[0-9]+([eE]-?[0-9]+)?$")


def whole_number(digits: str) -> int:
    """A whole number written in ASCII digits (an optional sign first), of any length: beyond ``MAX_DIGITS``
    digits ±10^40 stands for it. The one reading of long integers for the JSON reader, the form and the CLI."""
    if len(digits.lstrip("+-")) > MAX_DIGITS:
        return -10**MAX_DIGITS if digits.startswith("-") else 10**MAX_DIGITS
    return int(digits)


def _read_commas(s: str) -> str | None:
    """``s`` with its grouping commas dropped and its decimal comma made a point; None when the separators cannot
    be one number (two decimal marks, or a separator after the decimal mark: "1.234,5", "1,23,456")."""
    marks = list(_MARK.finditer(s))
    decimal = [m for m in marks if m.group() == "." or not _GROUPING_COMMA.match(s, m.start())]
    if len(decimal) > 1 or (decimal and marks[-1].start() != decimal[0].start()):
        return None
    return _GROUPING_COMMA.sub("", s).replace(",", ".")


def parse_number(text: Any) -> Any:
    """A typed number as the API expects it: an int for whole numbers (any size, so a 5,000-digit one is out of
    range, not an error of its own), a float for decimals; anything else goes on as typed, so that the estimator
    names the error (``wrong_type``). A comma before exactly three digits groups thousands, any other comma (and
    the Arabic ``٫``) is the decimal mark: "4,096" is 4096, "1,5" is 1.5."""
    if not isinstance(text, str):
        return text
    s = _read_commas(text.strip().translate(_DIGITS))
    if s is None:
        return text
    if _INTEGER.match(s):
        return whole_number(s)
    if _NUMBER.match(s):
        try:
            return float(s)
        except (ValueError, OverflowError):   # pragma: no cover - the pattern admits only floats Python reads
            return text
    return text


def _of_type(spec: InputSpec, value: Any, types: type | tuple[type, ...]) -> Any:
    """``value`` when it is of ``types`` (a bool is not a number), else ``wrong_type`` naming the key."""
    allowed = types if isinstance(types, tuple) else (types,)
    if not isinstance(value, allowed) or (isinstance(value, bool) and bool not in allowed):
        raise InputError("wrong_type", spec.name)
    return value


class ValueKind(ABC):
    """One kind of value. ``name`` is the kind's name in the input table, the schema and the string tables."""

    name: str = ""
    #: The form control that edits a value of this kind (page/form.py CONTROLS), None: the form never shows it.
    control: str | None = None
    #: A drop-down whose labels are names written left to right (model names), not words of the page.
    ltr_options: bool = False

    @abstractmethod
    def check(self, spec: InputSpec, value: Any) -> Any:
        """The value, checked and normalised; ``InputError(code, spec.name)`` when it cannot be used."""

    @abstractmethod
    def from_text(self, spec: InputSpec, text: str) -> Any:
        """A value as a marker or the front matter writes it (``seq_len=4096``, ``all-linear``)."""

    @abstractmethod
    def cli_argument(self, spec: InputSpec, help_text: str) -> dict[str, Any]:
        """The keyword arguments of ``argparse.ArgumentParser.add_argument`` for the key's flag."""

    @abstractmethod
    def cms_field(self, spec: InputSpec) -> dict[str, Any]:
        """The CMS field that edits the key in an article's front matter (Sveltia CMS widget options)."""

    @abstractmethod
    def describe(self, spec: InputSpec, value: Any) -> Phrase:
        """How an assumption sentence says the value."""

    def doc_values(self, spec: InputSpec) -> str:
        """The values column of ESTIMATOR.md's key table (Markdown)."""
        return ""

    def request_value(self, spec: InputSpec, value: Any) -> Any:
        """A ``TrainingSetup`` field's value of this kind written as a request writes it (the inverse of ``check``):
        how the input table states a default whose one home is the field's."""
        return value

    def check_typed(self, spec: InputSpec, value: Any) -> None:
        """A ``TrainingSetup`` field of this kind, as ``check`` made it (an Enum, a tuple), checked for what the
        setup does not check itself when it is made (its type, lowest value and finiteness are the field's:
        ``models.TrainingSetup``): an enum's choices of the key, the model as a pasted config would be read;
        ``InputError(code, spec.name)``. Never the highest value (the estimator derives setups beyond the limits the
        API reads). A kind with nothing more to check checks nothing."""

    def from_form(self, spec: InputSpec, raw: Any) -> Any:
        """A value as the page's form sends it (a checkbox flag, a select's string, typed text)."""
        return raw

    def options(self, spec: InputSpec) -> list[Option]:
        """The choices of its drop-down, in order (kinds drawn as a select)."""
        return []

    def bounds(self, spec: InputSpec) -> tuple[float, float, bool] | None:
        """(lowest, highest, whole numbers only) for kinds with limits; None otherwise."""
        return None


class BoolKind(ValueKind):
    name = "bool"
    control = "checkbox"

    def check(self, spec, value):
        return _of_type(spec, value, bool)

    def from_text(self, spec, text):
        return text == "true" if text in ("true", "false") else text

    def cli_argument(self, spec, help_text):
        import argparse      # the CLI's alone: importing it took 50 ms of the page's start in Pyodide
        return {"action": argparse.BooleanOptionalAction, "help": help_text}

    def cms_field(self, spec):
        return {"widget": "boolean"}

    def describe(self, spec, value):
        return Phrase(key="out.on" if value else "out.off")

    def doc_values(self, spec):
        return "`true`, `false`"


class _NumberKind(ValueKind):
    control = "number"
    integer = True

    def check(self, spec, value):
        _of_type(spec, value, int if self.integer else (int, float))
        if not spec.low <= value <= spec.high:    # also rejects NaN, and integers of any size
            raise InputError("out_of_range", spec.name)
        return value if self.integer else float(value) + 0.0    # + 0.0: -0.0 is read as 0 (a price of "-0")

    def from_text(self, spec, text):
        if self.integer and _TEXT_INT.match(text):
            return int(text)
        if not self.integer and _TEXT_FLOAT.match(text):
            return float(text)
        return text

    def from_form(self, spec, raw):
        if spec.nullable and (raw is None or (isinstance(raw, str) and not raw.strip())):
            return None                          # an empty optional field: not given
        return parse_number(raw)

    def cms_field(self, spec):
        return {"widget": "number", "value_type": self.name, "min": spec.low, "max": spec.high}

    def describe(self, spec, value):
        return Phrase(number=value, integer=self.integer)

    def bounds(self, spec):
        return spec.low, spec.high, self.integer

    def doc_values(self, spec):
        unit = f" {spec.unit.replace('_', '-')}" if spec.unit else ""
        lo, hi = (f"{spec.low:,}", f"{spec.high:,}") if self.integer else (plain_number(spec.low), plain_number(spec.high))
        return f"{lo} – {hi}{unit}"


def plain_number(x: float) -> str:
    """A limit or a value as a reader writes it (the key table, the form's range hints, the messages): whole numbers
    grouped by thousands ("4,194,304"), fractions with the decimals they need, up to six ("0.05"); never in exponent
    form ("4.1943e+06"). The inverse of ``parse_number`` for every number it prints."""
    return f"{int(x):,}" if float(x) == int(x) else f"{x:,.6f}".rstrip("0").rstrip(".")


class IntKind(_NumberKind):
    name = "int"

    def from_form(self, spec, raw):
        """A whole number; for a workload count (a data set's tokens or examples, a key outside the setup) also as
        readers write one: "5e7", "50M", "1.5B", "200k" (a value that comes out whole). A sequence length's "4k"
        stays an error: it could mean 4,000 or 4,096."""
        value = super().from_form(spec, raw)
        if spec.setup or spec.unit not in ("tokens", "examples"):
            return value
        if isinstance(value, float) and value.is_integer():
            return int(value)
        if isinstance(value, str):
            m = _SCALED.match(_read_commas(value.strip().translate(_DIGITS)) or "")
            if m:
                scaled = Fraction(m.group(1)) * _SCALES[m.group(2).lower()]
                if scaled.denominator == 1:
                    return int(scaled)
        return value

    def cli_argument(self, spec, help_text):
        return {"type": _cli_int, "metavar": (spec.unit or "N").upper(), "help": help_text}


def _cli_int(text: str) -> int:
    """An integer flag: any number of digits (a long one is read as ±10^40, so the API says ``out_of_range``)."""
    if not _INTEGER.match(text.strip()):
        raise ValueError(text)      # argparse says "invalid int value"
    return whole_number(text.strip())


_cli_int.__name__ = "int"          # argparse names the type in its message: "invalid int value"


class FloatKind(_NumberKind):
    name = "float"
    integer = False

    def cli_argument(self, spec, help_text):
        return {"type": float, "metavar": "X", "help": help_text}


class EnumKind(ValueKind):
    name = "enum"
    control = "select"

    def check(self, spec, value):
        if _of_type(spec, value, str) not in spec.choices:
            raise InputError("unknown_value", spec.name)
        return dict(spec.aliases).get(value, value)

    def request_value(self, spec, value):
        return value.value

    def check_typed(self, spec, value):
        if value not in spec.choices:                      # the setup holds a member of its Enum (models.py)
            raise InputError("unknown_value", spec.name)   # an Enum member the key does not take (lora_dtype mixed)

    def from_text(self, spec, text):
        return text

    def cli_argument(self, spec, help_text):
        return {"choices": spec.choices, "help": help_text}

    def cms_field(self, spec):
        return {"widget": "select", "options": list(spec.choices)}

    def describe(self, spec, value):
        return Phrase(key=f"options.{spec.name}.{value}")

    def doc_values(self, spec):
        return ", ".join(f"`{c}`" for c in spec.choices)

    def options(self, spec):
        aliases = {a for a, _b in spec.aliases}
        return [Option(v, Phrase(key=f"options.{spec.name}.{v}")) for v in spec.choices if v not in aliases]


def _choice_list(spec: InputSpec, value: Any) -> list[str]:
    """A list of choices (one string is a list of one)."""
    items = _of_type(spec, [value] if isinstance(value, str) else value, list)
    if len(items) > MAX_LIST:
        raise InputError("too_large", spec.name)
    for item in items:
        if _of_type(spec, item, str) not in spec.choices:
            raise InputError("unknown_value", spec.name)
    return items


def _comma_list(text: str) -> str | list[str]:
    t = text.strip()
    return t if t == "all-linear" else [x.strip() for x in t.split(",") if x.strip()]


class _TextKind(ValueKind):
    """A kind written as its own text (an id, a list written as a string) in markers, front matter and the CMS."""

    def from_text(self, spec, text):
        return text

    def cms_field(self, spec):
        return {"widget": "string"}


class ModulesKind(_TextKind):
    """LoRA target modules: a list of module names, or ``all-linear`` (PEFT: every linear layer but lm_head)."""

    name = "modules"
    control = "modules"

    def check(self, spec, value):
        seen = [m for item in _choice_list(spec, value) for m in (ALL_LINEAR if item == "all-linear" else (item,))]
        if not seen:
            raise InputError("out_of_range", spec.name)
        return tuple(m for m in LORA_MODULES if m in seen)

    def request_value(self, spec, value):
        return "all-linear" if value == ALL_LINEAR else list(value)

    def from_text(self, spec, text):
        return text if text == "all-linear" else text.split(",")

    def cli_argument(self, spec, help_text):
        return {"metavar": "M1,M2", "type": _comma_list,
                "help": f"comma-separated, from {', '.join(spec.choices)}; " + help_text}

    def describe(self, spec, value):
        return Phrase(items=tuple(self.check(spec, value)))

    def options(self, spec):
        return [Option(m, Phrase(text=m)) for m in spec.choices if m != "all-linear"]


class IncludeKind(_TextKind):
    """Which parts of the answer to compute beyond the estimate."""

    name = "include"

    def check(self, spec, value):
        return tuple(_choice_list(spec, value))

    def cli_argument(self, spec, help_text):
        return {"metavar": "PART", "help": help_text}

    def describe(self, spec, value):
        return Phrase(items=tuple(self.check(spec, value)))


class GpuKind(_TextKind):
    """A GPU id of ``gpus`` (the catalogue's cards by id, given when the kind is made), or null: no card."""

    name = "gpu"
    control = "select"

    def __init__(self, gpus: Mapping[str, Any]) -> None:
        self.gpus = gpus

    def check(self, spec, value):
        if value is None:
            return None
        if _of_type(spec, value, str) not in self.gpus:
            raise InputError("unknown_gpu", spec.name)
        return value

    def cli_argument(self, spec, help_text):
        return {"metavar": "ID", "help": help_text}

    def describe(self, spec, value):
        return Phrase(text=self.gpus[value].name) if value else Phrase(key="out.none_fits")

    def options(self, spec):
        return [Option(g.id, Phrase(text=g.name), Phrase(key=f"options.gpu_class.{g.klass}"))
                for g in self.gpus.values()]


class ModelKind(_TextKind):
    """A model id of ``models`` (the catalogue's, by id), or a Hugging Face ``config.json`` object, read by ``read``
    (the config reader, ``configs.parse_model``); ``write`` is its inverse (``configs.model_json``). All three are
    given when the kind is made, so this module stays below the catalogue and the reader."""

    name = "model"
    control = "select"
    ltr_options = True

    def __init__(self, models: Mapping[str, ModelArch], read: Callable[[Any], ModelArch],
                 write: Callable[[ModelArch], dict[str, Any]]) -> None:
        self.models, self.read, self.write = models, read, write
        #: Architectures already checked, by identity (hashing a ModelArch costs more than the rest of a setup's
        #: check); each is kept alive here, so its id names it while it is remembered.
        self._checked: dict[int, ModelArch] = {}
        self._check_arch = lru_cache(maxsize=4096)(self._arch_as_read)

    def check(self, spec, value):
        return self.read(value)

    def check_typed(self, spec, value):
        if self._checked.get(id(value)) is not value:
            self._check_arch(value)            # a ModelArch: the setup's own check (models.py)
            if len(self._checked) >= 4096:
                self._checked.clear()
            self._checked[id(value)] = value

    def _arch_as_read(self, model: ModelArch) -> None:
        """An architecture as a config of its fields would be read: a hand-made ModelArch with a negative width,
        heads that do not divide it or more experts per token than experts is refused as that pasted config would
        be."""
        try:
            self.read(self.write(model))
        except InputError:
            raise
        except Exception:  # noqa: BLE001 - a field of a kind the config reader does not expect
            raise InputError("wrong_type", "model") from None

    def cli_argument(self, spec, help_text):
        return {"metavar": "ID", "help": help_text}

    def describe(self, spec, value):
        if isinstance(value, str) and value in self.models:
            return Phrase(text=self.models[value].name)
        return Phrase(key="out.custom_model")

    def options(self, spec):
        return [Option(m.id, Phrase(text=m.name), Phrase(text=m.family)) for m in self.models.values()]
