"""The estimator's "Run it" section and its reading of pasted training configs: the setup as each framework's files
(one tab per target, the files with their comments in the reader's language, what the target cannot express and
the estimate the files reach), and a pasted TRL / Axolotl / LLaMA-Factory / Unsloth config (with its accelerate
YAML or DeepSpeed JSON) read back into the form.

The exporters (``calculator.export``) are the page's second load: the first wheel leaves them out, so this module
imports them only inside the functions that need them, which run after the worker has loaded the second wheel (and
at build time for the articles' config markers). The markup of the section's shell is here too, because the build
writes it with the widget before any script runs.
"""
from __future__ import annotations

from typing import Any

from .. import api
from ..errors import InputError
from ..inputs import BY_NAME
from .messages import message_for
from .pieces import describe_assumptions, names_html, phrase_html, verdict_html
from .text import Html, Strings, el, filled, fmt_bytes, join, ltr, plain_text

__all__ = ["TARGET_NAMES", "comment_table", "file_summary", "run_section", "import_box", "render_exports",
           "read_paste", "check_imported", "target_exports", "config_block"]

#: The export targets' names (proper nouns, the same in every language), in the order of calculator.export.TARGETS.
TARGET_NAMES = {"trl": "TRL", "axolotl": "Axolotl", "llamafactory": "LLaMA-Factory", "unsloth": "Unsloth"}
#: Keys a pasted config may not set beside the form (what the answer is asked for, not the setup).
_NOT_IMPORTED = frozenset({"include", "gpu", "model"})


def _export() -> Any:
    """The exporters: the second wheel in the page, loaded by the worker before it calls this module."""
    from .. import export
    return export


def comment_table(s: Strings) -> dict[str, str]:
    """The words of every comment the exported files carry, in the reader's language (``run.comments``)."""
    return {code: s.get(f"run.comments.{code}") for code in _export().COMMENT_CODES}


def file_summary(s: Strings, result: dict[str, Any]) -> dict[str, Any]:
    """What a file's header says about its estimate (an API result for the request the files realise), in the
    reader's words: model, method, peak per GPU, the statistic, card and count."""
    i = result["inputs"]
    method = s.get(f"options.method.{i['method']}") + (" + DPO" if i["dpo"] else "")
    gpu = result["gpu"]["name"] if "gpu" in result else s.get("run.any_gpu")
    return {"model": result["model"]["name"], "method": method, "peak": fmt_bytes(result["peak_bytes_per_gpu"])[0],
            "statistic": s.get("run.statistic"), "count": i["num_gpus"], "gpu": gpu}


def target_exports(s: Strings, request: dict[str, Any]) -> list[tuple[str, Any, dict[str, Any] | None,
                                                                       InputError | None]]:
    """Per target: (target, its Export or None, the API result of the request its files realise, the refusal). The
    files' comments and header are in the reader's language."""
    export = _export()
    words = comment_table(s)
    out = []
    for target in export.TARGETS:
        reached: dict[str, Any] = {}

        def summary(adjusted: dict[str, Any], reached: dict[str, Any] = reached) -> dict[str, Any] | None:
            answer = api.answer({**adjusted, "include": []})
            if not answer["ok"]:
                return None
            reached.update(answer["result"])
            return file_summary(s, answer["result"])

        try:
            e = export.export(request, target, summary=summary, text=words)
        except InputError as err:
            out.append((target, None, None, err))
            continue
        out.append((target, e, reached or None, None))
    return out


# ---------------------------------------------------------------------------------------------------------------
# The section's shell (written by the build) and the tabs (rendered on demand)
# ---------------------------------------------------------------------------------------------------------------
def run_section(s: Strings, wid: str) -> Html:
    """The "Run it" section under the estimator's results: a disclosure button, and a body that the page fills with
    ``render_exports`` once the exporters are loaded (its status line says so while they load, or why they did not)."""
    body_id = f"{wid}-run-body"
    return el("section", {"class": "calc-run", "data-calc-run": True, "aria-labelledby": f"{wid}-run-title"},
              el("h3", {"class": "calc-run__title", "id": f"{wid}-run-title"},
                 el("button", {"type": "button", "class": "calc-run__toggle", "data-calc-run-toggle": True,
                               "aria-expanded": "false", "aria-controls": body_id},
                    s.get("run.title"))),
              el("p", {"class": "calc-run__intro"}, s.get("run.intro")),
              el("div", {"class": "calc-run__body", "id": body_id, "data-calc-run-body": True, "hidden": True},
                 el("p", {"class": "calc-run__status", "data-calc-run-status": True, "role": "status",
                          "aria-live": "polite"}),
                 el("p", {"class": "calc__stale", "data-calc-run-stale": True, "hidden": True}, s.get("run.stale")),
                 el("div", {"class": "calc-run__fragment", "data-calc-run-fragment": True})))


