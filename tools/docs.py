"""Every generated block of the repository's documents, written by one command.

    python -m tools.docs                 # rewrite every block (``make docs``), and calculator/evidence.py from
                                             # the measured speeds; about two minutes: the time blocks fit the time
                                             # coefficients once per source held out
    python -m tools.docs --check         # write nothing; list the stale blocks, exit 1 if there is one
    python -m tools.docs --with-speed    # also measure the speed blocks again, on this machine

A block is what lies between the lines ``<!-- generated:begin NAME [ARG ...] -->`` and ``<!-- generated:end NAME -->``
(each a line of its own) in one of ``DOCUMENTS``; ``BLOCKS`` maps each name to the function that writes it (in the document's language: an Arabic
page, ``docs/<page>.md``, gets the Arabic text), from the code and data of the repository only. Nothing between the
markers is written by hand: the tests re-render every block and fail when one differs
(``tests/unit/test_doc_blocks.py`` for the blocks made from the code alone, ``tests/accuracy/test_doc_blocks_data.py``
for those made from the measured data). Speed blocks hold the figures of a benchmark that times this machine
(``benchmarks/page.py``, ``benchmarks/estimator_speed.py``): no test can re-render them, so only ``--with-speed``
rewrites them, with the date and the machine.

The league tables read the peers' committed answers (``benchmarks/peer_adapters/results/*.json``): they change when
our figures change, without the peers' venv; ``python benchmarks/peers.py --run-peers`` (and ``peers_time.py``)
asks the peers again.
"""
from __future__ import annotations

import argparse
import contextlib
import datetime as _dt
import functools
import importlib
import io
import os
import platform
import re
import subprocess
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
ESTIMATOR_MD = ROOT / "ESTIMATOR.md"

#: Documents whose generated blocks this module writes (plus every Markdown page of the site, under docs/).
DOCUMENTS = ("README.md", "CONTRIBUTING.md", "ESTIMATOR.md", "benchmarks/README.md", "cms/README.md")

#: Who checks a block, by what it needs: ``unit`` (the code alone: the unit tier), ``accuracy`` (the measured data, and
#: for the time blocks a minute or two of fitting the time coefficients with each source held out: the accuracy
#: tier), ``speed`` (it times this machine: only ``--with-speed`` writes it, no test can).
TIERS = ("unit", "accuracy", "speed")

#: A marker is a line of its own (a marker quoted inside a sentence, as here, is not one).
BLOCK = re.compile(r"^<!-- generated:begin (?P<name>[a-z0-9-]+)(?P<args>(?: [^ >]+)*) -->\n"
                   r"(?P<body>.*?)^<!-- generated:end (?P=name) -->$", re.S | re.M)
ANY_MARKER = re.compile(r"^<!-- generated:(begin|end) ([^ >]*)", re.M)


@dataclass(frozen=True)
class Block:
    name: str
    tier: str                                         # one of TIERS
    render: Callable[[str, tuple[str, ...]], str]    # (language, marker arguments) -> Markdown
    about: str                                        # what it shows (CONTRIBUTING.md lists them)
    langs: tuple[str, ...] = ("en",)


def documents() -> list[Path]:
    """Every document that may hold generated blocks, in a stable order."""
    fixed = [ROOT / d for d in DOCUMENTS if (ROOT / d).is_file()]
    return fixed + sorted((ROOT / "docs").rglob("*.md"))


def language_of(path: Path) -> str:
    """Arabic for a page of the site in its source language (``docs/<page>.md``), English otherwise."""
    inside_docs = (ROOT / "docs") in path.parents
    return "ar" if inside_docs and not path.name.endswith(".en.md") else "en"


def strip_blocks(text: str) -> str:
    """The text with every generated block's body blanked (what a person wrote), its lines kept in place."""
    def blank(m: re.Match[str]) -> str:
        whole, body = m.group(0), m.group("body")
        i = m.start("body") - m.start()
        return whole[:i] + "\n" * body.count("\n") + whole[i + len(body):]

    return BLOCK.sub(blank, text)


# =====================================================================================================================
# What the blocks are made of: each benchmark run once per process
# =====================================================================================================================
@functools.cache
def output(script: str, *args: str) -> str:
    """What ``python benchmarks/<script>.py ARGS`` prints, run in this process (once per process)."""
    module = importlib.import_module(f"benchmarks.{script}")
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        rc = module.main(list(args))
    if rc:
        raise RuntimeError(f"python benchmarks/{script}.py {' '.join(args)} exited {rc}")
    return buf.getvalue()


