"""Calculator widgets: markers in the Markdown become widgets; the Python runtime is bundled into the site.

Markers (the same in both languages; anything else that starts with ``<!-- calc`` fails the build)::

    <!-- calc:estimator -->                                  the full estimator (any input key may be preset)
    <!-- calc:estimator model=llama-2-7b method=full -->
    <!-- calc:compare model=llama-3.1-8b -->                 full vs LoRA vs QLoRA (and + DPO), stacked bars
    <!-- calc:fits gpu=rtx-4090 -->                          which catalogue models fit one card, per method
    <!-- calc:seqlen model=llama-3.1-8b method=qlora -->     peak memory against sequence length
    <!-- calc:table needs-by-size method=full -->            static article tables (also ``gpu-classes``)

Every widget is rendered by ``overrides/partials/calc/widget.html`` (a standalone, autoescaping Jinja environment)
with the result for its default inputs computed NOW by ``calculator.api.estimate`` -- the same function the page
calls later through Pyodide -- so the figures are there before the runtime starts, and without JavaScript.
An attribute that the estimator rejects (unknown model, out of range, ...) fails the build with its error code.
Widgets enter the page in ``on_post_page``, after the search plugin has indexed it (their labels and default
figures are not article text); the static tables enter in ``on_page_content`` and are searchable. A page with
widgets also gets ``partials/calc/head.html`` in its <head>: the runtime config and the widgets' module.
Widget ids are ``calc-<kind>-<n>`` (n counts that kind in page order): the keys of the URL state.

The runtime: Pyodide's core files are copied from ``node_modules/pyodide`` (pinned in package.json) to
``assets/pyodide/<version>/`` (with the two literal edits of PYODIDE_PATCHES, so no other host's address is left); the ``calculator`` package is packed into a py3-none-any wheel by a small zipfile
writer below, cached on a hash of ``calculator/*``, and published under ``assets/calc/wheel/<hash>/``. The page loads
it with ``pyodide.loadPackage`` (no micropip, nothing from another host). See docs/assets/calc/ for the page side.

The i18n plugin builds the site once per language into the same site_dir, so every step here is idempotent and
the expensive ones (estimates, the wheel) are cached across the two builds.
"""
from __future__ import annotations

import functools
import json
import re
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path
from typing import Any

import jinja2
from markupsafe import Markup, escape
from mkdocs.exceptions import PluginError
from mkdocs.utils import get_relative_url

from calculator import api
from sitebuild import runtime, wheel
from sitebuild.strings import LANGUAGES, STRINGS_DIR, load_strings

ROOT = Path(__file__).resolve().parents[1]
TEMPLATES_DIR = ROOT / "overrides"

# ---------------------------------------------------------------------------------------------------------------
# What each widget reads from the reader (its fields, in the API's own keys) and its defaults
# ---------------------------------------------------------------------------------------------------------------
DEFAULT_MODEL = "llama-3.1-8b"
DEFAULT_GPU = "rtx-4090"
ESTIMATOR_FIELDS = (
    "model", "method", "dpo", "precision", "optimizer", "lora_rank", "lora_targets", "lora_dtype",
    "micro_batch_size", "seq_len", "grad_accum_steps", "gradient_checkpointing", "attention",
    "chunked_cross_entropy", "torch_compile", "fused_linear_cross_entropy", "activation_offloading",
    "optimizer_in_backward", "packing", "num_gpus", "sharding", "cpu_offload", "gpu",
)
# The compact widgets train with gradient checkpointing on by default: without it nothing but tiny models fits a
# 24 GB card, and that is what every QLoRA recipe does.
KIND_DEFAULTS: dict[str, dict[str, Any]] = {
    "estimator": {"model": DEFAULT_MODEL, "gpu": DEFAULT_GPU},
    "compare": {"model": DEFAULT_MODEL, "seq_len": 2048, "micro_batch_size": 1, "gradient_checkpointing": True,
                "gpu": DEFAULT_GPU},
    "fits": {"gpu": DEFAULT_GPU, "seq_len": 2048, "micro_batch_size": 1, "gradient_checkpointing": True},
    "seqlen": {"model": DEFAULT_MODEL, "method": "qlora", "micro_batch_size": 1, "gradient_checkpointing": True,
               "gpu": DEFAULT_GPU},
}
KIND_FIELDS: dict[str, tuple[str, ...]] = {
    "estimator": ESTIMATOR_FIELDS,
    "compare": ("model", "seq_len", "micro_batch_size", "gradient_checkpointing", "gpu"),
    "fits": ("gpu", "seq_len", "micro_batch_size", "gradient_checkpointing"),
    "seqlen": ("model", "method", "micro_batch_size", "gradient_checkpointing", "gpu"),
}
# Marker attributes each widget accepts: its fields (values as in the API), nothing else.
KIND_ATTRS: dict[str, frozenset[str]] = {kind: frozenset(fields) for kind, fields in KIND_FIELDS.items()}
COMPARE_VARIANTS = (("full", False), ("lora", False), ("qlora", False),
                    ("full", True), ("lora", True), ("qlora", True))
