"""The page strings: one table per language in ``calculator/strings/<lang>.json`` (the estimator's package data,
``calculator.page.text.STRING_TABLES``), read by both build plugins
(sitebuild/site_plugin.py for the site's own texts, sitebuild/plugin.py for the ``calc`` part). The page's scripts read
the few they say themselves from a JSON block in every page (``page_script_strings``); the worker fetches the whole
``calc`` part as one cached file (``strings_file``) when a widget starts: the same words at build time and live."""
from __future__ import annotations

import functools
import hashlib
import json
from typing import Any

from mkdocs.exceptions import PluginError

from calculator.page.text import STRING_TABLES

LANGUAGES = ("ar", "en")


def load_strings(lang: str) -> dict[str, Any]:
    """The whole table of ``lang``; FileNotFoundError names the missing file."""
    return json.loads((STRING_TABLES / f"{lang}.json").read_text(encoding="utf-8"))


@functools.lru_cache(maxsize=len(LANGUAGES))
def _calc(lang: str, mtime: float) -> dict[str, Any]:
    table = load_strings(lang)
    if "calc" not in table:
        raise PluginError(f"{STRING_TABLES / f'{lang}.json'} has no 'calc' strings")
    return table["calc"]


def calc_strings(lang: str) -> dict[str, Any]:
    """The ``calc`` part of a language's table (re-read when the file changes)."""
    return _calc(lang, (STRING_TABLES / f"{lang}.json").stat().st_mtime)


#: The ``calc`` strings the page's own scripts say before (or without) the runtime: calc.js's loading stages,
#: failures, notices and the few words of its own (docs/assets/calc/calc.js, ``text(...)``), and site.js's "the script
#: never ran" (status.failed, failure.script). Only these are inline in every page; the rest of the table (40 kB in
#: English, 57 kB in Arabic) is the worker's file. tests/unit/test_strings_inline.py reads both scripts for the paths.
PAGE_SCRIPT_STRINGS = ("status", "failure", "notice", "errors.internal_error", "run.failed", "run.loading",
                       "run.copied", "run.copy_failed")


def page_script_strings(calc: dict[str, Any]) -> dict[str, Any]:
    """The part of a ``calc`` table named by ``PAGE_SCRIPT_STRINGS``, nested as in the table."""
    out: dict[str, Any] = {}
    for path in PAGE_SCRIPT_STRINGS:
        *parents, leaf = path.split(".")
        src, dst = calc, out
        for part in parents:
            src, dst = src[part], dst.setdefault(part, {})
        dst[leaf] = src[leaf]
    return out


def strings_file(lang: str) -> tuple[str, bytes]:
    """The worker's copy of a language's ``calc`` strings: its path under the site root (named by its content, so a
    browser's cached copy is never stale) and its bytes."""
    data = json.dumps(calc_strings(lang), ensure_ascii=False, sort_keys=True, separators=(",", ":")).encode()
    return f"assets/calc/strings/{lang}.{hashlib.sha256(data).hexdigest()[:12]}.json", data