@functools.cache
def throughput_scores() -> tuple[Any, Any, Any]:
    """``benchmarks/time_accuracy.py``'s rows, in-sample scores and leave-one-source-out scores (the one slow part:
    every time block and test shares it)."""
    from benchmarks import time_accuracy as throughput

    rows, scored = throughput.run()
    return rows, scored, throughput.loso(rows)[0]


@functools.cache
def reports() -> dict[str, dict[str, Any]]:
    """What each benchmark's ``--json`` prints, by script (``throughput`` with ``--loso``), the slow ones included."""
    from benchmarks import peers_time
    from benchmarks import time_accuracy as throughput

    rows, scored, held_out = throughput_scores()
    return {**fast_reports(), "throughput": throughput.to_json(rows, scored, held_out),
            "peers_time": peers_time.report(held_out=held_out, command=f"{peers_time.COMMAND} --json")}


@functools.cache
def fast_reports() -> dict[str, dict[str, Any]]:
    """The ``--json`` of the benchmarks that run in seconds: accuracy, traces and the memory league."""
    import json

    return {script: json.loads(output(script, "--json")) for script in ("accuracy", "traces", "peers")}


def report_of(script: str) -> dict[str, Any]:
    """One benchmark's ``--json``, without running the slow ones when a fast one is asked for."""
    fast = fast_reports()
    return fast[script] if script in fast else reports()[script]


def _fence(lead: str, text: str) -> str:
    return f"{lead}\n\n```text\n{text.rstrip()}\n```\n"


def _from(text: str, first_line: str) -> str:
    """``text`` from its line that starts with ``first_line`` on."""
    lines = text.splitlines()
    start = next(i for i, ln in enumerate(lines) if ln.startswith(first_line))
    return "\n".join(lines[start:])


def _data(kind: str) -> str:
    from benchmarks import calibration
    from benchmarks import time_accuracy as throughput
    from benchmarks.league import shown_path

    return shown_path(calibration.DEFAULT_DATA if kind == "memory" else throughput.DEFAULT_DATA)


# =====================================================================================================================
# The blocks
# =====================================================================================================================
def request_keys(lang: str, args: tuple[str, ...]) -> str:
    from calculator.inputs import markdown_table

    return markdown_table() + "\n"


def accuracy_summary(lang: str, args: tuple[str, ...]) -> str:
    return _fence(f"`python benchmarks/accuracy.py` on `{_data('memory')}` (the end of its output; the lines above "
                  "it give every row):", _from(output("accuracy"), "Summary"))


def traces_summary(lang: str, args: tuple[str, ...]) -> str:
    return _fence("`python benchmarks/traces.py` on the committed traces (`tests/data/traces/`):", output("traces"))


def rl_summary(lang: str, args: tuple[str, ...]) -> str:
    return _fence("`python benchmarks/rl.py` on the oracle's GRPO traces (`tests/data/grpo/grpo_dev.json`):",
                  output("rl"))


def throughput_summary(lang: str, args: tuple[str, ...]) -> str:
    from benchmarks import time_accuracy as throughput

    rows, scored, held_out = throughput_scores()
    text = throughput.render(rows, scored, held_out)
    return _fence(f"`python benchmarks/time_accuracy.py --loso` on `{_data('time')}` (the end of its output; the lines "
                  "above it give every row and every row left out):", _from(text, "Summary"))


def _pct(fraction: float, signed: bool = False) -> str:
    """A percentage in a Markdown block as the site's pages write it, the sign attached ("6.1%", "−2.6%")."""
    return f"{fraction * 100:+.1f}%".replace("-", "−") if signed else f"{fraction * 100:.1f}%"


_COMPARED = {"allocated_bytes": "allocated", "reserved_bytes": "reserved", "peak_bytes_per_gpu": "nvidia-smi"}


def accuracy_rows(lang: str, args: tuple[str, ...]) -> str:
    """The named rows of ``benchmarks/accuracy.py``, each with its error now (the marker names the rows)."""
    rows = {r["id"]: r for r in fast_reports()["accuracy"]["rows"]}
    lines = ["| row | method | compared | measured | estimate | error |", "|---|---|---|---:|---:|---:|"]
    for rid in args:
        r = rows[rid]
        gib = r["measured_bytes"] % (1 << 20) == 0
        div, unit = ((1 << 30), "GiB") if gib else (1e9, "GB")
        err = "—" if r["error"] is None else _pct(r["error"], signed=True)
        lines.append(f"| {rid} | {r['method']} | {_COMPARED[r['compare']]} | "
                     f"{r['measured_bytes'] / div:.2f} {unit} | {r['estimate_bytes'] / div:.2f} {unit} | {err} |")
    return "From `python benchmarks/accuracy.py`:\n\n" + "\n".join(lines) + "\n"