METHODS = ("full", "lora", "qlora")
SEQLEN_POINTS = (512, 1024, 2048, 4096, 8192, 16384, 32768)

# Static article tables: the models standing for each size class, and the guide's claims per GPU class.
TABLE_SIZES = (("7B", "llama-2-7b"), ("13B", "llama-2-13b"), ("34B", "qwen2.5-32b"), ("70B", "llama-2-70b"))
TABLE_CARD = "h100-80gb"                 # the guide's "80 GB" node card (A100 80GB has slightly more memory)
TABLE_COUNTS = (1, 2, 4, 8)              # several cards are sharded with ZeRO-3 / FSDP full shard
# Pure bf16 with fused AdamW (torchtune's full fine-tuning recipes), checkpointing on: the setting under which the
# guide's "13B on 2 x 80 GB, 34B on 4 x 80 GB, 70B on 8 x 80 GB" holds (tests/unit/test_source_claims.py).
TABLE_ASSUMPTIONS: dict[str, Any] = {
    "precision": "bf16", "optimizer": "adamw_torch_fused", "lora_rank": 16, "lora_targets": "all-linear",
    "seq_len": 2048, "micro_batch_size": 1, "grad_accum_steps": 1, "gradient_checkpointing": True,
    "attention": "sdpa",
}
# The guide's recommendations per GPU class, each checked on one card of that class. A claim that needs a setting
# beyond TABLE_ASSUMPTIONS names it (``extra``), and the table shows it.
TABLE_CLASSES = (
    ("24 GB", "rtx-4090", (("qlora", "7B", {}), ("qlora", "13B", {}))),
    ("48 GB", "l40s", (("full", "7B", {"optimizer": "adamw_8bit"}), ("qlora", "13B", {}), ("qlora", "34B", {}))),
    ("80 GB", "h100-80gb", (("qlora", "70B", {}), ("full", "13B", {"optimizer": "adamw_8bit"}))),
)
TABLES = {"needs-by-size": frozenset({"method"}), "gpu-classes": frozenset()}

# ---------------------------------------------------------------------------------------------------------------
# Markers
# ---------------------------------------------------------------------------------------------------------------
_COMMENT = r"<!--\s*calc:(?P<body>.*?)-->"
_MARKER = re.compile(rf"<p>\s*{_COMMENT}\s*</p>|{_COMMENT.replace('body', 'body2')}", re.S)
_LOOSE = re.compile(r"<!--\s*calc\b", re.I)
_TOKEN = re.compile(r"^(?P<key>[a-z_][a-z0-9_.]*)=(?P<value>[A-Za-z0-9_.,+-]+)$")
_INT = re.compile(r"^-?[0-9]+$")


def _coerce(key: str, value: str) -> Any:
    if value in ("true", "false"):
        return value == "true"
    if _INT.match(value):
        return int(value)
    if key == "lora_targets" and value != "all-linear":
        return value.split(",")
    return value


def parse_marker(body: str, where: str) -> tuple[str, str | None, dict[str, Any]]:
    """``estimator model=x method=y`` -> ("estimator", None, {...}); ``table needs-by-size`` -> ("table", name, {})."""
    parts = body.split()
    if not parts:
        raise PluginError(f"{where}: empty calculator marker <!-- calc: -->")
    kind, rest = parts[0], parts[1:]
    name = None
    if kind == "table":
        if not rest or rest[0] not in TABLES:
            raise PluginError(f"{where}: <!-- calc:table --> needs one of {sorted(TABLES)}, got {rest[:1]}")
        name, rest = rest[0], rest[1:]
        allowed = TABLES[name]
    elif kind in KIND_ATTRS:
        allowed = KIND_ATTRS[kind]
    else:
        raise PluginError(f"{where}: unknown calculator marker 'calc:{kind}' "
                          f"(known: {', '.join([*KIND_ATTRS, 'table'])})")
    attrs: dict[str, Any] = {}
    for token in rest:
        m = _TOKEN.match(token)
        if not m:
            raise PluginError(f"{where}: malformed attribute {token!r} in 'calc:{kind}' (write key=value)")
        key = m["key"]
        if key not in allowed:
            raise PluginError(f"{where}: unknown attribute {key!r} for 'calc:{kind}' "
                              f"(allowed: {', '.join(sorted(allowed)) or 'none'})")
        if key in attrs:
            raise PluginError(f"{where}: attribute {key!r} given twice in 'calc:{kind}'")
        attrs[key] = _coerce(key, m["value"])
    return kind, name, attrs


