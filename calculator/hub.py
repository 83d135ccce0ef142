"""A model's config.json read from the Hugging Face Hub, on request: which address to ask next and what each reply
means. No network here (the estimator reads none): the page's script (calc.js ``hubGet``, only when the reader clicks
"Read its config from Hugging Face") and the CLI (``--fetch``, urllib) make each request ``step`` names and hand the
replies back, so both follow one path and one set of rules.

The path: ``https://huggingface.co/<owner>/<name>/resolve/main/config.json``; when the repository has none (404), its
``adapter_config.json`` (a LoRA adapter's repository) and then what that names, ``base_model_name_or_path``: the
catalogue entry it resolves to (``catalog.resolve``), else that base's own ``config.json`` (once: a base's adapter is
not followed). Only ids of the Hub's ``owner/name`` form (``catalog.is_hub_id``) are asked for. A reply is capped at
``MAX_BYTES`` by whoever fetches it and read by the API's own JSON reader (``api.read_json``: size, depth, long
integers, NaN), as a paste is; the config found then goes into the paste box (or ``--config``'s path) unchanged, so
the estimate reads it exactly as a pasted config. Standard library only.
"""
from __future__ import annotations

from typing import Any

from .api import MAX_INPUT_CHARS, read_json
from .catalog import hub_path, is_hub_id, resolve
from .errors import InputError

__all__ = ["HUB", "MAX_BYTES", "TIMEOUT_S", "fetchable", "url", "step"]

#: Where configs are read from: the only host other than its own a reader's page asks, and only on the reader's click.
HUB = "https://huggingface.co"
#: The most bytes of one reply read: a config of the most characters a paste may hold (real configs are about 10 kB).
MAX_BYTES = MAX_INPUT_CHARS
#: Seconds a reply may take, whole.
TIMEOUT_S = 15
CONFIG, ADAPTER = "config.json", "adapter_config.json"


def _repo(text: Any) -> str | None:
    """``owner/name`` as typed (a huggingface.co address stripped), or None when it is not of the Hub's form."""
    repo = hub_path(text) if isinstance(text, str) else ""
    return repo if "/" in repo and is_hub_id(repo) else None


def fetchable(text: Any) -> str | None:
    """The repository a typed model id may be read from: an ``owner/name`` id that names nothing in the catalogue
    (not even as a derivative: ``catalog.resolve``), else None. The page offers its button only for it."""
    repo = _repo(text)
    return repo if repo is not None and resolve(repo) is None else None


def url(repo: str, name: str = CONFIG) -> str:
    """The address of one file of a repository's main branch."""
    return f"{HUB}/{repo}/resolve/main/{name}"


def _read(reply: Any) -> tuple[str, Any]:
    """A reply as ``("ok", the JSON object)``, ``("missing", None)`` (404) or ``("error", a HUB_ERRORS code)``. A
    reply is ``{"status": int, "text": str}`` or ``{"error": "timeout" | "unreachable" | "too_large"}``."""
    if not isinstance(reply, dict):
        return "error", "unreachable"
    if reply.get("error") in ("timeout", "unreachable", "too_large"):
        return "error", reply["error"]
    status = reply.get("status")
    if status == 404:
        return "missing", None
    if status in (401, 403):
        return "error", "gated"
    if status != 200 or not isinstance(reply.get("text"), str):
        return "error", "status"
    if len(reply["text"]) > MAX_BYTES:
        return "error", "too_large"
    try:
        obj = read_json(reply["text"], "model")
    except InputError as err:
        return "error", "too_large" if err.code == "too_large" else "not_json"
    return ("ok", obj) if isinstance(obj, dict) else ("error", "not_json")


def step(typed: Any, replies: dict[str, Any]) -> dict[str, Any]:
    """The next move in reading ``typed``'s config, given the replies so far (``{url: reply}``): ``{"fetch": url,
    "repo", "file"}`` (ask it next: that file of that repository), ``{"config": text, "repo": r}`` (the config.json to read as a paste; ``r``: the repository it came
    from, an adapter's base), ``{"model": catalogue id, "repo": r}`` (an adapter whose base the catalogue has), or
    ``{"error": a HUB_ERRORS code, "repo": r}``."""
    repo = _repo(typed)
    if repo is None:
        return {"error": "not_an_id", "repo": str(typed)[:200]}
    replies = replies if isinstance(replies, dict) else {}
    first = url(repo)
    if first not in replies:
        return {"fetch": first, "repo": repo, "file": CONFIG}
    how, got = _read(replies[first])
    if how == "ok":
        return {"config": replies[first]["text"], "repo": repo}
    if how == "error":
        return {"error": got, "repo": repo}
    adapter = url(repo, ADAPTER)
    if adapter not in replies:
        return {"fetch": adapter, "repo": repo, "file": ADAPTER}
    how, got = _read(replies[adapter])
    if how != "ok":
        return {"error": "not_found" if how == "missing" else got, "repo": repo}
    base = _repo(got.get("base_model_name_or_path"))
    if base is None or base.lower() == repo.lower():
        return {"error": "no_base", "repo": repo}
    found = resolve(base)
    if found is not None and found.model and not found.weight_format:
        return {"model": found.model, "repo": base}
    second = url(base)
    if second not in replies:
        return {"fetch": second, "repo": base, "file": CONFIG}
    how, got = _read(replies[second])
    if how == "ok":
        return {"config": replies[second]["text"], "repo": base}
    return {"error": "not_found" if how == "missing" else got, "repo": base}