def throughput_rows(lang: str, args: tuple[str, ...]) -> str:
    """The named rows of ``benchmarks/time_accuracy.py --loso``: measured and estimated tokens/s per GPU, the error with
    the shipped coefficients and with the row's source held out."""
    rows = {r["id"]: r for r in reports()["throughput"]["rows"]}
    lines = ["| row | method | GPU | measured tok/s/GPU | estimate | error | source held out |",
             "|---|---|---|---:|---:|---:|---:|"]
    for rid in args:
        r = rows[rid]
        lines.append(f"| {rid} | {r['method']} | {r['gpu']} | {r['measured']:,.0f} | {r['estimate']:,.0f} | "
                     f"{_pct(r['error'], signed=True)} | {_pct(r['loso_error'], signed=True)} |")
    return "From `python benchmarks/time_accuracy.py --loso`:\n\n" + "\n".join(lines) + "\n"


def _league(kind: str, lang: str) -> str:
    from benchmarks import league, peers, peers_time

    if kind == "memory":
        rep = dict(fast_reports()["peers"], command=league.markdown_command(peers.COMMAND, lang))
        return peers.render_markdown(rep, lang=lang)
    rep = dict(reports()["peers_time"], command=league.markdown_command(peers_time.COMMAND, lang))
    return peers_time.render_markdown(rep, lang)


def memory_league(lang: str, args: tuple[str, ...]) -> str:
    return _league("memory", lang)


def time_league(lang: str, args: tuple[str, ...]) -> str:
    return _league("time", lang)


def memory_runs(lang: str, args: tuple[str, ...]) -> str:
    from benchmarks import peers

    return peers.render_runs_markdown(fast_reports()["peers"], lang)


_OWN = {
    "en": ("- **Against the published measurements**, per method and for the runs sharded across GPUs (FSDP or "
           "ZeRO-3), with each run read as its source states it (which statistic, which launch command): "
           "`python benchmarks/accuracy.py`. Median error: full fine-tuning {full}, LoRA {lora}, QLoRA {qlora}, "
           "sharded runs {sharded} (signed median {sharded_signed}), all {n} runs {overall}; worst {worst} "
           "(target: no run beyond {worst_target}).\n"
           "- **Against exact traces**: {traces_n} training steps of real Hugging Face transformers and PEFT code "
           "(full fine-tuning, LoRA, DPO, one rank of FSDP2 across 2 to 8 GPUs; Llama, Qwen2, Mistral and Gemma; "
           "512 to 32,768 tokens) whose allocated memory was counted exactly, allocation by allocation, on a machine "
           "without a GPU: `python benchmarks/traces.py`. Median error {traces_median}, worst {traces_worst}.\n"),
    "ar": ("- **مقارنة بالقياسات المنشورة**، لكل طريقة وللعمليات الموزعة على عدة بطاقات (<bdi>FSDP</bdi> أو "
           "<bdi>ZeRO-3</bdi>)، مع قراءة كل عملية كما يصفها مصدرها (أي إحصاء قيس، وبأي أمر تشغيل): "
           "<bdi>`python benchmarks/accuracy.py`</bdi>. الخطأ الوسيط: الضبط الدقيق الكامل {full}، و<bdi>LoRA</bdi> "
           "{lora}، و<bdi>QLoRA</bdi> {qlora}، والعمليات الموزعة {sharded} (والوسيط بالإشارة {sharded_signed})، "
           "والقياسات الـ{n} كلها {overall}؛ وأسوأ خطأ {worst} (والهدف ألّا يبتعد أي قياس بأكثر من "
           "{worst_target}).\n"
           "- **مقارنة بتتبعات دقيقة**: {traces_n} خطوة تدريب من شيفرة <bdi>Hugging Face transformers</bdi> "
           "و<bdi>PEFT</bdi> الحقيقية (ضبط دقيق كامل، و<bdi>LoRA</bdi>، و<bdi>DPO</bdi>، وبطاقة واحدة من "
           '<bdi>FSDP2</bdi> موزعة على <bdi dir="ltr">2</bdi> إلى <bdi dir="ltr">8</bdi> بطاقات؛ نماذج '
           "<bdi>Llama</bdi> و<bdi>Qwen2</bdi> و<bdi>Mistral</bdi> و<bdi>Gemma</bdi>؛ من "
           '<bdi dir="ltr">512</bdi> إلى <bdi dir="ltr">32,768</bdi> رمزًا) عُدّت ذاكرتها المخصصة بدقة، تخصيصًا '
           "تخصيصًا، على جهاز بلا بطاقة رسوميات: <bdi>`python benchmarks/traces.py`</bdi>. الخطأ الوسيط "
           "{traces_median}، وأسوأ خطأ {traces_worst}.\n"),
}