# ---------------------------------------------------------------------------------------------------------------
# The estimator, called at build time (cached: both language builds ask the same questions)
# ---------------------------------------------------------------------------------------------------------------
@functools.lru_cache(maxsize=4096)
def _estimate_text(text: str) -> str:
    return api.estimate(text)


def estimate(request: dict[str, Any]) -> dict[str, Any]:
    return json.loads(_estimate_text(json.dumps(request, sort_keys=True)))


def _checked(request: dict[str, Any], where: str) -> dict[str, Any]:
    out = estimate(request)
    if not out.get("ok"):
        err = out.get("error", {})
        raise PluginError(f"{where}: the estimator rejects this marker's inputs: "
                          f"{err.get('code')} (field {err.get('field')!r}); request {json.dumps(request)}")
    return out["result"]


@functools.lru_cache(maxsize=1)
def schema() -> dict[str, Any]:
    return api.schema()


def defaults_for(kind: str, attrs: dict[str, Any]) -> dict[str, Any]:
    """The widget's full state: every field it shows, in the API's own form (what the page sends)."""
    api_defaults = schema()["defaults"]
    state: dict[str, Any] = {}
    for key in KIND_FIELDS[kind]:
        value = attrs.get(key, KIND_DEFAULTS[kind].get(key, api_defaults.get(key)))
        if key == "lora_targets":  # the form shows one checkbox per module: the state is the list
            value = _targets_list(value)
        state[key] = value
    return state


def _targets_list(value: Any) -> list[str]:
    modules = [m for m in schema()["enums"]["lora_targets"] if m != "all-linear"]
    chosen = value if isinstance(value, list) else [value]
    if "all-linear" in chosen:
        chosen = [m for m in modules if m != "lm_head"] + [m for m in chosen if m == "lm_head"]
    return [m for m in modules if m in chosen]


def requests_for(kind: str, state: dict[str, Any]) -> list[dict[str, Any]]:
    """The API requests a widget sends for one state. docs/assets/calc/calc.js builds exactly the same list."""
    if kind == "estimator":
        return [dict(state)]
    if kind == "compare":
        return [{**state, "method": m, "dpo": d, "include": []} for m, d in COMPARE_VARIANTS]
    if kind == "fits":
        return [{**state, "model": model["id"], "method": m, "include": []}
                for model in schema()["models"] for m in METHODS]
    if kind == "seqlen":
        rows = [{**state, "seq_len": n, "include": []} for n in SEQLEN_POINTS]
        return [{**state, "seq_len": SEQLEN_POINTS[0], "include": ["inverse"]}, *rows]
    raise AssertionError(kind)


def plan_for(kind: str) -> dict[str, Any]:
    """What calc.js needs to expand a state into requests (kept here, in one place, with ``requests_for``)."""
    if kind == "compare":
        return {"variants": [[m, d] for m, d in COMPARE_VARIANTS]}
    if kind == "fits":
        return {"models": [m["id"] for m in schema()["models"]], "methods": list(METHODS)}
    if kind == "seqlen":
        return {"seq_lens": list(SEQLEN_POINTS)}
    return {}


# ---------------------------------------------------------------------------------------------------------------
# Formatting (docs/assets/calc/calc.js formats the same way with Intl.NumberFormat("en-US"))
# ---------------------------------------------------------------------------------------------------------------
GB = 10**9
GIB = 1 << 30
MB = 10**6
MIB = 1 << 20


def fmt_number(x: float, digits: int) -> str:
    """Latin digits, en-US grouping, half away from zero on the shortest decimal form (as ICU does)."""
    d = Decimal(repr(float(x))).quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_UP)
    return f"{d:,.{digits}f}"


def fmt_int(n: int) -> str:
    return f"{int(n):,}"


