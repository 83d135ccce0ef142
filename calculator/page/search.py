"""The model and card pickers' search: what a reader types ("qwen3 8", "Qwen/Qwen3-8B", "pro 6000", "٢٤ GB") ranked
against every catalogue entry, in the reader's language and either digit form.

Matching is done here, in Python, so that it is tested table-driven on CPython over the whole catalogue
(tests/unit/test_search.py); the page's script only asks the worker (``Page.search``) and moves the listbox's
options into the order it gets back. One query is split into terms; an entry is a set of word lists (its name with
its family, class and memory words; its Hugging Face repo; each alias), and the query matches a list when every term
takes a distinct word of it: the whole word (3), a number that is the word's number ("8" for "8b", "24" for
"24gb": 3), the word's beginning (2) or, for three or more letters, a part of it (1). The best list decides; the
name's list counts a little more than a repo's, so "deepseek" lists the DeepSeek family before the entries that
only an alias of a distill names. Ties go to the entry whose name has fewest words left unmatched (the most
specific match: "gemma 2" is Gemma 2B before Gemma 2 2B), then to the catalogue's order. A query that is exactly an
entry's id or repo (any case, with or without the Hub's address) puts that entry first, and so does the entry a derivative's id resolves to (``catalog.resolve``: "Qwen/Qwen3-14B-FP8",
"Llama-3.3-70B-Instruct"). Standard library only.
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from functools import lru_cache

from .. import api
from .text import Strings, fmt_bytes

__all__ = ["Entry", "entries", "normalize", "terms", "search", "named", "KINDS"]

#: The pickers: the request key each one sets.
KINDS = ("model", "gpu")

# Arabic-Indic and Extended Arabic-Indic digits, the Arabic decimal separator; everything else that is not a letter or
# a digit separates words (a dot stays inside a number: "3.1", "0.6b").
_DIGITS = {**{ord(c): str(i) for i, c in enumerate("٠١٢٣٤٥٦٧٨٩")},
           **{ord(c): str(i) for i, c in enumerate("۰۱۲۳۴۵۶۷۸۹")}, ord("٫"): ".", ord("٬"): ""}
_WORD = re.compile(r"[^\W_]+(?:\.[0-9]+)*", re.UNICODE)
_NUMBER = re.compile(r"^([0-9]+(?:\.[0-9]+)?)([a-z]*)$")
_HUB = re.compile(r"^(?:https?://)?(?:www\.)?(?:huggingface\.co|hf\.co)/")

_VENDOR_WORDS = {"nvidia": ("nvidia",), "amd": ("amd", "instinct", "rocm")}
# a card's class by its English words too (a reader of the Arabic page may type them)
_CLASS_WORDS = {"consumer": ("consumer", "geforce", "desktop"), "workstation": ("workstation", "pro"),
                "datacenter": ("datacenter", "data", "center", "centre", "cloud")}


def normalize(text: str) -> str:
    """Lower case, Latin digits, no diacritics or tatweel: the form both the query and the entries are compared in."""
    s = unicodedata.normalize("NFKC", str(text)).translate(_DIGITS).lower().replace("\u0640", "")
    return "".join(c for c in unicodedata.normalize("NFD", s) if not unicodedata.combining(c))


def terms(text: str) -> tuple[str, ...]:
    """The words of a query or a name; a letters-then-digits word ("qwen3", "h100") is also its parts."""
    return tuple(_WORD.findall(normalize(text)))


_NAME_NUMBER = re.compile(r"^([a-z]{2,})([0-9]+(?:\.[0-9]+)?)$")


def _words(text: str) -> tuple[str, ...]:
    """The words of a name; a name-then-number word ("qwen3", "gemma3") is also its two parts (a size such as "8b"
    stays whole: "8" finds it as its number)."""
    out: list[str] = []
    for w in terms(text):
        out.append(w)
        split = _NAME_NUMBER.match(w)
        if split:
            out += list(split.groups())
    return tuple(dict.fromkeys(out))


@dataclass(frozen=True)
class Entry:
    """One catalogue entry as the picker shows and searches it."""

    value: str                           # the request value (catalogue id)
    label: str                           # what the option shows (the entry's name)
    group: str                           # the group it is listed under (family; card class in the reader's words)
    hint: str                            # the second line of the option (the repo id; the card's memory)
    name_words: tuple[str, ...]          # the words of its name (the tie-break counts those left unmatched)
    lists: tuple[tuple[str, ...], ...]   # word lists a query is matched against; the first is the name's
    exact: frozenset[str]                # queries that name it exactly (id, repo, aliases)
    sets: tuple[frozenset[str], ...] = field(init=False, repr=False, compare=False)   # ``lists`` as sets

    def __post_init__(self) -> None:
        object.__setattr__(self, "sets", tuple(frozenset(words) for words in self.lists))


def _repo(text: str) -> str:
    return _HUB.sub("", normalize(text).strip()).strip("/")


def _model_entries() -> tuple[Entry, ...]:
    out = []
    for m in api.MODELS.values():
        name_words = _words(m.name)
        sized = any(_NUMBER.match(w) and _NUMBER.match(w).group(2) in ("b", "m") for w in name_words)
        params = m.published_params or 0       # a name without its size ("Mixtral 8x7B") is found by it too
        size = () if sized else (f"{round(params / 1e9)}b",) if params >= 1e9 else (f"{round(params / 1e6)}m",)
        primary = tuple(dict.fromkeys(name_words + _words(m.family) + _words(m.id) + size))
        repos = (m.hf_id,) + m.aliases
        out.append(Entry(m.id, m.name, m.family, m.hf_id, name_words,
                         (primary,) + tuple(_words(r) for r in repos),
                         frozenset({normalize(m.id)} | {_repo(r) for r in repos})))
    return tuple(out)


def _gpu_entries(s: Strings) -> tuple[Entry, ...]:
    out = []
    units = tuple(normalize(w) for w in s.get("search.gb_words").split())
    for g in api.GPUS.values():
        # its marketed size, as its name gives it ("24GB"; the driver reports a little less)
        memory = tuple(f"{n}gb" for n in dict.fromkeys(re.findall(r"([0-9]+)\s*gb", normalize(g.name))))
        klass = s.get(f"options.gpu_class.{g.klass}")
        vendor = "amd" if g.arch.startswith("cdna") else "nvidia"
        name_words = _words(g.name)
        primary = tuple(dict.fromkeys(name_words + memory + tuple(n[:-2] for n in memory) + units
                                      + _words(klass) + _CLASS_WORDS[g.klass] + (g.arch,) + _VENDOR_WORDS[vendor]
                                      + _words(g.id)))
        hint = f"{g.arch.upper() if g.arch.startswith('cdna') else g.arch.capitalize()} · {fmt_bytes(g.memory_bytes)[1]}"
        out.append(Entry(g.id, g.name, klass, hint, name_words, (primary,), frozenset({normalize(g.id)})))
    return tuple(out)


@lru_cache(maxsize=1)
def _models() -> tuple[Entry, ...]:
    return _model_entries()


def entries(s: Strings, kind: str) -> tuple[Entry, ...]:
    """Every entry of a picker, in the catalogue's order, with the words it is found by in the reader's language."""
    if kind not in KINDS:
        raise KeyError(kind)
    if kind == "model":
        return _models()
    return s.remember(("search_entries", kind), lambda: _gpu_entries(s))


@lru_cache(maxsize=1 << 16)
def _term_score(term: str, word: str) -> int:
    """How well one typed term takes one word (3 whole or its number, 2 its beginning, 1 a part of it, 0 not): a
    keystroke asks this of every word of every entry with the same few terms, so the answers are kept."""
    if term == word:
        return 3
    number = _NUMBER.match(word)
    if number and number.group(2) in ("b", "gb", "m") and term == number.group(1):
        return 3
    if word.startswith(term):
        return 2
    if len(term) >= 3 and term in word:
        return 1
    return 0


def _list_score(query: tuple[str, ...], words: tuple[str, ...]) -> tuple[int, set[str]]:
    """Every term on a distinct word (greedy, the most specific terms first), or 0 when one finds none."""
    free = list(words)
    used: set[str] = set()
    total = 0
    for term in sorted(query, key=len, reverse=True):
        best, at = 0, -1
        for i, word in enumerate(free):
            score = _term_score(term, word)
            if score > best:
                best, at = score, i
        if not best:
            return 0, set()
        total += best
        used.add(free.pop(at))
    return total, used


def _rank(entry: Entry, query: tuple[str, ...], exact: str,
          takers: tuple[frozenset[str], ...], resolved: str | None = None) -> tuple[float, int] | None:
    if (exact and exact in entry.exact) or entry.value == resolved:
        return 1000.0, 0
    best: float = 0
    unmatched = len(entry.name_words)
    for i, words in enumerate(entry.lists):
        if any(words_taking.isdisjoint(entry.sets[i]) for words_taking in takers):
            continue                         # a term no word of this list takes: the list scores 0
        score, used = _list_score(query, words)
        if not score:
            continue
        score = score + 0.5 if i == 0 else score
        if score > best:
            best = score
            unmatched = len([w for w in entry.name_words if w not in used]) if i == 0 else len(entry.name_words)
    return (best, unmatched) if best else None


def _vocabulary(s: Strings, kind: str) -> tuple[str, ...]:
    """Every word of a picker's lists, once."""
    return s.remember(("search_vocabulary", kind), lambda: tuple(dict.fromkeys(
        w for e in entries(s, kind) for words in e.lists for w in words)))