def own_accuracy(lang: str, args: tuple[str, ...]) -> str:
    """The accuracy page's two sentences on our estimator alone, with the figures of accuracy.py and traces.py."""
    from benchmarks.league import bdi

    acc, tr = fast_reports()["accuracy"]["summary"], fast_reports()["traces"]["summary"]
    f = {k: bdi(_pct(acc[k]["median_abs"]), lang) for k in ("full", "lora", "qlora", "sharded", "overall")}
    f |= {"sharded_signed": bdi(_pct(acc["sharded"]["median_signed"], signed=True), lang),
          "n": bdi(str(acc["overall"]["n"]), lang), "worst": bdi(_pct(acc["overall"]["worst_abs"]), lang),
          "worst_target": bdi(f"{acc['targets']['worst'] * 100:.0f}%", lang),
          "traces_n": bdi(str(tr["overall"]["n"]), lang), "traces_median": bdi(_pct(tr["overall"]["median_abs"]), lang),
          "traces_worst": bdi(_pct(tr["overall"]["worst_abs"]), lang)}
    return _OWN[lang].format(**f)


def targets(lang: str, args: tuple[str, ...]) -> str:
    """Every benchmark's targets, read from where each is declared (its ``TARGETS``)."""
    from benchmarks import accuracy, page, rl, traces
    from benchmarks import time_accuracy as throughput

    a, t, h, p = accuracy.TARGETS, traces.TARGETS, throughput.TARGETS, page.TARGETS
    rows = [
        ("`benchmarks/accuracy.py`", f"median error ≤ {a['median_overall']:.0%} over every point row and "
         f"≤ {a['median_per_method']:.0%} per method; no row beyond {a['worst']:.0%}", "`accuracy.TARGETS`"),
        ("`benchmarks/traces.py`", f"median error ≤ {t['median']:.0%}, worst ≤ {t['worst']:.0%}",
         "`traces.TARGETS`"),
        ("`benchmarks/rl.py`", f"GRPO training and generation phases: median error ≤ {rl.TARGETS['median']:.0%}, "
         f"worst ≤ {rl.TARGETS['worst']:.0%}, each phase", "`rl.TARGETS`"),
        ("`benchmarks/time_accuracy.py --loso`", f"median error ≤ {h['median_overall']:.0%} overall and "
         f"≤ {h['median_per_method']:.0%} per method with the shipped coefficients; with each source held out, "
         f"≤ {h['held_out_median_overall']:.0%} overall and ≤ {h['held_out_median_per_method']:.0%} per method",
         "`time_accuracy.TARGETS`"),
        ("`benchmarks/page.py`", f"calculator ready within {p['ready_vs_bare']} × bare Pyodide (cold and warm cache); "
         f"recalculation round trip median < {p['recalc_median_ms']} ms; worst Python time of a widget change "
         f"< {p['change_python_ms']} ms; an article ≤ "
         f"{p['article_bytes'] / 1e6:g} MB before a widget starts", "`page.TARGETS`"),
    ]
    lines = ["| benchmark | target | declared in |", "|---|---|---|", *(f"| {b} | {x} | {d} |" for b, x, d in rows)]
    return "\n".join(lines).replace("%", " %") + "\n"