def fmt_bytes(b: int) -> tuple[str, str]:
    """(decimal, binary) labels: GB and GiB with one decimal from 1 GB up, MB and MiB below."""
    if b >= GB:
        return f"{fmt_number(b / GB, 1)} GB", f"{fmt_number(b / GIB, 1)} GiB"
    return f"{fmt_number(b / MB, 0)} MB", f"{fmt_number(b / MIB, 0)} MiB"


def fmt_percent(share: float) -> str:
    return f"{fmt_number(share * 100, 2)}%"


def stack(breakdown: dict[str, int], scale: int, width: int, rtl: bool) -> list[dict[str, Any]]:
    """Rectangles of a horizontal stacked bar (presentation only: bytes to pixels), mirrored for RTL."""
    rects, x = [], 0.0
    for key, value in breakdown.items():
        if value <= 0:
            continue
        w = value / scale * width if scale else 0
        left = width - x - w if rtl else x
        rects.append({"key": key, "x": round(left, 2), "w": round(w, 2), "value": value})
        x += w
    return rects


def line_x(value: int, scale: int, width: int, rtl: bool) -> float:
    x = value / scale * width if scale else 0
    return round(width - x if rtl else x, 2)


COLUMN_STEP, COLUMN_WIDTH, COLUMN_TOP, COLUMN_BASE = 100, 64, 10, 215


def columns(values: list[int], scale: int, rtl: bool) -> list[dict[str, float]]:
    """Rectangles of a column chart, one slot of COLUMN_STEP per value, right to left in RTL."""
    out = []
    n = len(values)
    for i, value in enumerate(values):
        slot = n - 1 - i if rtl else i
        h = value / scale * (COLUMN_BASE - COLUMN_TOP) if scale else 0
        out.append({"x": slot * COLUMN_STEP + (COLUMN_STEP - COLUMN_WIDTH) / 2, "y": round(COLUMN_BASE - h, 2),
                    "w": COLUMN_WIDTH, "h": round(h, 2)})
    return out


def column_line(value: int, scale: int) -> float:
    return round(COLUMN_BASE - (value / scale * (COLUMN_BASE - COLUMN_TOP) if scale else 0), 2)


def union_breakdown(results: list[dict[str, Any]]) -> dict[str, int]:
    """Every component that is non-zero in at least one result (for a shared legend), in the API's order."""
    keys = list(results[0]["breakdown_bytes"]) if results else []
    return {k: max(r["breakdown_bytes"].get(k, 0) for r in results) for k in keys}


# ---------------------------------------------------------------------------------------------------------------
# Rendering
# ---------------------------------------------------------------------------------------------------------------
@functools.lru_cache(maxsize=1)
def _env() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(TEMPLATES_DIR)),
        autoescape=True,               # nothing reaches the HTML unescaped
        undefined=jinja2.StrictUndefined,  # a missing string fails the build
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=False,
    )
    env.filters.update(num=fmt_number, int=fmt_int, bytes=fmt_bytes, percent=fmt_percent,
                       slug=lambda key: str(key).replace(".", "-").replace("_", "-"),
                       tojson_attr=lambda value: json.dumps(value, ensure_ascii=False, sort_keys=True))
    env.globals.update(stack=stack, line_x=line_x, columns=columns, column_line=column_line,
                       union_breakdown=union_breakdown, filled=fill_bdi)
    return env


def fill_bdi(template: str, values: dict[str, Any]) -> Markup:
    """A string from the table with its {placeholders} replaced by isolated LTR runs (names, numbers), escaped.
    calc.js: filled()."""
    parts = re.split(r"\{(\w+)\}", str(template))
    out = []
    for i, part in enumerate(parts):
        if i % 2 == 0:
            out.append(str(escape(part)))
        elif part in values:
            out.append(f'<bdi dir="ltr">{escape(str(values[part]))}</bdi>')
        else:
            out.append(str(escape("{" + part + "}")))
    return Markup("".join(out))


@functools.lru_cache(maxsize=2)
def _strings(lang: str) -> dict[str, Any]:
    table = load_strings(lang)
    if "calc" not in table:
        raise PluginError(f"{STRINGS_DIR / f'{lang}.json'} has no 'calc' strings")
    return table["calc"]


