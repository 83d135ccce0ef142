"""The pickers' search (calculator/page/search.py), table-driven over the whole catalogue: for every entry, its family
and size, its Hugging Face repo (and every alias) and a three-letter prefix of its name find it first, in both
languages and with Latin or Arabic-Indic digits; a card's memory finds the cards of that size first."""
from __future__ import annotations

import json
import re

import pytest

from calculator import api
from calculator.page.search import entries, search
from calculator.page.text import STRING_TABLES, Strings

pytestmark = pytest.mark.unit

STRINGS = STRING_TABLES
LANGS = ("ar", "en")
ARABIC_DIGITS = str.maketrans("0123456789", "٠١٢٣٤٥٦٧٨٩")
_SIZE = re.compile(r"^([0-9]+(?:\.[0-9]+)?)b$", re.IGNORECASE)
_VENDOR = {"nvidia", "geforce", "amd", "instinct", "tesla"}


def strings(lang: str) -> Strings:
    return Strings(json.loads((STRINGS / f"{lang}.json").read_text(encoding="utf-8"))["calc"], lang)


S = {lang: strings(lang) for lang in LANGS}


def words(name: str) -> list[str]:
    return re.findall(r"[^\W_]+(?:\.[0-9]+)*", name.lower())


def family_and_size(name: str) -> str:
    """The name as a reader shortens it: "Qwen3 8B" -> "qwen3 8" (a size without its B)."""
    return " ".join(_SIZE.sub(r"\1", w) for w in words(name))


def prefix(name: str) -> str:
    """Each word of three letters or more cut to three, numbers kept whole: "Mistral 7B v0.2" -> "mis 7b v0.2"."""
    return " ".join(w[:3] if w.isalpha() else w for w in words(name))


def card_name(name: str) -> str:
    """A card's name without the vendor's words: "NVIDIA GeForce RTX 4090 24GB" -> "rtx 4090 24gb"."""
    return " ".join(w for w in words(name) if w not in _VENDOR)


def queries(kind: str, value: str) -> set[str]:
    """What a reader types for one entry: its family and size (a model) or its name without the vendor (a card), a
    three-letter prefix of its name, and for a model its id, its repo and every alias."""
    e = next(x for x in entries(S["en"], kind) if x.value == value)
    if kind == "gpu":
        return {card_name(e.label), prefix(e.label)}
    m = api.MODELS[value]
    return {family_and_size(e.label), prefix(e.label), m.id, m.hf_id, *m.aliases}


def misses(kind: str, value: str) -> list[tuple[str, str, list[str]]]:
    out = []
    for query in sorted(queries(kind, value)):
        for typed in (query, query.translate(ARABIC_DIGITS)):
            for lang in LANGS:
                found = search(S[lang], kind, typed)
                if found[:1] != [value]:
                    out.append((lang, typed, found[:3]))
    return out


@pytest.mark.parametrize("value", list(api.MODELS))
def test_every_model_is_found_first(value: str) -> None:
    assert misses("model", value) == []


@pytest.mark.parametrize("value", list(api.GPUS))
def test_every_card_is_found_first(value: str) -> None:
    assert misses("gpu", value) == []


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("query,first", [
    ("qwen3 8", "qwen3-8b"), ("qwen3 ٨", "qwen3-8b"), ("QWEN/QWEN3-8B", "qwen3-8b"),
    ("https://huggingface.co/Qwen/Qwen3-8B", "qwen3-8b"), ("unsloth/qwen3-8b-bnb-4bit", "qwen3-8b"),
    ("gemma 3 12", "gemma-3-12b"), ("llama 3 8", "llama-3-8b"), ("llama 3.1 8", "llama-3.1-8b"),
    ("r1 distill 1.5", "deepseek-r1-distill-qwen-1.5b"), ("kimi", "kimi-k2"), ("maverick", "llama-4-maverick-17b-128e"),
    ("8x7", "mixtral-8x7b"), ("mixtral 47b", "mixtral-8x7b"),
    ("nemotron", "nemotron-h-8b"), ("nemotron-h ٨", "nemotron-h-8b"), ("nvidia/Nemotron-H-8B-Base-8K", "nemotron-h-8b"),
])
def test_the_readers_examples(lang: str, query: str, first: str) -> None:
    assert search(S[lang], "model", query)[0] == first


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("query,first", [
    ("t4", "t4"), ("pro 6000", "rtx-pro-6000-blackwell"), ("٢٤ GB", "a10"), ("h100 nvl", "h100-nvl"),
    ("gh200", "gh200"), ("mi355", "mi355x"), ("4060", "rtx-4060-ti-16gb"), ("a100 40", "a100-40gb"),
])
def test_the_readers_card_examples(lang: str, query: str, first: str) -> None:
    assert search(S[lang], "gpu", query)[0] == first


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("gb", sorted({int(n) for g in api.GPUS.values() for n in re.findall(r"\b([0-9]+)GB", g.name)}))
def test_a_memory_size_lists_the_cards_of_that_size_first(lang: str, gb: int) -> None:
    sized = {g.id for g in api.GPUS.values() if re.search(rf"\b{gb}GB", g.name)}
    for query in (f"{gb} GB", f"{gb}gb", f"{gb} GB".translate(ARABIC_DIGITS)):
        found = search(S[lang], "gpu", query)
        assert set(found[:len(sized)]) == sized, (query, found[:len(sized) + 2])