def block_list(lang: str, args: tuple[str, ...]) -> str:
    """The registry itself: every block, what it shows, who checks it and where it is used."""
    used: dict[str, list[str]] = {}
    for path in documents():
        for name, _ in blocks_of(path):
            used.setdefault(name, [])
            rel = str(path.relative_to(ROOT))
            if rel not in used[name]:
                used[name].append(rel)
    check = {"unit": "unit tier", "accuracy": "accuracy tier", "speed": "`--with-speed` only"}
    lines = ["| block | shows | checked by | in |", "|---|---|---|---|"]
    for b in BLOCKS.values():
        where = ", ".join(f"`{u}`" for u in used.get(b.name, []))
        lines.append(f"| `{b.name}` | {b.about} | {check[b.tier]} | {where} |")
    return "\n".join(lines) + "\n"


def _machine() -> str:
    return (f"{os.cpu_count()} CPU cores, {platform.machine()}, {platform.system()}, "
            f"{platform.python_implementation()} {platform.python_version()}")


def _speed(script: str, lead: str) -> str:
    """Run a speed benchmark as a command of its own (a fresh interpreter, as a reader would run it)."""
    proc = subprocess.run([sys.executable, f"benchmarks/{script}.py"], cwd=ROOT, capture_output=True, text=True,
                          check=True)
    date = _dt.datetime.now(_dt.timezone.utc).date().isoformat()
    return _fence(f"`python benchmarks/{script}.py` on {date} ({_machine()}; {lead}):", proc.stdout)


def page_speed(lang: str, args: tuple[str, ...]) -> str:
    return _speed("page", "headless Debian Chromium, the site built and served on 127.0.0.1")


def estimator_speed(lang: str, args: tuple[str, ...]) -> str:
    return _speed("estimator_speed", "one process, nothing else asked of it")


BLOCKS: dict[str, Block] = {b.name: b for b in (
    Block("request-keys", "unit", request_keys, "ESTIMATOR.md's table of request keys, from calculator/inputs.py"),
    Block("accuracy-summary", "accuracy", accuracy_summary, "the summary printed by benchmarks/accuracy.py"),
    Block("accuracy-rows", "accuracy", accuracy_rows, "named rows of benchmarks/accuracy.py with their error now"),
    Block("traces-summary", "accuracy", traces_summary, "the output of benchmarks/traces.py"),
    Block("rl-summary", "accuracy", rl_summary, "the output of benchmarks/rl.py (GRPO phases against the oracle)"),
    Block("own-accuracy", "accuracy", own_accuracy, "the accuracy page's figures of our estimator alone",
          ("en", "ar")),
    Block("memory-league", "accuracy", memory_league, "the memory league table (benchmarks/peers.py --markdown)",
          ("en", "ar")),
    Block("memory-runs", "accuracy", memory_runs, "every run of the memory league with each tool's figure",
          ("en", "ar")),
    Block("throughput-summary", "accuracy", throughput_summary, "the summary printed by benchmarks/time_accuracy.py --loso"),
    Block("throughput-rows", "accuracy", throughput_rows, "named rows of benchmarks/time_accuracy.py --loso"),
    Block("time-league", "accuracy", time_league, "the time league table (benchmarks/peers_time.py --markdown)",
          ("en", "ar")),
    Block("targets", "unit", targets, "every benchmark's targets, from its TARGETS"),
    Block("block-list", "unit", block_list, "this list of blocks (tools/docs.py BLOCKS)"),
    Block("page-speed", "speed", page_speed, "the output of benchmarks/page.py"),
    Block("estimator-speed", "speed", estimator_speed, "the output of benchmarks/estimator_speed.py"),
)}


# =====================================================================================================================
# Figures copied by hand
# =====================================================================================================================
#: The words a count of each benchmark is written with (English and Arabic), after the number.
COUNT_WORDS = {
    "accuracy": r"runs?|rows?|measurements?|measured|usable|points?|قياس\w*",
    "traces": r"traces?|training steps?|steps?|exact|تتبع\w*|خطو\w*",
    "throughput": r"runs?|rows?|speeds?|measured|published|usable|قياس\w*",
}
COUNT_WORDS["peers"] = COUNT_WORDS["peers_time"] = COUNT_WORDS["accuracy"]
_SPACE = "[ \u00a0\u202f]"


@dataclass(frozen=True)
class Figure:
    """A figure a benchmark reports (a median, a worst error, a count) and how it is written in a document."""

    what: str                 # e.g. "accuracy overall median_abs"
    text: str                 # as printed: "4.1 %", "78 runs", "15/15"
    pattern: re.Pattern[str]