def _value(s: Strings, key: str, value: Any) -> Html:
    """A request value as the form says it (an option's label, on/off, a number)."""
    spec = BY_NAME[key]
    return phrase_html(s, spec.value_kind.describe(spec, value))


def _label(s: Strings, key: str) -> Any:
    return s.get(f"fields.{key}.label", "") or ltr(key)


def _cannot(s: Strings, target: str, e: Any) -> Html:
    name = TARGET_NAMES[target]
    if not e.cannot_express:
        return el("p", {"class": "calc-note", "data-calc-cannot": "none"},
                  filled(s.get("run.cannot_none"), {"framework": name}))
    items = []
    for c in e.cannot_express:
        todo = s.get(f"run.todo.{c.what_to_do}") if c.what_to_do != "none" else ""
        items.append(el("li", {"data-key": c.key, "data-reason": c.reason},
                        el("span", {"class": "calc-run__key"}, _label(s, c.key)), s.get("out.colon"),
                        filled(s.get("run.cannot_item"), {"value": _value(s, c.key, c.value),
                                                          "becomes": _value(s, c.key, c.becomes)}),
                        " ", s.get(f"run.reasons.{c.reason}"), " " if todo else "", todo))
    return el("div", {"class": "calc-run__cannot", "data-calc-cannot": "list"},
              el("p", {"class": "calc-subtitle"}, filled(s.get("run.cannot_title"), {"framework": name})),
              el("ul", {"class": "calc-plain"}, items))


def _validated(s: Strings, e: Any) -> Html:
    """The line naming the framework versions an export was validated against, each package with its version its
    own run (the Run-it tab and an article's ready files say it alike)."""
    stack = names_html(s, (f"{package} {version}" for package, version in e.stack.items()))
    return el("p", {"class": "calc-run__stack"}, filled(s.get("run.validated"), {"stack": stack}))


def _estimate(s: Strings, reached: dict[str, Any] | None, form: dict[str, Any]) -> Html:
    """The estimate the files reach, beside the form's when the framework runs the setup differently."""
    if reached is None:
        return join()
    peak = reached["peak_bytes_per_gpu"]
    fw = reached["framework"]
    values: dict[str, Any] = {"peak": fmt_bytes(peak)[0],
                              "framework": ltr(f"{TARGET_NAMES.get(fw['id'], fw['id'])} {fw['version']}")}
    verdict = join(" ", verdict_html(s, reached["gpu"]["verdict"])) if "gpu" in reached else join()
    if peak == form["peak_bytes_per_gpu"]:
        return el("p", {"class": "calc-run__estimate", "data-calc-reached": peak, "data-framework": fw["id"]},
                  filled(s.get("run.estimate_same"), values), verdict)
    values["form_peak"] = fmt_bytes(form["peak_bytes_per_gpu"])[0]
    return el("p", {"class": "calc-run__estimate", "data-calc-reached": peak, "data-framework": fw["id"],
                    "data-differs": True},
              filled(s.get("run.estimate_differs"), values), verdict)


def _file(s: Strings, wid: str, target: str, name: str, text: str) -> Html:
    fid = f"{wid}-run-{target}-{name.replace('.', '-')}"
    return el("figure", {"class": "calc-file", "data-calc-file": name},
              el("figcaption", {"class": "calc-file__head"},
                 ltr(el("code", {"class": "calc-file__name", "id": f"{fid}-name"}, name)),
                 el("span", {"class": "calc-file__actions"},
                    el("button", {"type": "button", "class": "calc-button", "data-calc-copy": fid,
                                  "aria-label": plain_text(filled(s.get("run.copy_label"), {"file": name}))},
                       s.get("run.copy")),
                    el("button", {"type": "button", "class": "calc-button", "data-calc-download": fid,
                                  "data-file": name,
                                  "aria-label": plain_text(filled(s.get("run.download_label"), {"file": name}))},
                       s.get("run.download")))),
              el("pre", {"class": "calc-file__text", "id": fid, "dir": "ltr", "tabindex": "0",
                         "aria-labelledby": f"{fid}-name"}, el("code", {}, text)))


