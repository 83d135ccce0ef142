"""What readers see: the estimator's answers as the page's markup, in the reader's language.

One renderer for every figure a reader sees: the site build calls it on CPython to write each widget into the page
(useful before any script runs, and without JavaScript), and the page's worker calls the same functions in Pyodide
on every change (``Page.render``), so the page script only swaps the fragment it receives.

The rooms inside, each depending only on those before it: ``text`` (numbers, plurals, escaped markup) -> ``pieces``
(bytes, verdicts, bars, tables, phrases) -> ``messages`` (refusals in words) -> ``form`` (controls, the model
fieldset, reading what was typed) -> ``figures`` (inline figures of the articles) -> ``articles`` (the article
tables, inline figures and assumptions sentence, which only the build draws) -> ``kinds/*`` (one module per widget
kind) -> this module (the widget shell, the worker's entry point). Nothing here computes memory or time: it
imports the estimator's boundary only (``calculator.api``, the declarations its requests and answers are written in:
``inputs``, ``values``, ``vocab``, ``errors``, and ``hub``, which names the Hub's addresses the page may ask).

A widget's state is a dict of request keys in the API's own form (``model`` a catalogue id or a config object,
``lora_targets`` a list of modules). ``fixed`` keys come from the article (its front matter and the marker) and are
not editable in that widget; the editable ``state`` goes on top of them.
"""
from __future__ import annotations

import json
import time
from typing import Any

from .. import api, hub
from ..errors import InputError
from .form import PASTE_KEY, SOURCE_KEY, TRANSPORT_LIMITS, error_slots, form_controls, link_state, picker_options, read_form, readings
from .kinds import WIDGET_KINDS, WidgetKind
from .messages import FieldError, message_for
from .pieces import describe_assumptions
from .search import KINDS as PICKERS, entries as picker_entries, named as picker_named, search as picker_search
from .run import check_imported, read_paste, render_exports
from .text import Html, Strings, counted, el, filled, join, ltr, plain_text

__all__ = ["Page", "SLICE_MS", "WIDGET_KINDS", "WidgetKind", "render_results", "render_widget", "runtime_head"]


def render_results(s: Strings, kind: str, state: dict[str, Any], fixed: dict[str, Any] | None = None,
                   memo: dict[str, dict[str, Any]] | None = None,
                   ) -> tuple[Html | None, list[dict[str, Any]], list[FieldError]]:
    """The results fragment for a state, the API results it shows, and the API's refusals (as field errors, every
    key that fails) if the estimator rejects the state. ``memo`` (a page's, across changes) holds accepted answers
    by their request's exact text: an answer depends on its request alone."""
    keyed = _keyed(kind, state, fixed)
    if keyed is None:
        return None, [], [FieldError("gpu", "missing_field")]     # every widget gives its verdict on a card
    keys = [key for key, _ in keyed]
    memo = {} if memo is None else memo
    known = [key is not None and key in memo for key in keys]
    fresh = api.answer_each(r for (_, r), hit in zip(keyed, known) if not hit)
    results, learnt = [], {}
    for key, hit in zip(keys, known):
        out = memo[key] if hit else next(fresh)
        if not out["ok"]:
            return None, [], [FieldError(e["field"], e["code"], reason=e.get("reason"),
                                         candidates=tuple(e.get("candidates", ()))) for e in out["errors"]]
        if not hit and key is not None:
            learnt[key] = out
        results.append(out["result"])
    _make_room(memo, len(learnt))
    memo.update(learnt)
    k = WIDGET_KINDS[kind]
    results = k.combine(results)
    return k.results(s, results, state), results, []


def _keyed(kind: str, state: dict[str, Any], fixed: dict[str, Any] | None) -> list[tuple[str | None, dict[str, Any]]] | None:
    """The requests a state needs with their memo keys, in order; None when the state is refused before any is asked
    (no card)."""
    k = WIDGET_KINDS[kind]
    if "gpu" in k.fields and not state.get("gpu"):
        return None
    return [(_memo_key(r), r) for r in k.requests_for(state, fixed)]