def _percent(what: str, value: float | None, exempt: set[str]) -> list[Figure]:
    """A percentage as printed with one decimal; a sign before it does not matter (−2.6 % copies +2.6's digits
    too), a digit or a point before or after it does (16.1 % is not 6.1 %). Targets are exempt."""
    if value is None:
        return []
    digits = f"{abs(value):.1f}"
    if digits in exempt:
        return []
    return [Figure(what, f"{digits} %", re.compile(rf"(?<![\d.]){re.escape(digits)}(?!\d){_SPACE}?%"))]


def _count(what: str, n: int, words: str) -> list[Figure]:
    """A count with the word it counts (``78 runs``, ``<bdi dir="ltr">78</bdi> قياسًا``) or as printed (``n=78``).
    Counts below 2 say nothing on their own and are left out."""
    if n < 2:
        return []
    num = rf"(?<![\d.,]){n}(?![\d.,])"
    return [Figure(what, f"{n} …", re.compile(rf"{num}(?:</bdi>)?{_SPACE}+(?:{words})\b|\bn{_SPACE}?={_SPACE}?{n}\b"))]


def _fraction(what: str, part: int, whole: int) -> list[Figure]:
    if whole < 2:
        return []
    return [Figure(what, f"{part}/{whole}", re.compile(rf"(?<![\d./]){part}/{whole}(?![\d/])"))]


def figures(script: str, report: dict[str, Any]) -> list[Figure]:
    """Every median, worst error and count that ``python benchmarks/<script>.py --json`` reports."""
    words = COUNT_WORDS[script]
    out: list[Figure] = []
    if script in ("accuracy", "traces", "throughput"):
        summaries = {"": report["summary"], **({"held out ": report["loso_summary"]} if "loso_summary" in report
                                                 else {})}
        targets = report.get("targets") or report["summary"].get("targets", {})
        exempt = {f"{t * 100:.1f}" for t in targets.values()}
        for label, sm in summaries.items():
            groups = {**sm.get("groups", {}), **{k: v for k, v in sm.items()
                                                   if isinstance(v, dict) and "median_abs" in v}}
            for g, st in groups.items():
                for key in ("median_abs", "worst_abs", "median_signed"):
                    v = st.get(key)
                    out += _percent(f"{script} {label}{g} {key}", None if v is None else v * 100, exempt)
                out += _count(f"{script} {label}{g} n", st["n"], words)
            for kind in ("capacity", "bracket"):
                if kind in sm:
                    out += _fraction(f"{script} {kind} passed", sm[kind]["passed"], sm[kind]["n"])
                    out += _count(f"{script} {kind} n", sm[kind]["n"], words)
    else:
        for s in report["summary"]:
            what = f"{script} {s['group']} {s['tool']}"
            out += _percent(f"{what} median", s["median"], set()) + _percent(f"{what} worst", s["worst"], set())
            out += [f for r, v in s["same_rows"].items() for f in _percent(f"{what} {r} on its rows", v, set())]
            out += _fraction(f"{what} rows", s["rows"], s["of"]) + _count(f"{what} rows", s["rows"], words)
        out += _count(f"{script} runs scored", report["counts"]["scored"], words)
    return out


def hand_copied(scripts: Iterable[str]) -> list[str]:
    """``file:line: text (what)`` for each figure of these benchmarks' reports written outside a generated block."""
    found = []
    figs = [f for s in scripts for f in figures(s, report_of(s))]
    for path in documents():
        text = strip_blocks(path.read_text(encoding="utf-8"))
        for f in figs:
            for m in f.pattern.finditer(text):
                line = text.count("\n", 0, m.start()) + 1
                found.append(f"{path.relative_to(ROOT)}:{line}: {m.group(0)!r} is {f.what}")
    return sorted(set(found))


# =====================================================================================================================
# Writing and checking
# =====================================================================================================================
class BlockError(ValueError):
    """A marker this module cannot honour: an unknown name, a begin without its end, a language it has no text in."""


def check_markers(text: str, where: str) -> None:
    """Every marker is a known block, each begin has its end, and blocks do not nest or cross."""
    spans = [(m.start(), m.end()) for m in BLOCK.finditer(text)]
    for m in ANY_MARKER.finditer(text):
        if m.group(2) not in BLOCKS:
            raise BlockError(f"{where}: unknown generated block {m.group(2)!r} (known: {', '.join(BLOCKS)})")
        if not any(a <= m.start() < b for a, b in spans):
            raise BlockError(f"{where}: <!-- generated:{m.group(1)} {m.group(2)} --> has no matching "
                             f"{'end' if m.group(1) == 'begin' else 'begin'} marker")
    for m in BLOCK.finditer(text):
        if ANY_MARKER.search(m.group("body")):
            raise BlockError(f"{where}: generated block {m.group('name')!r} holds another marker")