def _catalog() -> dict[str, Any]:
    sch = schema()
    families: dict[str, list[dict[str, Any]]] = {}
    for m in sch["models"]:
        families.setdefault(m["family"], []).append(m)
    classes: dict[str, list[dict[str, Any]]] = {}
    for g in sch["gpus"]:
        classes.setdefault(g["klass"], []).append(g)
    return {
        "families": families,
        "gpu_classes": classes,
        "models": {m["id"]: m for m in sch["models"]},
        "gpus": {g["id"]: g for g in sch["gpus"]},
        "enums": sch["enums"],
        "lora_modules": [m for m in sch["enums"]["lora_targets"] if m != "all-linear"],
    }


def _runtime_json(wheel_rel: str, pyodide_rel: str) -> str:
    sch = schema()
    data = {
        "pyodide": pyodide_rel,
        "wheel": wheel_rel,
        "gpus": {g["id"]: {"name": g["name"], "memory_bytes": g["memory_bytes"]} for g in sch["gpus"]},
        "models": {m["id"]: {"name": m["name"], "family": m["family"]} for m in sch["models"]},
    }
    return json.dumps(data, ensure_ascii=False, sort_keys=True).replace("</", "<\\/")


def _render_widget(kind: str, attrs: dict[str, Any], *, lang: str, wid: str, first: bool, where: str) -> str:
    state = defaults_for(kind, attrs)
    results = [_checked(r, where) for r in requests_for(kind, state)]
    ctx = {
        "kind": kind, "wid": wid, "lang": lang, "rtl": lang == "ar", "first": first, "s": _strings(lang),
        "state": state, "plan": plan_for(kind), "results": results, "cat": _catalog(),
        "variants": COMPARE_VARIANTS, "methods": METHODS, "seq_points": SEQLEN_POINTS,
    }
    return _env().get_template("partials/calc/widget.html").render(**ctx)


def _render_table(name: str, attrs: dict[str, Any], *, lang: str, where: str) -> str:
    s = _strings(lang)
    cat = _catalog()
    ctx: dict[str, Any] = {"s": s, "name": name, "rtl": lang == "ar", "cat": cat,
                           "assumptions": TABLE_ASSUMPTIONS, "sizes": TABLE_SIZES, "classes": TABLE_CLASSES}
    if name == "needs-by-size":
        method = attrs.get("method", "full")
        if method not in METHODS:
            raise PluginError(f"{where}: calc:table needs-by-size method must be one of {METHODS}")
        rows = []
        for label, model in TABLE_SIZES:
            cells = []
            for n in TABLE_COUNTS:
                req = {**TABLE_ASSUMPTIONS, "model": model, "method": method, "gpu": TABLE_CARD, "num_gpus": n,
                       "sharding": "zero3" if n > 1 else "none", "include": []}
                cells.append({"n": n, "result": _checked(req, where)})
            rows.append({"label": label, "model": model, "cells": cells})
        ctx.update(method=method, rows=rows, card=TABLE_CARD, counts=TABLE_COUNTS)
    else:
        models = dict(TABLE_SIZES)
        rows = []
        for label, gpu, claims in TABLE_CLASSES:
            checks = []
            for method, size, extra in claims:
                req = {**TABLE_ASSUMPTIONS, **extra, "model": models[size], "method": method, "gpu": gpu,
                       "include": []}
                checks.append({"method": method, "size": size, "model": models[size], "extra": extra,
                               "result": _checked(req, where)})
            rows.append({"label": label, "gpu": gpu, "checks": checks})
        ctx.update(rows=rows)
    return _env().get_template("partials/calc/table.html").render(**ctx)


def check_strings() -> None:
    """Every code the estimator can answer with has its text in both languages (the page would otherwise show the
    bare code): error codes, enum values, memory components, verdicts."""
    sch = schema()
    sample = estimate({"model": DEFAULT_MODEL, "gpu": DEFAULT_GPU, "include": []})["result"]
    wanted = [f"errors.{code}" for code in sch["error_codes"]]
    wanted += [f"options.{key}.{v}" for key in ("method", "precision", "optimizer", "lora_dtype", "attention", "sharding")
               for v in sch["enums"][key]]
    wanted += [f"options.gpu_class.{g['klass']}" for g in sch["gpus"]]
    wanted += [f"components.{key}" for key in sample["breakdown_bytes"]]
    wanted += ["verdict.comfortable", "verdict.tight", "verdict.does_not_fit"]
    for lang in LANGUAGES:
        table = _strings(lang)
        for path in wanted:
            node: Any = table
            for part in path.split("."):
                node = node.get(part) if isinstance(node, dict) else None
            if not isinstance(node, str) or not node:
                raise PluginError(f"overrides/strings/{lang}.json: calc.{path} is missing")