def _query_terms(s: Strings, kind: str, text: str) -> tuple[str, ...]:
    """The query's terms; a name-then-number term that no word of the picker takes is its two parts: "gemma3 12b"
    finds "Gemma 3 12B" as "gemma 3 12b" does (issue 42, point 8), "llama3.1" finds "Llama 3.1"."""
    vocabulary = _vocabulary(s, kind)
    out: list[str] = []
    for t in terms(text):
        split = _NAME_NUMBER.match(t)
        if split and not any(_term_score(t, w) for w in vocabulary):
            out += split.groups()
        else:
            out.append(t)
    return tuple(out)


def search(s: Strings, kind: str, text: str) -> list[str]:
    """The values of the entries the query finds, best first (all of them, in the catalogue's order, for an empty
    query)."""
    all_entries = entries(s, kind)
    query = _query_terms(s, kind, text)
    if not query:
        return [e.value for e in all_entries]
    exact = _repo(text)
    # the entry a derivative's id names (a format suffix, a name without its owner: catalog.resolve) comes first too
    found = api.resolve(text) if kind == "model" else None
    resolved = found.model if found is not None and found.model else None
    # per term, the words of the picker it takes: a list lacking one of them is passed over without scoring it
    takers = tuple(frozenset(w for w in _vocabulary(s, kind) if _term_score(t, w)) for t in set(query))
    ranked = []
    for order, entry in enumerate(all_entries):
        rank = _rank(entry, query, exact, takers, resolved)
        if rank is not None:
            ranked.append((-rank[0], rank[1], order, entry.value))
    return [value for *_key, value in sorted(ranked)]


def named(s: Strings, kind: str, text: str) -> str | None:
    """The entry a text names exactly (its id, repo or an alias, any case, with or without the Hub's address), or
    None: how a link that carries a repo id ("Qwen/Qwen3-8B") finds the catalogue entry it means."""
    key = _repo(text)
    return next((e.value for e in entries(s, kind) if key and key in e.exact), None)