def render(name: str, lang: str, args: Sequence[str] = ()) -> str:
    block = BLOCKS[name]
    if lang not in block.langs:
        raise BlockError(f"generated block {name!r} has no {lang} text (it has: {', '.join(block.langs)})")
    return block.render(lang, tuple(args))


def refreshed(text: str, lang: str, tiers: Iterable[str], where: str = "text") -> str:
    """``text`` with the blocks of the given tiers re-rendered (the others kept as they are)."""
    check_markers(text, where)
    wanted = set(tiers)

    def one(m: re.Match[str]) -> str:
        name, args = m.group("name"), m.group("args").split()
        if BLOCKS[name].tier not in wanted:
            return m.group(0)
        body = render(name, lang, args).strip("\n")
        return f"<!-- generated:begin {name}{m.group('args')} -->\n\n{body}\n\n<!-- generated:end {name} -->"

    return BLOCK.sub(one, text)


def blocks_of(path: Path) -> list[tuple[str, tuple[str, ...]]]:
    return [(m.group("name"), tuple(m.group("args").split()))
            for m in BLOCK.finditer(path.read_text(encoding="utf-8"))]


def _changed(tiers: Iterable[str]) -> Iterator[tuple[Path, str, str]]:
    """(document, its text, its text with the blocks of ``tiers`` re-rendered) for each document that would change."""
    tiers = tuple(tiers)
    for path in documents():
        text = path.read_text(encoding="utf-8")
        new = refreshed(text, language_of(path), tiers, str(path.relative_to(ROOT)))
        if new != text:
            yield path, text, new


def stale(tiers: Iterable[str]) -> list[str]:
    """``path: block`` for each block of the given tiers whose text differs from what it would be now."""
    out = []
    for path, text, new in _changed(tiers):
        old_blocks = {m.group(0) for m in BLOCK.finditer(text)}
        out += [f"{path.relative_to(ROOT)}: {m.group('name')}" for m in BLOCK.finditer(new)
                if m.group(0) not in old_blocks]
    return out


def write(tiers: Iterable[str], log=sys.stdout) -> list[Path]:
    written = []
    for path, _, new in _changed(tiers):
        path.write_text(new, encoding="utf-8")
        written.append(path)
        print(f"{path.relative_to(ROOT)}: rewritten", file=log)
    if not written:
        print("every generated block is up to date", file=log)
    return written


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m tools.docs", description=__doc__.split("\n\n")[0],
                                epilog="blocks: " + "; ".join(f"{b.name} ({b.tier}): {b.about}"
                                                               for b in BLOCKS.values()))
    p.add_argument("--check", action="store_true", help="write nothing; list the stale blocks (exit 1 if any)")
    p.add_argument("--with-speed", action="store_true",
                   help="also run the speed benchmarks (page.py builds the site and drives Chromium) and rewrite "
                        "their blocks with this machine's figures")
    a = p.parse_args(argv)
    tiers = TIERS if a.with_speed else ("unit", "accuracy")
    try:
        return _run(tiers, check=a.check)
    except BlockError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2


def _evidence_stale() -> list[str]:
    """calculator/evidence.py against the data it is generated from (benchmarks/evidence.py), when the accuracy tier
    is asked for: it is the package's generated table, rewritten with the blocks."""
    from benchmarks import evidence
    return [] if evidence.TARGET.read_text(encoding="utf-8") == evidence.source() else [
        f"{evidence.TARGET.relative_to(ROOT)} (python -m benchmarks.evidence --write)"]


def _run(tiers: tuple[str, ...], *, check: bool) -> int:
    if check:
        found = stale(tiers) + (_evidence_stale() if "accuracy" in tiers else [])
        copied = hand_copied(("accuracy", "traces", "peers", "throughput", "peers_time"))
        for line in found:
            print(f"stale: {line}")
        for line in copied:
            print(f"copied by hand: {line}")
        print(f"{len(found)} stale block(s) (`python -m tools.docs` rewrites them), {len(copied)} figure(s) "
              "copied by hand outside a block")
        return 1 if found or copied else 0
    write(tiers)
    if "accuracy" in tiers:
        from benchmarks import evidence
        evidence.main(["--write"])
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
