"""The estimator at build time: the same ``calculator.api`` answer the page asks for later, cached (both language
builds ask the same questions), and a rejected request fails the build with the estimator's error code."""
from __future__ import annotations

import functools
import json
from typing import Any

from mkdocs.exceptions import PluginError

from calculator import api


@functools.lru_cache(maxsize=8192)
def _answer_text(text: str) -> str:
    return api.answer_text(text)


def answer(request: dict[str, Any]) -> dict[str, Any]:
    return json.loads(_answer_text(json.dumps(request, sort_keys=True)))


def checked(request: dict[str, Any], where: str) -> dict[str, Any]:
    """The result of ``request``, or a build failure naming the error code, the field and the request."""
    out = answer(request)
    if not out.get("ok"):
        err = out.get("error", {})
        raise PluginError(f"{where}: the estimator rejects this marker's inputs: {err.get('code')} "
                          f"(field {err.get('field')!r}); request {json.dumps(request, sort_keys=True)}")
    return out["result"]


def clear() -> None:
    _answer_text.cache_clear()