def required_calc_strings() -> list[str]:
    """Every string path whose text depends on a code the estimator or the widgets can produce: error codes (and the
    wrong-type message of every kind of input), enum options, form labels and help, and every entry of the
    vocabularies (calculator/vocab.py: memory components, verdicts, remedies, notes, refused times, the runtime
    stages). A new code or input without its text in both languages fails the build (and a unit test)."""
    from calculator import vocab
    from calculator.api import ERROR_CODES
    from calculator.configs import FIELD_KINDS, MODEL_FIELDS
    from calculator.errors import HUB_ERRORS
    from calculator.inputs import INPUTS, VALUE_KINDS
    from calculator.page import WIDGET_KINDS

    wanted = [f"errors.{code}" for code in ERROR_CODES if code != "wrong_type"]
    wanted += [f"errors.wrong_type.{k}" for k in (*(kind.name for kind in VALUE_KINDS.values()), "model_list", "other")]
    wanted += sorted({f"errors.wrong_type.{kind.message}" for kind in FIELD_KINDS.values()})
    wanted += [f"fields.{spec.name}.label" for spec in INPUTS if spec.name != "include"]   # assumption sentences
    for spec in INPUTS:
        # the labels and groups of its drop-down: an enum's options, the GPU classes
        wanted += [p.key for o in spec.value_kind.options(spec) for p in (o.label, o.group) if p is not None and p.key]
        if spec.control is not None:
            wanted.append(f"fields.{spec.name}.help")
    wanted += [f"title.{kind}" for kind in WIDGET_KINDS]
    wanted += [f"components.{key}" for key in vocab.COMPONENTS]
    wanted += [f"{table}.{p}" for p in vocab.PHASES for table in ("phases", "phase_at")]
    wanted += [f"verdict.{v}" for v in vocab.VERDICTS]
    wanted += [f"remedies.{r.name}" for r in vocab.REMEDIES]
    wanted += [f"units.{r.noun}.other" for r in vocab.REMEDIES if r.noun]
    wanted += [f"notes.{n}" for n in vocab.NOTES]
    wanted += [f"errors.reasons.{r}" for r in vocab.UNSUPPORTED_REASONS + vocab.CAPABILITY_REASONS
                                                 + vocab.MODEL_ID_REASONS + vocab.TARGET_REASONS]
    wanted += [f"out.adjusted.{a}" for a in vocab.ADJUSTMENTS] + [f"out.card_notes.{n}" for n in vocab.CARD_NOTES]
    wanted += [f"out.time_error.{code}" for code in vocab.TIME_ERRORS]
    wanted += [f"status.{stage}" for stage in vocab.STAGES] + ["status.downloading_bytes", "status.prerendered"]
    wanted += ["out.ignored_fields", "out.resolved", "units.tokens.other", "fields.read_as"]
    wanted += [f"options.{f.name}.{v or 'none'}" for f in MODEL_FIELDS for v in f.choices]
    wanted += [f"units.{noun}.other" for noun in ("seconds", "minutes", "hours", "days", "usd", "tokens_per_second",
                                                  "setups")]
    wanted += [f"hub.{key}" for key in ("button", "sends", "reading", "read", "read_base", "way_on")]
    wanted += [f"hub.errors.{code}" for code in HUB_ERRORS]
    wanted += run_strings()
    return wanted


def run_strings() -> list[str]:
    """The "Run it" section's strings: its own words, and one per code the exporters can produce (every comment of
    the files, every reason a target cannot express a key and what to do instead, every code of a pasted config's
    reading)."""
    from calculator import export

    wanted = [f"run.{key}" for key in (
        "title", "intro", "tabs_label", "loading", "failed", "stale", "validated", "any_gpu", "statistic",
        "estimate_same", "estimate_differs", "cannot_title", "cannot_none", "cannot_item", "refused", "copy",
        "copy_label", "copied", "copy_failed", "download", "download_label", "config_summary")]
    wanted += [f"run.import.{key}" for key in ("title", "help", "main_label", "accelerate_label", "deepspeed_label",
                                               "read", "empty", "done", "model_kept", "extra", "forget",
                                               "unread_title")]
    wanted += [f"run.comments.{code}" for code in export.COMMENT_CODES]
    wanted += [f"run.reasons.{code}" for code in export.CANNOT_REASONS]
    wanted += [f"run.todo.{code}" for code in export.WHAT_TO_DO if code != "none"]
    wanted += [f"run.unread.{code}" for code in export.UNREAD_CODES]
    wanted += [f"run.errors.{code}" for code in export.READ_ERRORS]
    return wanted


def check_calc_strings() -> None:
    from calculator.page.text import Strings

    for lang in LANGUAGES:
        s = Strings(calc_strings(lang), lang)
        missing = [path for path in required_calc_strings() if not s.has(path) or not s.get(path)]
        if missing:
            raise PluginError(f"calculator/strings/{lang}.json: missing calc strings: {', '.join(missing)}")