# ---------------------------------------------------------------------------------------------------------------
# MkDocs events
# ---------------------------------------------------------------------------------------------------------------
_STATE: dict[str, Any] = {}
_HEADS: dict[tuple[str, str], str] = {}  # (language, page url) -> what partials/calc/head.html rendered
_WIDGETS: dict[tuple[str, str], dict[str, str]] = {}  # (language, page url) -> {widget id: its HTML}


def _same_estimator(digest: str) -> None:
    """``mkdocs serve`` rebuilds in one process, whose ``calculator`` was imported once: when its sources changed, the
    build-time figures would come from the old code and the wheel from the new. Say so instead of mixing them."""
    if _STATE.get("digest") not in (None, digest):
        raise PluginError("calculator/ changed while `mkdocs serve` was running: restart it (or use `make serve`)")


def on_pre_build(config):
    version = runtime.version()
    digest, wheel_path = wheel.cached_wheel()
    _same_estimator(digest)
    _STATE.update(
        digest=digest,
        pyodide_version=version,
        pyodide_rel=f"assets/pyodide/{version}/",
        wheel=wheel_path,
        wheel_rel=f"assets/calc/wheel/{digest}/{wheel_path.name}",
    )
    # A fresh estimator per build (``mkdocs serve`` rebuilds in the same process).
    _estimate_text.cache_clear()
    schema.cache_clear()
    _strings.cache_clear()
    _env.cache_clear()
    check_strings()


def on_page_content(html, page, config, files):
    lang = str(config.theme["language"])
    where = page.file.src_uri
    counter: dict[str, int] = {"interactive": 0}
    widgets: dict[str, str] = {}

    def replace(match: re.Match) -> str:
        body = match.group("body") if match.group("body") is not None else match.group("body2")
        kind, name, attrs = parse_marker(body, where)
        if kind == "table":
            return _render_table(name or "", attrs, lang=lang, where=where)
        counter["interactive"] += 1
        counter[kind] = counter.get(kind, 0) + 1
        # Ids number the widgets of each kind in page order: the same in both languages (same markers), and
        # stable for links (#calc={"calc-estimator-1": {...}}) when other widgets are added to the page.
        wid = f"calc-{kind}-{counter[kind]}"
        if counter["interactive"] == 1:
            counter["first_at"] = match.start()
        widgets[wid] = _render_widget(kind, attrs, lang=lang, wid=wid, first=counter["interactive"] == 1,
                                      where=where)
        # The widget goes in after the search plugin has indexed the page (on_post_page): its labels, options and
        # default figures are not article text. The static tables above stay searchable.
        return _slot(wid)

    out = _MARKER.sub(replace, html)
    leftover = _LOOSE.search(out)
    if leftover:
        snippet = out[leftover.start():leftover.start() + 80]
        raise PluginError(f"{where}: malformed calculator marker near {snippet!r} (write <!-- calc:kind key=value -->)")
    key = (lang, page.url)
    if counter["interactive"]:
        first_heading = html.find("<h2")
        eager = first_heading == -1 or counter["first_at"] < first_heading
        _HEADS[key] = _env().get_template("partials/calc/head.html").render(
            runtime_json=_runtime_json(_STATE["wheel_rel"], _STATE["pyodide_rel"]), eager=eager,
            calc_js=get_relative_url("assets/calc/calc.js", page.url))
        _WIDGETS[key] = widgets
    else:
        _HEADS.pop(key, None)
        _WIDGETS.pop(key, None)
    return out


def _slot(wid: str) -> str:
    return f'<div class="calc-slot" data-calc-slot="{wid}"></div>'


def on_post_page(output, page, config):
    key = (str(config.theme["language"]), page.url)
    head = _HEADS.get(key)
    if head is None:
        return output
    for wid, widget in _WIDGETS.get(key, {}).items():
        slot = _slot(wid)
        if output.count(slot) != 1:
            raise PluginError(f"{page.file.src_uri}: the place of calculator widget {wid} was lost in rendering")
        output = output.replace(slot, widget)
    at = output.find("</head>")
    if at == -1:
        raise PluginError(f"{page.file.src_uri}: no </head> to put the calculator's runtime config in")
    return output[:at] + head + output[at:]


def on_post_build(config):
    site = Path(config.site_dir)
    runtime.install(site / _STATE["pyodide_rel"])
    runtime.copy_if_changed(_STATE["wheel"], site / _STATE["wheel_rel"])
