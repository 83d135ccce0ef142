"""Every error the estimator package raises, in one module (the shape of httpx's ``_exceptions.py``): a base class
per side, one class per cause, each with a code the string tables have words for.

    EstimatorError(code, field)   what the estimator refuses; ``field`` names the request key (``model.<field>``)
    ├── InputError                a request it refuses (``api.ERROR_CODES``); api answers it, never raises it
    │   └── InputErrors           every key of one request that fails on its own (the first is its code and field)
    └── TimeNotModelled           a time it cannot compute honestly (``vocab.TIME_ERRORS``); answered as time_error
    PageError                     what the page's renderer cannot do (the build fails on it, naming it)
    ├── StringMissing             a text the page needs is missing from the language's string table
    └── FigureUnavailable         an inline figure the answer does not have (no workload, no price, a refused time)
    FileRefused(code, reason)     a file the CLI does not read (``--config``, ``--import``): an API code and why
    HubRefused(code, repo)        a config the Hub did not give (``--fetch``, the page's button): a code of HUB_ERRORS

The JSON boundary (``api``) and the page's worker entry (``page.Page``) answer every one of them and never raise;
the site build catches exactly these classes (``sitebuild/plugin.py``), so any other exception is a bug and fails the
build as one. Standard library only.
"""
from __future__ import annotations

__all__ = ["EstimatorError", "InputError", "InputErrors", "TimeNotModelled", "PageError", "StringMissing", "FigureUnavailable",
           "FileRefused", "StaleFiles", "HubRefused", "HUB_ERRORS"]


class EstimatorError(Exception):
    """Something the estimator refuses: an error code, the request field it names and, for a refusal with more than
    one cause (``unsupported_model``, ``unsupported_on_gpu``), why (a code the string tables have words for); for a
    name that could be several models (``ambiguous_model``), the ids it could be (``candidates``)."""

    def __init__(self, code: str, field: str | None = None, reason: str | None = None,
                 candidates: tuple[str, ...] = ()) -> None:
        super().__init__(code, field)
        self.code = code
        self.field = field
        self.reason = reason
        self.candidates = tuple(candidates)


class InputError(EstimatorError):
    """A request the estimator refuses (a code of ``api.ERROR_CODES``)."""


class InputErrors(InputError):
    """Several keys of one request that fail, each on its own: ``errors`` lists them, the first gives ``code`` and
    ``field``."""

    def __init__(self, errors: list[InputError]) -> None:
        super().__init__(errors[0].code, errors[0].field, errors[0].reason, errors[0].candidates)
        self.errors = list(errors)


class TimeNotModelled(EstimatorError):
    """A time the estimator cannot compute honestly (a code of ``vocab.TIME_ERRORS``, or ``missing_field``)."""


class PageError(Exception):
    """Something the page's renderer cannot do."""


class StringMissing(PageError, KeyError):
    """A string the markup needs is not in the table (the build fails on it; a test renders every widget)."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


class FigureUnavailable(PageError, ValueError):
    """A requested inline figure the answer does not have (no workload, no price, a refused time)."""


class FileRefused(Exception):
    """A file the CLI does not read (``--config PATH``, ``--import FILE``: not a regular file, too long, not UTF-8,
    not JSON): a code of ``api.ERROR_CODES`` and why, in words (``reason``), for its ``error:`` line."""

    def __init__(self, code: str, reason: str) -> None:
        super().__init__(code, reason)
        self.code, self.reason = code, reason


class StaleFiles(Exception):
    """``--out`` holds files of an earlier export that this one does not write (``stale``), and no ``--force``."""

    def __init__(self, stale: list[str]) -> None:
        super().__init__(stale)
        self.stale = stale


#: Why reading a model's config from the Hugging Face Hub stopped (calculator/hub.py; the page's button and the CLI's
#: ``--fetch``): each has its words in both string tables (``calc.hub.errors.<code>``).
HUB_ERRORS: tuple[str, ...] = (
    "not_an_id",      # not an owner/name id of the Hub's form (catalog.is_hub_id): nothing is asked
    "not_found",      # 404: no such repository, or neither config.json nor adapter_config.json in it
    "gated",          # 401 or 403: a gated or private repository (it needs a login this page never sends)
    "status",         # any other HTTP status
    "too_large",      # a reply longer than hub.MAX_BYTES (no config is that long)
    "not_json",       # a reply that is not one JSON object the API's reader takes (api.read_json)
    "timeout",        # no whole reply within hub.TIMEOUT_S
    "unreachable",    # no network, a refused connection or (in a browser) a CORS refusal: the two look the same there
    "no_base",        # an adapter_config.json naming no base model of the Hub's form
)


class HubRefused(Exception):
    """A model config the Hub did not give (a code of ``HUB_ERRORS``) for the repository ``repo``."""

    def __init__(self, code: str, repo: str) -> None:
        super().__init__(code, repo)
        self.code, self.repo = code, repo