def sized(gb: int) -> set[str]:
    """The catalogue's cards of ``gb`` GB, by the size their name says ("NVIDIA L4 24GB")."""
    return {g.id for g in api.GPUS.values() if re.search(rf"\b{gb}GB", g.name)}


def test_the_arabic_words_find_cards_on_the_arabic_page() -> None:
    cards = sized(24)
    assert len(cards) > 1 and set(search(S["ar"], "gpu", "٢٤ جيجابايت")[:len(cards)]) == cards
    centre = search(S["ar"], "gpu", "مراكز البيانات")
    assert centre and all(api.GPUS[g].klass == "datacenter" for g in centre)
    assert all(api.GPUS[g].klass == "consumer" for g in search(S["ar"], "gpu", "consumer 16"))


def test_an_empty_query_lists_everything_in_order_and_nonsense_nothing() -> None:
    for lang in LANGS:
        assert search(S[lang], "model", "  ") == list(api.MODELS)
        assert search(S[lang], "gpu", "") == list(api.GPUS)
        assert search(S[lang], "model", "zzqx") == []


# ------------------------------------------------------------------------------------------------------------
# The picker as the page gets it: its markup (page/form.py `picker`) and the worker's answer (Page.search)
# ------------------------------------------------------------------------------------------------------------
def page(lang: str):
    from calculator.page import Page
    return Page(json.dumps(json.loads((STRINGS / f"{lang}.json").read_text(encoding="utf-8"))["calc"]), lang)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("kind", ["model", "gpu"])
def test_the_picker_is_an_aria_combobox_with_every_entry_grouped(lang: str, kind: str) -> None:
    from html.parser import HTMLParser

    from calculator.page.form import picker, picker_options

    value = next(iter(api.MODELS if kind == "model" else api.GPUS))
    html = str(picker(S[lang], "w", kind, value))
    # the page carries the listbox empty; the worker's first search fills it (Page.search with "listbox")
    filled = json.loads(page(lang).search(json.dumps({"kind": kind, "text": "", "listbox": f"w-{kind}-picker-listbox"})))
    assert filled["options"] == str(picker_options(S[lang], f"w-{kind}-picker-listbox", kind))
    listbox_open = f'id="w-{kind}-picker-listbox" role="listbox"'
    assert listbox_open in html and html.count("role=\"option\"") == 0
    start = html.index(">", html.index(listbox_open)) + 1
    html = html[:start] + str(picker_options(S[lang], f"w-{kind}-picker-listbox", kind, value)) + html[start:]

    class Tree(HTMLParser):
        def __init__(self) -> None:
            super().__init__()
            self.stack: list[dict] = []
            self.found: list[tuple[dict, list[str]]] = []   # (attrs, roles of its ancestors)

        def handle_starttag(self, tag, attrs):
            a = {"tag": tag, **{k: v for k, v in attrs}}
            self.found.append((a, [x.get("role", "") for x in self.stack]))
            if tag not in ("input", "br"):
                self.stack.append(a)

        def handle_endtag(self, tag):
            self.stack.pop()

    tree = Tree()
    tree.feed(html)
    (box, _), = [(a, up) for a, up in tree.found if a.get("role") == "combobox"]
    (listbox, _), = [(a, up) for a, up in tree.found if a.get("role") == "listbox"]
    assert box["tag"] == "input" and box["aria-expanded"] == "false" and box["aria-autocomplete"] == "list"
    assert box["aria-controls"] == listbox["id"] and listbox["aria-label"]
    labels = [a for a, _ in tree.found if a["tag"] == "label"]
    assert [lab["for"] for lab in labels] == [box["id"]]
    options = [(a, up) for a, up in tree.found if a.get("role") == "option"]
    # every entry once, in a group inside the listbox, the current one selected
    assert [a["data-value"] for a, _ in options] == [e.value for e in sorted(
        entries(S[lang], kind), key=lambda e: [g for g in dict.fromkeys(x.group for x in entries(S[lang], kind))]
        .index(e.group))]
    assert all(up[-2:] == ["listbox", "group"] for _, up in options)
    assert [a["data-value"] for a, _ in options if a["aria-selected"] == "true"] == [value]
    groups = [a for a, _ in tree.found if a.get("role") == "group"]
    ids = {a.get("id") for a, _ in tree.found}
    assert all(g["aria-labelledby"] in ids for g in groups) and len({a["id"] for a, _ in options}) == len(options)