def render_exports(s: Strings, wid: str, request: dict[str, Any]) -> Html:
    """The tabs: one per target, each with the estimate its files reach, what it cannot express and its files.
    The first tab is selected (the page keeps the reader's choice when it redraws)."""
    form = api.answer({**request, "include": []})
    if not form["ok"]:
        raise InputError(form["error"]["code"], form["error"]["field"])
    shown = target_exports(s, request)
    tabs, panels = [], []
    for i, (target, e, reached, refused) in enumerate(shown):
        tab_id, panel_id = f"{wid}-run-tab-{target}", f"{wid}-run-panel-{target}"
        name = TARGET_NAMES[target]
        tabs.append(el("button", {"type": "button", "role": "tab", "class": "calc-tab", "id": tab_id,
                                  "aria-controls": panel_id, "aria-selected": "true" if i == 0 else "false",
                                  "tabindex": "0" if i == 0 else "-1", "data-calc-tab": target},
                       ltr(name)))
        if refused is not None:
            content = el("p", {"class": "calc-note", "data-calc-refused": refused.code},
                         filled(s.get("run.refused"), {"framework": name}), " ",
                         message_for(s, refused.code, refused.field))
        else:
            content = join(
                _validated(s, e),
                _estimate(s, reached, form["result"]),
                _cannot(s, target, e),
                [_file(s, wid, target, name_, text) for name_, text in e.files.items()])
        panels.append(el("div", {"class": "calc-tabpanel", "role": "tabpanel", "id": panel_id,
                                 "aria-labelledby": tab_id, "tabindex": "0", "data-calc-tabpanel": target,
                                 "hidden": i != 0}, content))
    return el("div", {"class": "calc-run__tabs"},
              el("div", {"class": "calc-tabs", "role": "tablist", "aria-label": s.get("run.tabs_label")}, tabs),
              panels)


def config_block(s: Strings, cid: str, request: dict[str, Any], target: str) -> Html:
    """An article's worked example as the target's ready files (``<!-- calc:config target=… -->``, written at build
    time): a disclosure naming the framework and the files, then the estimate the files reach, what the target cannot
    express and each file, with the comments in the page's language. InputError when the estimator (and so the
    exporter) refuses the setup."""
    form = api.answer({**request, "include": []})
    if not form["ok"]:
        raise InputError(form["error"]["code"], form["error"]["field"])
    shown = {t: (e, reached, refused) for t, e, reached, refused in target_exports(s, request)}
    e, reached, refused = shown[target]
    if refused is not None:
        raise refused
    name = TARGET_NAMES[target]
    return el("details", {"class": "calc-config", "id": cid, "data-calc-config": target},
              el("summary", {}, filled(s.get("run.config_summary"), {"framework": name, "files": names_html(s, e.files)})),
              _validated(s, e),
              _estimate(s, reached, form["result"]),
              _cannot(s, target, e),
              [el("figure", {"class": "calc-file", "data-calc-file": file},
                  el("figcaption", {"class": "calc-file__head"},
                     ltr(el("code", {"class": "calc-file__name", "id": f"{cid}-{file.replace('.', '-')}"}, file))),
                  el("pre", {"class": "calc-file__text", "dir": "ltr", "tabindex": "0",
                             "aria-labelledby": f"{cid}-{file.replace('.', '-')}"}, el("code", {}, text)))
               for file, text in e.files.items()])


# ---------------------------------------------------------------------------------------------------------------
# Reading a pasted training config into the form
# ---------------------------------------------------------------------------------------------------------------
#: The paste boxes of the import, each read as one file: the training file, and the companions it may name.
PASTE_FILES = (("main", "config.yaml"), ("accelerate", "accelerate.yaml"), ("deepspeed", "ds_config.json"))


def import_box(s: Strings, wid: str) -> Html:
    """The paste boxes for a training config and its companions, the button that reads them, and where the result
    (what was read, what was not, or why nothing was) is said."""
    def box(part: str, rows: int) -> Html:
        fid = f"{wid}-import-{part}"
        return el("div", {"class": "calc-field", "data-calc-wrap": f"import.{part}"},
                  el("label", {"class": "calc-field__label", "for": fid}, s.get(f"run.import.{part}_label")),
                  el("textarea", {"class": "calc-field__input calc-field__textarea", "id": fid, "rows": rows,
                                  "dir": "ltr", "spellcheck": "false", "autocomplete": "off",
                                  "data-calc-import": part, "aria-describedby": f"{wid}-import-help"}))
    return el("details", {"class": "calc-import", "data-calc-import-box": True},
              el("summary", {}, s.get("run.import.title")),
              el("p", {"class": "calc-field__help", "id": f"{wid}-import-help"}, s.get("run.import.help")),
              box("main", 8), el("div", {"class": "calc-grid"}, box("accelerate", 4), box("deepspeed", 4)),
              el("p", {"class": "calc-import__actions"},
                 el("button", {"type": "button", "class": "calc-button", "data-calc-import-read": True},
                    s.get("run.import.read"))),
              el("p", {"class": "calc-field__error", "id": f"{wid}-import-error", "data-calc-import-error": True,
                       "role": "alert", "hidden": True}),
              el("div", {"class": "calc-import__result", "data-calc-import-result": True, "role": "status"}))