def _make_room(memo: dict[str, dict[str, Any]], coming: int) -> None:
    """The memo starts again when ``coming`` more answers would not fit (MEMO_ANSWERS)."""
    if len(memo) + coming > MEMO_ANSWERS:
        memo.clear()


def _unanswered(kind: str, state: dict[str, Any], fixed: dict[str, Any] | None,
                memo: dict[str, dict[str, Any]]) -> list[tuple[str, dict[str, Any]]]:
    """The requests ``render_results`` would ask for ``state`` that ``memo`` does not hold, with their memo keys."""
    return [(key, r) for key, r in _keyed(kind, state, fixed) or [] if key is not None and key not in memo]


def _answer_into(memo: dict[str, dict[str, Any]], todo: list[tuple[str, dict[str, Any]]], budget_ms: float) -> int | None:
    """Answer ``todo`` (``_unanswered``'s list) in order into ``memo``, as ``render_results`` would have, until
    ``budget_ms`` of this call have passed (at least one request), making room for all of them first. How many were
    answered; None at a refusal (the render then says why). The clock decides only where a slice ends, never an
    answer."""
    _make_room(memo, len(todo))
    start, done = time.perf_counter(), 0
    for (key, _), out in zip(todo, api.answer_each(r for _, r in todo)):
        if not out["ok"]:
            return None
        memo[key] = out
        done += 1
        if (time.perf_counter() - start) * 1000 >= budget_ms:
            break
    return done


#: How long one ``Page.prepare`` call answers requests before it returns (it finishes the request it is in): worker.mjs
#: calls it until nothing is left, its other messages between the calls. "What fits" (216 answers of about 0.2 ms on
#: CPython, 0.45 ms in the page) then takes a dozen calls or more; the estimator's three parts, of 3-7 ms each on
#: CPython, one call each (benchmarks/widget_speed.py prints the longest call).
SLICE_MS = 4.0

#: The most answers a page's memo holds (``Page``; the worker lives as long as the page): four "what fits" tables,
#: then it starts again. That widget asks the memory of every catalogue model by three methods without the card (216
#: requests), so a change of card alone is answered from the memo; so is a reader's going back to a setup seen.
MEMO_ANSWERS = 1024


def _memo_key(request: dict[str, Any]) -> str | None:
    """A request's exact text, or None where it cannot be written as JSON as it is (it is then always answered)."""
    try:
        return json.dumps(request, sort_keys=True, allow_nan=False)
    except (TypeError, ValueError, RecursionError):
        return None


def render_widget(s: Strings, kind: str, wid: str, state: dict[str, Any], fixed: dict[str, Any]) -> Html:
    """The widget as the build writes it: shell, form and the results for ``state``. Raises ``InputError`` (the
    first refusal) when the estimator rejects the state: the build reports it."""
    fragment, results, errors = render_results(s, kind, state, fixed)
    if errors:
        raise InputError(errors[0].code, errors[0].field)
    k = WIDGET_KINDS[kind]
    form = k.draw_form(s, wid, state, results)
    title = s.get(f"title.{kind}")
    named = _numbered(title, wid)       # the widget's landmarks say which widget they belong to (axe landmark-unique)
    fixed_note = el("p", {"class": "calc__fixed"}, s.get("out.fixed"), " ", describe_assumptions(s, fixed)) \
        if fixed else join()
    return el("div", {"class": f"calc calc--{kind}", "id": wid, "data-calc-root": True, "data-calc-kind": kind,
                      "data-calc-state": "loading", "data-calc-defaults": _json_attr(state),
                      "data-calc-fixed": _json_attr(fixed)},
              el("p", {"class": "calc__title", "id": f"{wid}-title"}, title),
              fixed_note,
              el("div", {"class": "calc__state"},
                 el("p", {"class": "calc__status", "data-calc-status": True, "role": "status", "aria-live": "polite"},
                    s.get("status.prerendered")),      # true without JavaScript too; calc.js says the rest
                 el("progress", {"class": "calc__progress", "data-calc-progress": True, "hidden": True,
                                 "aria-label": s.get("status.downloading")})),
              el("noscript", {}, el("p", {"class": "calc__noscript"}, s.get("status.noscript"))),
              el("p", {"class": "calc__notice", "data-calc-notice": True, "role": "status", "hidden": True}),
              el("p", {"class": "calc-sr-only", "data-calc-announce": True, "aria-live": "polite"}),
              el("div", {"class": "calc__body"},
                 el("form", {"class": "calc__form", "data-calc-form": True, "autocomplete": "off", "novalidate": True,
                             "aria-label": f"{s.get('a11y.inputs')}: {named}"},
                    el("fieldset", {"class": "calc__fieldset", "data-calc-fieldset": True, "disabled": True},
                       el("legend", {"class": "calc-sr-only"}, s.get("a11y.inputs")), form),
                    el("p", {"class": "calc__form-error", "data-calc-error-for": "", "role": "alert", "hidden": True})),
                 [el("div", {"class": f"calc__slot calc__slot--{name}", "data-calc-slot-out": name}, part)
                  for name, part in k.slots(s, results).items() if name == "summary"],
                 el("section", {"class": "calc__results", "data-calc-results": True,
                                "aria-label": f"{s.get('a11y.results')}: {named}"},
                    el("p", {"class": "calc__stale", "data-calc-stale-note": True, "hidden": True},
                       s.get("out.stale")),
                    el("div", {"class": "calc__fragment", "data-calc-fragment": True}, fragment)),
                 k.tail(s, wid) if k.tail else join()))