@pytest.mark.parametrize("lang,text,values,announce", [
    ("en", "qwen3 8", ["qwen3-8b"], "1 match; first: Qwen3 8B"),
    ("ar", "qwen3 ٨", ["qwen3-8b"], "نتيجة واحدة، أولها: Qwen3 8B"),
    ("en", "zzqx", [], "Nothing matches. Try a family (“qwen”), a size (“8b”) or a repo id."),
])
def test_the_workers_search_answers_the_values_and_what_is_announced(lang, text, values, announce) -> None:
    out = json.loads(page(lang).search(json.dumps({"kind": "model", "text": text})))
    assert out == {"ok": True, "values": values, "announce": announce, "named": None, "fetch": None}


@pytest.mark.parametrize("text", ["24 GB", "16 GB", "nvidia", "amd", "b200"])
def test_the_workers_search_counts_in_the_readers_plural_and_never_raises(text: str) -> None:
    """The count of the matches said with the Arabic table's plural form for it (calc.units.matches: «نتيجة واحدة»,
    «5 نتائج», «32 نتيجةً»), whatever the catalogue holds."""
    from calculator.page.text import plural_category

    out = json.loads(page("ar").search(json.dumps({"kind": "gpu", "text": text})))
    n = len(out["values"])
    assert n == len(search(S["ar"], "gpu", text)) > 0
    form = S["ar"].table["units"]["matches"][plural_category("ar", n)]
    assert out["announce"].startswith(form.replace("{n}", str(n)) + "،"), out["announce"]
    for bad in ('{"kind": "nope"}', "not json", "[]", '{"text": 3}'):
        assert json.loads(page("en").search(bad)) == {"ok": False, "values": [], "announce": "", "named": None}


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("kind", ["model", "gpu"])
def test_a_link_finds_the_entry_its_text_names_exactly(lang: str, kind: str) -> None:
    """What a link may carry for a picker's key (page/search.py ``named``): the id, the repo and every alias of every
    entry, in any case and with the Hub's address, name that entry; a family or a prefix names none."""
    p = page(lang)
    for e in entries(S[lang], kind):
        names = [e.value, e.value.upper()]
        if kind == "model":
            m = api.MODELS[e.value]
            names += [m.hf_id, m.hf_id.lower(), f"https://huggingface.co/{m.hf_id}", *m.aliases]
        for name in names:
            assert json.loads(p.search(json.dumps({"kind": kind, "text": name})))["named"] == e.value, name
    for vague in ("qwen3", "llama", "nvidia", "24 GB", ""):
        assert json.loads(p.search(json.dumps({"kind": kind, "text": vague})))["named"] is None


@pytest.mark.parametrize("lang", ["ar", "en"])
@pytest.mark.parametrize("query,spaced", [("gemma3 12b", "gemma 3 12b"), ("llama3.1 8b", "llama 3.1 8b")])
def test_a_family_written_with_its_number_finds_what_the_spaced_name_finds(lang, query, spaced) -> None:
    """Issue 42, point 8: "gemma3 12b" found nothing where "gemma 3 12b" found Gemma 3 12B."""
    want = search(strings(lang), "model", spaced)
    assert want and search(strings(lang), "model", query)[:1] == want[:1]