def _read_error(s: Strings, e: dict[str, Any]) -> Html:
    where = e.get("field")
    return join(ltr(el("code", {}, e["file"])) if e.get("file") else "", s.get("out.colon") if e.get("file") else "",
                s.get(f"run.errors.{e['code']}", "") or s.get(f"errors.{e['code']}", "")
                or s.get("errors.internal_error"),
                join(" (", ltr(el("code", {}, where)), ")") if where else "")


def _unread(s: Strings, unread: list[dict[str, Any]]) -> Html:
    if not unread:
        return join()
    items = [el("li", {"data-key": u["key"], "data-code": u["code"]},
                ltr(el("code", {}, u["key"])), s.get("out.colon"), s.get(f"run.unread.{u['code']}"))
             for u in unread]
    return el("div", {"class": "calc-import__unread", "data-calc-unread": len(unread)},
              el("p", {"class": "calc-subtitle"}, filled(s.get("run.import.unread_title"), {"n": len(unread)})),
              el("ul", {"class": "calc-plain"}, items))


def _imported_note(s: Strings, imported: dict[str, Any]) -> Html:
    if not imported:
        return join()
    return el("div", {"class": "calc-import__extra", "data-calc-imported": True},
              el("p", {}, s.get("run.import.extra"), s.get("out.colon"), describe_assumptions(s, imported), "."),
              el("p", {}, el("button", {"type": "button", "class": "calc-button", "data-calc-import-forget": True},
                             s.get("run.import.forget"))))


def read_paste(s: Strings, fields: tuple[str, ...], pasted: dict[str, Any]) -> dict[str, Any]:
    """The boxes' texts (``PASTE_FILES`` parts; empty ones left out) read into the form: ``state`` (the keys the
    form has controls for, the model when the file names a catalogue one), ``imported`` (the other request keys the
    file sets, kept beside the form), and the note saying what was and was not read; or the errors, each with its
    message, and what was not read."""
    export = _export()
    files = {name: pasted[part] for part, name in PASTE_FILES
             if isinstance(pasted.get(part), str) and pasted[part].strip()}
    if "main" not in {part for part, _ in PASTE_FILES if isinstance(pasted.get(part), str)
                      and pasted[part].strip()}:
        return _refused([{"code": "missing_field", "field": "import.main",
                          "message": str(s.get("run.import.empty"))}], "")
    answer = export.answer_read({"target": "auto", "files": files})
    if not answer["ok"]:
        return _refused([{"code": e["code"], "field": "import.main",
                          "message": str(_read_error(s, e))} for e in answer["errors"]],
                        _unread(s, answer.get("unread", [])))
    got = answer["read"]
    request = got["request"]
    state = {k: v for k, v in request.items() if k in fields and k != "model"}
    if request.get("model") is not None:
        state["model"] = request["model"]
    # the file's values the estimator would not fill by itself (it fills a key the request leaves out with the
    # request's framework's value, api.framework_defaults)
    filled_in = api.framework_defaults(request.get("framework", "none"), request)
    imported = {k: v for k, v in request.items()
                if k not in fields and k not in _NOT_IMPORTED and v != filled_in.get(k)}
    note = el("p", {"class": "calc-import__done"},
              filled(s.get("run.import.done"), {"framework": TARGET_NAMES[got["target"]]}),
              "" if "model" in state else join(" ", s.get("run.import.model_kept")))
    return {"ok": True, "state": state, "imported": imported, "target": got["target"],
            "html": join(note, _imported_note(s, imported), _unread(s, got["unread"]))}


def _refused(errors: list[dict[str, Any]], html: str) -> dict[str, Any]:
    """A paste that is not read: its errors, the box's line of them (``errors_html``: each message in a span that
    carries its code, which calc.js shows under the box) and what was not read (``html``)."""
    line = join(*(el("span", {"data-code": e["code"]}, Html(e["message"]), " ") for e in errors))
    return {"ok": False, "errors": errors, "errors_html": str(line), "html": html}


def check_imported(fields: tuple[str, ...], imported: Any) -> str | None:
    """None when ``imported`` (from the page, or a link) holds only request keys a pasted config may set beside the
    form; else the first key that it may not hold."""
    if not isinstance(imported, dict):
        return ""
    for key in imported:
        if key not in BY_NAME or key in fields or key in _NOT_IMPORTED:
            return str(key)[:100]
    return None