def runtime_head(paths: dict[str, Any], eager: bool, script_src: str) -> Html:
    """What a page with widgets adds to its <head>: the runtime's config as JSON (``paths``: where the runtime, the
    wheel, the later wheels and the strings file lie, and the runtime's size; with how far calc.js may cut a value
    before sending it, form.TRANSPORT_LIMITS), the eager-start flag, and the widgets' module at ``script_src`` (async:
    it never holds up the page). ``eager``: the first widget sits above the page's first section heading (the
    calculator page), so the runtime starts at once instead of waiting for the widget to be laid out and observed."""
    data = json.dumps({**paths, "limits": TRANSPORT_LIMITS}, sort_keys=True).replace("</", "<\\/")
    return join(
        el("script", {"type": "application/json", "id": "calc-runtime"}, Html(data)),
        el("meta", {"name": "calc-start", "content": "eager"}) if eager else "",
        el("script", {"type": "module", "async": True, "src": script_src}),
    )


def _numbered(title: str, wid: str) -> str:
    """The widget's title, with its number on the page after the first of its kind ("calc-compare-2": "… (2)")."""
    n = wid.rsplit("-", 1)[-1]
    return f"{title} ({n})" if n.isdigit() and int(n) > 1 else title


def _json_attr(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


#: Longest message the page's worker reads: a pasted config.json of MAX_INPUT_CHARS characters (each of which
#: JSON may write as six, ``\u0001``) beside every other control's value (MAX_FIELD_CHARS each). calc.js cuts each
#: value at its limit plus one character before sending (form.TRANSPORT_LIMITS), so an over-long value is still
#: refused next to its control; a message beyond this one did not come from the page script.
MAX_MESSAGE_CHARS = 8 * api.MAX_INPUT_CHARS


class Page:
    """What the page's worker holds: the strings of the page's language. ``render`` takes a JSON message from the
    page script and answers with JSON; it never raises (a bug is answered as ``internal_error``).

    The message goes through the estimator's own guards (``api.read_json``: size, depth, long integers, NaN), and
    every value in it through its control's (form.read_form): whatever a link, a paste or typing puts in a control
    is answered with the API's codes, each on the field whose control shows it."""

    def __init__(self, strings_json: str, lang: str) -> None:
        self.s = Strings(json.loads(strings_json), lang)
        self._answered: dict[str, dict[str, Any]] = {}    # render_results' memo, for as long as the page is open
        self._pending: tuple[str, list[tuple[str, dict[str, Any]]]] | None = None   # prepare's message, what is left

    def forget(self) -> None:
        """Empty the memo of answers (a benchmark's "a setup the page has not seen")."""
        self._answered.clear()
        self._pending = None

    def render(self, message: str) -> str:
        """One widget's state (``{"kind", "raw": every control's value by its data-calc-field, "fixed", "imported",
        "edited": the control changed last, where a conflict is shown}``), read, estimated and drawn: ``{"ok": true,
        "html", "state", "link": the state as the address keeps it, "spare": its keys an address too long drops,
        "summary", "slots", "read", "controls": values to write into the form}``; with ``"state"`` (a link's) instead
        of ``raw``, ``{"ok": true, "controls"}`` that show it; else ``{"ok": false, "errors": [{field, code, quiet,
        message, slots: the controls whose boxes may show it, best first}]}`` with the API's codes. A render that a
        newer change of the same widget overtook is answered by the worker, ``{"ok": false, "superseded": true}``.
        Never raises."""
        try:
            return _json_text(self._render(message))
        except Exception:  # noqa: BLE001 - the boundary never raises
            return json.dumps({"ok": False, "errors": [{"field": None, "code": "internal_error", "quiet": False,
                                                        "message": str(self.s.get("errors.internal_error", ""))}]})

    def prepare(self, message: str, budget_ms: float = SLICE_MS) -> int:
        """Answer more of the requests a render of ``message`` asks, into the memo, for about ``budget_ms`` (at least
        one request), and return how many are left (0: render it now). The worker calls this between its other
        messages until it returns 0, so no single Python call runs much longer than the budget or one request ("what
        fits" asks 216), and a newer change of the same widget can stop the rest; the render that follows draws from
        the memo what a render alone would have computed. Never raises: a message the render refuses returns 0 (the
        render reports it)."""
        try:
            if self._pending is not None and self._pending[0] == message:
                todo = [(key, r) for key, r in self._pending[1] if key not in self._answered]
            else:
                msg = _read_message(message)
                kind, state, fixed, errors, _written = self._read(msg)
                todo = [] if errors or msg["state"] is not None else _unanswered(kind.name, state, fixed, self._answered)
            self._pending = None
            done = _answer_into(self._answered, todo, float(budget_ms)) if todo else None
            if done is None:
                return 0
            rest = todo[done:]
            if rest:
                self._pending = (message, rest)
            return len(rest)
        except Exception:  # noqa: BLE001 - the boundary never raises; the render answers
            self._pending = None
            return 0

    def search(self, message: str) -> str:
        """A picker's search (``{"kind": "model" | "gpu", "text": what was typed}``): the values it finds, best
        first, the sentence the picker's status announces ("3 matches; first: Qwen3 8B"), and the entry the text
        names exactly (``named``: an id, repo or alias in any case; else null); with ``"listbox": its id``, also
        the listbox's options, the matches alone in their order (``options``: form.picker_options). Never raises."""
        try:
            msg = api.read_json(message, None, MAX_MESSAGE_CHARS)    # the same guards as a render
            kind, typed = msg["kind"], str(msg.get("text") or "")
            if kind not in PICKERS:
                raise KeyError(kind)
            values = picker_search(self.s, kind, typed)
            labels = {e.value: e.label for e in picker_entries(self.s, kind)}
            count = plain_text(counted(self.s, "matches", len(values)))
            announce = plain_text(filled(self.s.get("search.announce"), {"count": count, "first": labels[values[0]]})) \
                if values else self.s.get("search.none")
            out = {"ok": True, "values": values, "announce": announce, "named": picker_named(self.s, kind, typed),
                   "fetch": hub.fetchable(typed) if kind == "model" else None}
            if isinstance(msg.get("listbox"), str):          # the listbox's options: the matches, in their order
                out["options"] = str(picker_options(self.s, msg["listbox"], kind, found=values))
            return json.dumps(out, ensure_ascii=False)
        except Exception:  # noqa: BLE001 - the boundary never raises
            return json.dumps({"ok": False, "values": [], "announce": "", "named": None})

    def hub(self, message: str) -> str:
        """One step of reading a model's config from the Hugging Face Hub (``{"repo": the id typed, "replies":
        {url: {"status", "text"} | {"error"}}}``, the replies calc.js's ``hubGet`` got so far): ``{"ok": true,
        "fetch": url, "max_bytes", "timeout_ms"}`` (ask it next), ``{"ok": true, "controls": {control: value},
        "note": html}`` (the control values that put what was read into the form, and what was read), or ``{"ok":
        false, "code", "message": html}`` (hub.step; the words are ``calc.hub``'s). Never raises."""
        try:
            msg = api.read_json(message, None, MAX_MESSAGE_CHARS)
            nxt = hub.step(msg.get("repo"), msg.get("replies"))
            if "fetch" in nxt:
                return json.dumps({"ok": True, "fetch": nxt["fetch"], "max_bytes": hub.MAX_BYTES,
                                   "timeout_ms": hub.TIMEOUT_S * 1000, "reading": self.s.get("hub.reading")},
                                  ensure_ascii=False)
            repo = ltr(el("code", {}, nxt["repo"]))
            if "error" in nxt:
                return json.dumps({"ok": False, "code": nxt["error"], "message": str(join(
                    filled(self.s.get(f"hub.errors.{nxt['error']}"), {"repo": repo}), " ", self.s.get("hub.way_on")))},
                    ensure_ascii=False)
            note = str(filled(self.s.get("hub.read" if "config" in nxt else "hub.read_base"), {"repo": repo}))
            # the control values to write: the text as fetched in the paste box (a link stores it as a paste), or
            # the catalogue entry an adapter's base names
            controls = {PASTE_KEY: nxt["config"], SOURCE_KEY: "paste"} if "config" in nxt \
                else {"model": nxt["model"], SOURCE_KEY: "preset"}
            return json.dumps({"ok": True, "controls": controls, "note": note}, ensure_ascii=False)
        except Exception:  # noqa: BLE001 - the boundary never raises
            return json.dumps({"ok": False, "code": "internal_error", "message": str(self.s.get("errors.internal_error"))})

    def _read(self, msg: dict[str, Any]
              ) -> tuple[WidgetKind, dict[str, Any], dict[str, Any], list[FieldError], dict[str, Any]]:
        """The kind, the state read from the raw controls after the kind's form rule (``WidgetKind.regime``), the
        fixed keys (the article's, then a pasted config's keys beyond the form: ``imported``), the errors of reading
        them, and the control values the rule writes into the form."""
        kind = WIDGET_KINDS[msg["kind"]]
        fixed = dict(msg.get("fixed") or {})
        imported = msg.get("imported") or {}
        bad = check_imported(kind.fields, imported)
        if bad is not None:
            return kind, {}, fixed, [FieldError(bad or None, "unknown_key")], {}
        raw = msg.get("raw") or {}
        state, errors = read_form(kind.fields, kind.defaults, raw)
        state, written = kind.regime(state, raw) if not errors else (state, {})
        return kind, state, {**fixed, **imported}, errors, written

    def _render(self, message: str) -> dict[str, Any]:
        try:
            msg = _read_message(message)
        except InputError as err:
            return {"ok": False, "errors": [self._error(FieldError(err.field, err.code))]}
        kind, raw = WIDGET_KINDS[msg["kind"]], msg["raw"]
        if msg["state"] is not None:                     # a link's state: the controls that show it, to write
            controls = form_controls(self.s, kind.fields, msg["state"], kind.model_sources)
            if controls is None:
                return {"ok": False, "errors": [self._error(FieldError(None, "unknown_key"))]}
            return {"ok": True, "controls": {**controls, **kind.regime(msg["state"], None)[1]}}
        kind, state, fixed, errors, written = self._read(msg)
        read = readings(self.s, kind.fields, raw)               # the typed numbers as read, shown beside their fields
        for key, mark in kind.marks(self.s, state).items():     # and a framework's default the reader's differs from
            read[key] = join(read[key], " ", mark) if key in read else mark
        if not errors:
            fragment, results, errors = render_results(self.s, kind.name, state, fixed, self._answered)
        if errors:
            return {"ok": False, "read": read, **({"controls": written} if written else {}), "errors": [
                {**self._error(e), "slots": error_slots(e.field, e.code, raw, msg["edited"])} for e in errors]}
        link, spare = link_state(raw, state)
        return {"ok": True, "html": fragment, "state": state, "link": link, "spare": spare,
                "slots": kind.slots(self.s, results), "summary": kind.summary(self.s, results), "read": read,
                "controls": {**kind.controls(results, raw), **written}}

    def run(self, message: str) -> str:
        """The "Run it" section's requests (after the worker loaded the exporters): ``{"action": "export", kind,
        raw, fixed, imported, wid}`` -> the tabs' markup; ``{"action": "import", kind, files: {part: text}}`` ->
        the form's new state, the keys kept beside it and the note (or the errors, each with its message, and
        ``errors_html``, the line of them the page shows under the box). A message
        is read as a render's is (``_read_message``: unknown_value for a kind no widget has, not_an_object for raw,
        fixed or files that are not objects). Never raises."""
        try:
            try:
                msg = _read_message(message)        # the same guards as a render: a code for a malformed message
                if msg.get("action") == "import":
                    files = msg["files"]
                    if not isinstance(files, dict):
                        raise InputError("not_an_object", None)
                    kind = WIDGET_KINDS[msg["kind"]]
                    answer = read_paste(self.s, kind.fields, files)
                    if answer["ok"]:
                        # as a link's: the controls that show the file's setup, its regime record included, so that
                        # the render after it sees no framework switch to apply over what the file says
                        controls = form_controls(self.s, kind.fields, answer["state"], kind.model_sources)
                        answer["controls"] = controls if controls is None else \
                            {**controls, **kind.regime(answer["state"], None)[1]}
                    return _json_text(answer)
            except InputError as err:
                return _json_text({"ok": False, "errors": [self._error(FieldError(err.field, err.code))]})
            kind, state, fixed, errors, _written = self._read(msg)
            if not errors:
                try:
                    html = render_exports(self.s, str(msg.get("wid") or kind.name), {**fixed, **state})
                except InputError as err:
                    errors = [FieldError(err.field, err.code)]
            if errors:
                return _json_text({"ok": False, "errors": [self._error(e) for e in errors]})
            return _json_text({"ok": True, "html": html})
        except Exception:  # noqa: BLE001 - the boundary never raises
            return json.dumps({"ok": False, "errors": [{"field": None, "code": "internal_error",
                                                        "message": str(self.s.get("errors.internal_error", ""))}]})

    def _error(self, e: FieldError) -> dict[str, Any]:
        return {"field": e.field, "code": e.code, "quiet": e.quiet, **({"reason": e.reason} if e.reason else {}),
                "message": "" if e.quiet else str(message_for(self.s, e.code, e.field, e.reason, e.candidates))}


def _read_message(message: Any) -> dict[str, Any]:
    """The worker's message (``{"kind", "raw", "fixed", "imported"}``) read through the API's guards; ``InputError`` (field
    null: no control sent it) when it is not one the page script writes."""
    msg = api.read_json(message, None, MAX_MESSAGE_CHARS)
    if not isinstance(msg, dict):
        raise InputError("not_an_object", None)
    if not isinstance(msg.get("kind"), str) or msg["kind"] not in WIDGET_KINDS:
        raise InputError("unknown_value", None)
    raw, fixed, state = msg.get("raw") or {}, msg.get("fixed") or {}, msg.get("state")
    if not isinstance(raw, dict) or not isinstance(fixed, dict) or not isinstance(state, (dict, type(None))):
        raise InputError("not_an_object", None)
    # a pasted config's keys beyond the form: checked by check_imported (a non-object is refused there, by key);
    # the Run-it section's messages add their action, the widget's id and the import box's files
    # a link's state (``state``) asks for the controls that show it; ``edited``: the control the reader changed last
    return {"kind": msg["kind"], "raw": raw, "fixed": fixed, "imported": msg.get("imported") or {},
            "state": state, "edited": msg.get("edited"),
            "action": msg.get("action"), "wid": msg.get("wid"), "files": msg.get("files") or {}}


def _json_text(answer: dict[str, Any]) -> str:
    """The answer as JSON text the page can take: Arabic and every other letter as itself, but a lone surrogate
    (a pasted ``"\\ud800"``) escaped, since no UTF-8 or UTF-16 text can carry it unescaped."""
    text = json.dumps(answer, ensure_ascii=False)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        text = json.dumps(answer, ensure_ascii=True)
    return text
