"""``python -m calculator``: the same estimate in a terminal.

    python -m calculator --model llama-3.1-8b --method qlora --seq-len 2048 --gpu rtx-4090
    python -m calculator --config path/to/config.json --method lora --json
    python -m calculator --model llama-3.1-8b --method qlora --gpu rtx-4090 --dataset-tokens 10000000 \
        --gpu-hour-price 0.5

One flag per request key, made from its spec in ``calculator/inputs.py`` by its kind of value (underscores become
dashes); unset flags take the API defaults. The text says every figure with the page's English words (the English
string table, ``calculator/strings/en.json``) and formats (``calculator/page/text.py``).
Bad input prints the error code and field and exits with status 2, whatever it is: a flag's value (``--epochs nan``
is ``out_of_range``, as the API says), a ``--config`` that is not a regular file or is longer than the API reads
(``wrong_type`` / ``too_large``, and nothing beyond that limit is read), nested too deep, not JSON. Every string the
text output echoes (a config's name, an error's field) has its control characters escaped, so a hostile
``config.json`` cannot drive the terminal; ``--json`` prints JSON, which escapes them itself.
``--model owner/name`` that the catalogue does not know is read from the local Hugging Face cache's config.json, and
with ``--fetch`` from huggingface.co (``read_hub``: the path ``calculator/hub.py`` names, the page's button's), then
estimated as a ``--config`` is.
``--export TARGET --out DIR`` writes the target's files (``write_export``: never through a link planted in DIR; the
files replaced are named; a DIR still holding an earlier export's other files is refused unless ``--force``).
"""
from __future__ import annotations

import argparse
import contextlib
import json
import os
import stat
import sys
import tempfile
import unicodedata
from dataclasses import dataclass
from typing import Any

from pathlib import Path

from . import __version__, hub, vocab
from .api import MAX_INPUT_CHARS, answer, answer_text, read_json
from .errors import FileRefused, HubRefused, InputError, StaleFiles
from .export._quote import escape as _escape      # one escape for what the CLI echoes and what an export writes
from .inputs import INPUTS, InputSpec
from .page.pieces import describe_assumptions, stack_name
from .page.text import (STRING_TABLES, Strings, counted, duration, filled, fmt_bytes, fmt_int, fmt_number,
                        fmt_percent, money, plain_text, rate)

def _add_flag(p: argparse.ArgumentParser, spec: InputSpec) -> None:
    """One flag per request key, its argument made by the key's kind of value (calculator/values.py): the flags
    cannot drift from the API."""
    default = "null" if spec.default is None else spec.default
    help_text = f"{spec.doc} (default: {str(default).lower() if isinstance(default, bool) else default})"
    p.add_argument(spec.flag, default=None, **spec.value_kind.cli_argument(spec, help_text.replace("%", "%%")))


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m calculator", description="GPU memory estimate for LLM fine-tuning.")
    p.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    src = p.add_mutually_exclusive_group()
    src.add_argument("--model", help="catalogue id or Hugging Face repo id (any case), e.g. llama-3.1-8b or "
                                      "Qwen/Qwen3-8B")
    src.add_argument("--config", metavar="PATH", help="a Hugging Face config.json")
    p.add_argument("--fetch", action="store_true",
                   help="for a --model owner/name the catalogue and the local Hugging Face cache lack: read its "
                        "config.json from huggingface.co (the request carries the id and this machine's address)")
    for spec in INPUTS:
        if spec.cli:
            _add_flag(p, spec)
    p.add_argument("--json", action="store_true", help="print the API output (JSON)")
    _add_export_flags(p)
    p.add_argument("--describe", action="store_true", help="print the schema: presets, GPUs, input specs")
    return p


#: The most bytes of a file the CLI reads (read_text_file): MAX_INPUT_CHARS characters of UTF-8 (4 bytes each at most) and a BOM.
MAX_CONFIG_BYTES = 4 * MAX_INPUT_CHARS + 3


def read_config(path: str) -> Any:
    """The config object of ``--config PATH``: the file as ``read_text_file`` reads any file the CLI is given (a
    regular file only, at most the API's input limit, UTF-8 with a BOM allowed), then the API's own JSON reader
    (``api.read_json``: size, depth, long integers, NaN). ``FileRefused`` with the API's code otherwise (text that is
    not UTF-8 is not JSON: ``invalid_json``)."""
    try:
        text = read_text_file(path)
    except FileRefused as exc:
        raise FileRefused("invalid_json" if exc.code == "wrong_type" and "UTF-8" in exc.reason else exc.code,
                          exc.reason) from None
    try:
        return read_json(text, "model")
    except InputError as err:
        raise FileRefused(err.code, "not a JSON object the estimator can read") from None


def _hub_cache() -> Path:
    """The local Hugging Face cache, where huggingface_hub keeps it: $HF_HUB_CACHE, else $HF_HOME/hub, else
    ~/.cache/huggingface/hub."""
    if os.environ.get("HF_HUB_CACHE"):
        return Path(os.environ["HF_HUB_CACHE"])
    home = os.environ.get("HF_HOME") or os.path.join(os.path.expanduser("~"), ".cache", "huggingface")
    return Path(home) / "hub"


def _cached(repo: str, name: str) -> dict[str, Any] | None:
    """A file of a repository's main branch from the local Hugging Face cache as a hub reply (``hub._read``'s form),
    or None when the cache does not hold it."""
    folder = _hub_cache() / f"models--{repo.replace('/', '--')}"
    try:
        commit = (folder / "refs" / "main").read_text(encoding="ascii").strip()
    except (OSError, ValueError):
        return None
    path = folder / "snapshots" / commit / name
    if not commit or not path.is_file():
        return None
    try:
        return {"status": 200, "text": read_text_file(str(path), hub.MAX_BYTES)}
    except FileRefused as exc:
        return {"error": "too_large"} if exc.code == "too_large" else {"status": 200, "text": ""}


def hub_get(url: str) -> dict[str, Any]:
    """GET one address with urllib, at most ``hub.MAX_BYTES`` read within ``hub.TIMEOUT_S``: a hub reply, as the
    page's ``hubGet`` gives it (``{"status", "text"}`` or ``{"error": "timeout" | "unreachable" | "too_large"}``)."""
    import socket
    import urllib.error
    import urllib.request

    request = urllib.request.Request(url, headers={"User-Agent": f"llm-vram-estimator/{__version__}"})
    try:
        with urllib.request.urlopen(request, timeout=hub.TIMEOUT_S) as reply:
            data = reply.read(hub.MAX_BYTES + 1)
            if len(data) > hub.MAX_BYTES:
                return {"error": "too_large"}
            return {"status": reply.status, "text": data.decode("utf-8-sig", errors="replace")}
    except urllib.error.HTTPError as exc:
        return {"status": exc.code}
    except urllib.error.URLError as exc:
        return {"error": "timeout" if isinstance(exc.reason, (TimeoutError, socket.timeout)) else "unreachable"}
    except (TimeoutError, socket.timeout):
        return {"error": "timeout"}
    except (OSError, ValueError):
        return {"error": "unreachable"}


def read_hub(repo: str, fetch: bool) -> Any:
    """The model of a ``--model owner/name`` the catalogue lacks, read along ``hub.step``'s path: each file from the
    local Hugging Face cache, else, with ``fetch``, from huggingface.co (``hub_get``). The config object, a catalogue
    id (an adapter whose base the catalogue has), or None (a file neither cached nor fetched); HubRefused when the
    Hub refuses it."""
    replies: dict[str, Any] = {}
    while True:
        nxt = hub.step(repo, replies)
        if "error" in nxt:
            raise HubRefused(nxt["error"], nxt["repo"])
        if "model" in nxt:
            return nxt["model"]
        if "config" in nxt:
            return read_json(nxt["config"], "model")       # step read it already: it passes
        reply = _cached(nxt["repo"], nxt["file"])
        if reply is None and not fetch:
            return None
        replies[nxt["fetch"]] = reply if reply is not None else hub_get(nxt["fetch"])


def request_from_args(a: argparse.Namespace) -> dict[str, Any]:
    """The request of the flags (``read_config`` for ``--config``; FileRefused when it cannot be read; ``read_hub``
    for a ``--model owner/name`` the catalogue lacks, HubRefused when the Hub refuses it)."""
    req: dict[str, Any] = {}
    if a.config:
        req["model"] = read_config(a.config)
    elif a.model is not None:
        req["model"] = a.model
        if hub.fetchable(a.model):
            read = read_hub(a.model, a.fetch)
            req["model"] = a.model if read is None else read
    for spec in INPUTS:
        if spec.cli and getattr(a, spec.name) is not None:
            req[spec.name] = getattr(a, spec.name)
    return req


#: The English string table: the CLI says every figure in the page's words and formats (calculator/page/text.py).
STRINGS = STRING_TABLES / "en.json"


def english() -> Strings:
    """The ``calc`` strings of the English table; OSError or ValueError when they cannot be read."""
    return Strings(json.loads(STRINGS.read_text(encoding="utf-8"))["calc"], "en")


def _text(markup: Any) -> str:
    return plain_text(markup)


#: Characters a terminal acts on or reorders: every control character (C0, DEL, C1: escape sequences, bells), a
#: lone surrogate (no terminal encoding can write it), and the bidirectional overrides and isolates (they reorder
#: what is shown: "Trojan Source").
_UNSHOWN = frozenset({"Cc", "Cs", "Co", "Cn"})     # control, surrogate, private use, unassigned
_BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c")


def printable(text: str) -> str:
    """``text`` with every character a terminal would act on written as its escape (``\\x1b``, ``\\ud800``,
    ``\\u202e``): what the text output echoes can show, never do, anything."""
    if text.isprintable() and not _BIDI_CONTROLS.intersection(text):
        return text
    return "".join(_escape(ch) if unicodedata.category(ch) in _UNSHOWN or ch in _BIDI_CONTROLS else ch for ch in text)


def _printable_tree(x: Any) -> Any:
    """Every string of an answer (keys too) through ``printable``."""
    if isinstance(x, str):
        return printable(x)
    if isinstance(x, dict):
        return {printable(str(k)): _printable_tree(v) for k, v in x.items()}
    if isinstance(x, list):
        return [_printable_tree(v) for v in x]
    return x


def _bytes(b: int) -> str:
    dec, binary = fmt_bytes(b)
    return f"{dec:>10} {binary:>11}"


def _render_grpo(g: dict[str, Any], s: Strings, gpu_name: str = "") -> list[str]:
    """The answer's ``grpo`` block as text: each phase's allocated memory (the peak marked), what stays resident, the
    peak as nvidia-smi would show it (the card's verdict below is this peak's), a vLLM engine's claim and pool, and
    the time of one optimizer step by phase on the card."""
    out = ["", f"  {s.get('out.grpo.title')}"]
    for ph in g["phases"]:
        mark = f"   {s.get('out.grpo.peak_mark')}" if ph["phase"] == g["peak_phase"] else ""
        out.append(f"  {s.get('out.grpo.phase.' + ph['phase']):<34}{_bytes(ph['allocated_bytes'])}{mark}")
    out.append(f"  {s.get('out.grpo.resident'):<34}{_bytes(g['resident_bytes'])}")
    out.append(f"  {s.get('out.peak') + ' (nvidia-smi)':<34}{_bytes(g['peak_bytes_per_gpu'])}")
    v = g.get("vllm")
    if v:
        out.append(f"  {s.get('out.grpo.vllm_claim'):<34}{_bytes(v['claim_bytes'])}")
        out.append(f"  {s.get('out.grpo.vllm_pool'):<34}{_bytes(v['kv_pool_bytes'])}")
        out.append("  " + _text(filled(s.get("out.grpo.vllm_seqs"), {"n": fmt_int(v["sequences_at_once"]),
                                                                      "rows": fmt_int(v["max_num_seqs"])})))
    t = g.get("time")
    if t:
        out.append(f"  {_text(filled(s.get('out.grpo.time'), {'gpu': gpu_name}))}")
        for phase, sec in t["seconds"].items():
            if sec:
                mark = f"   {s.get('out.grpo.dominant')}" if phase == t["dominant"] else ""
                out.append(f"    {s.get('out.grpo.phase.' + phase):<32}{sec:>10.2f} s{mark}")
        out.append(f"    {s.get('out.grpo.step'):<32}{t['step_s']:>10.2f} s")
    return out


def render(r: dict[str, Any], s: Strings) -> str:
    """The answer as text: the breakdown, the peak and its range, the counts and files, GRPO's phases, the verdict
    and remedies on the chosen card, the smallest setup, then the time and cost (``render_time``)."""
    out = _render_memory(r, s)
    if "grpo" in r:
        out += _render_grpo(r["grpo"], s, r["gpu"]["name"] if "gpu" in r else "")
    if "gpu" in r:
        out += _render_card(r, s)
    out += _render_smallest(r, s)
    out += render_time(r, s)
    return "\n".join(out)


def _render_memory(r: dict[str, Any], s: Strings) -> list[str]:
    """The setup's line, the breakdown, the peak and its range, the counts, files, resolved model and notes."""
    out = []
    m = r["model"]
    i = r["inputs"]
    objective = " + DPO" if i["dpo"] else " + GRPO" if i.get("grpo") else ""
    seq = r["grpo"]["training_seq_len"] if "grpo" in r else i["seq_len"]
    out.append(f"{m['name']} — {i['method']}{objective}, {i['precision']}, {i['optimizer']}, "
               f"micro-batch {i['micro_batch_size']} × seq {seq}, {i['num_gpus']} GPU(s), "
               f"sharding {i['sharding']}")
    out.append("(GB = 10^9 bytes, GiB = 2^30 bytes; per GPU)")
    out.append("")
    out.append(f"  {s.get('out.breakdown')}")
    for k, v in r["breakdown_bytes"].items():
        if v:
            out.append(f"  {s.get(f'components.{k}'):<34}{_bytes(v)}")
    out.append(f"  {'-' * 34}{'-' * 22}")
    # The driver shows the peak, except for a paged optimizer's state (managed memory outside PyTorch's allocator),
    # which it counts while the state sits on the card: then the peak is PyTorch's and the driver's figure follows.
    paged = r["driver_bytes"] != r["peak_bytes_per_gpu"]
    out.append(f"  {s.get('out.peak') + ('' if paged else ' (nvidia-smi)'):<34}{_bytes(r['peak_bytes_per_gpu'])}   "
               f"{s.get('phase_at.' + r['phase'])}")
    if paged:
        out.append(f"  {'  ' + s.get('out.driver'):<34}{_bytes(r['driver_bytes'])}")
    out.append(f"  {'  max_memory_reserved':<34}{_bytes(r['reserved_bytes'])}")
    out.append(f"  {'  max_memory_allocated':<34}{_bytes(r['allocated_bytes'])}")
    rg = r["range"]
    low, high = fmt_bytes(rg["low_bytes"]), fmt_bytes(rg["high_bytes"])
    out.append(f"  {s.get('out.range'):<34}{low[0]} {s.get('out.range_sep')} {high[0]} "
               f"({low[1]} {s.get('out.range_sep')} {high[1]})")
    out.append("")
    out.append(f"  {s.get('out.params')}: {fmt_int(r['params'])}; {s.get('out.trainable')}: "
               f"{fmt_int(r['trainable_params'])} ({fmt_percent(r['trainable_share'])})")
    for key, label in (("host_ram_bytes", "host_ram"), ("checkpoint_bytes", "checkpoint"), ("adapter_bytes", "adapter"),
                       ("optimizer_state_file_bytes", "optimizer_file")):
        if r[key] or key == "checkpoint_bytes":
            out.append(f"  {s.get(f'out.{label}')}: {fmt_bytes(r[key])[0]} ({fmt_bytes(r[key])[1]})")
    if r.get("resolved"):
        rv = r["resolved"]
        out.append("  " + _text(filled(s.get("out.resolved"), {"from": rv["from"], "name": rv["name"], "repo": rv["repo"]})))
    for n in r["notes"]:
        out.append(f"  {s.get(f'notes.{n}')}")
    out += _render_stack(r, s)
    if "experts_quantized" in r:      # the MoE QLoRA note's remedy, with what it saves
        out.append("  " + _text(filled(s.get("out.experts_quantized"), {
            "peak": "{} ({})".format(*fmt_bytes(r["experts_quantized"]["peak_bytes_per_gpu"]))})))
    if "data_parallel" in r:          # several cards without sharding: DDP's full copies, and what ZeRO-3 gives
        dp = r["data_parallel"]
        out.append("  " + _text(filled(s.get("out.data_parallel"), {
            "n": counted(s, "cards", dp["num_gpus"]),
            "sharded": "{} ({})".format(*fmt_bytes(dp["sharded_peak_bytes_per_gpu"]))})))
    return out


def _render_stack(r: dict[str, Any], s: Strings) -> list[str]:
    """The framework the figure was estimated with, and each key that moves it away from the plain stack, with what
    it adds (+) or saves (−) when that is large (the page's ``stack_html`` in lines)."""
    out = ["  " + _text(stack_name(s, r)) + (" " + s.get("out.stack_moved") if r.get("stack") else "")]
    for x in r.get("stack") or ():
        d = x["delta_bytes"]
        figure = f" ({'+' if d > 0 else '−'}{fmt_bytes(abs(d))[0]})" if x["large"] else ""
        out.append(f"    {_text(describe_assumptions(s, {x['key']: x['value']}))}{figure}")
    return out


def _render_card(r: dict[str, Any], s: Strings) -> list[str]:
    """The verdict on the chosen card, its adjustments and notes, the largest sequence and micro-batch, the
    remedies."""
    out = [""]
    g = r["gpu"]
    on = _text(filled(s.get("out.verdict_on"), {"gpu": g["name"]}))
    low, high = (fmt_percent(x, 0) for x in g["range_share"])
    share = _text(filled(s.get("out.share_range" if g["verdict"] == "at_edge" else "out.share"),
                         {"share": fmt_percent(g["share_of_memory"], 0), "low": low, "high": high}))
    out.append(f"  {on} {s.get('verdict.' + g['verdict'])} {share}")
    for code in r.get("adjusted", []):
        out.append("  " + _text(filled(s.get(f"out.adjusted.{code}"), {"gpu": g["name"]})))
    for code in r.get("card_notes", []):
        out.append("  " + _text(filled(s.get(f"out.card_notes.{code}"), {"gpu": g["name"]})))
    if "max_seq_len" in r:
        for key, value in (("max_seq_len", r["max_seq_len"]), ("max_micro_batch", r["max_micro_batch_size"])):
            out.append(f"  {_text(filled(s.get(f'out.{key}'), {'gpu': g['name']}))}: "
                       f"{fmt_int(value) if value > 0 else s.get('out.none_fits')}")
    if "remedies" in r:
        out.append(f"  {_text(filled(s.get('out.remedies'), {'gpu': g['name']}))}:")
        if not r["remedies"]:
            out.append(f"    {s.get('out.remedies_none')}")
    for x in r.get("remedies", []):
        kind = vocab.remedy(x["remedy"])
        name = filled(s.get(f"remedies.{x['remedy']}"),
                      {"n": counted(s, kind.noun, x["changes"][kind.amount])} if kind.amount else {})
        line = (f"    {_text(name)}: {s.get('out.remedy_alone')} {fmt_bytes(x['peak_bytes_alone'])[0]}"
                f" {s.get('out.fits') if x['fits_alone'] else s.get('verdict.does_not_fit')}")
        if x["peak_bytes_cumulative"] is not None:
            line += (f"{s.get('out.remedy_sep')}{s.get('out.remedy_cumulative')} "
                     f"{fmt_bytes(x['peak_bytes_cumulative'])[0]} "
                     f"{s.get('out.fits') if x['fits_cumulative'] else s.get('verdict.does_not_fit')}")
        out.append(line)
    return out


def _render_smallest(r: dict[str, Any], s: Strings) -> list[str]:
    """The smallest setup that fits, and the comfortable one."""
    out: list[str] = []
    sm = r.get("smallest_setup")
    if sm is not None:
        out.append("")
        out.append(f"  {s.get('out.smallest')}")
        if not sm.get("fits"):
            out.append(f"    {s.get('out.smallest_none')}")
        for key in ("fits", "comfortable"):
            v = sm.get(key)
            if v:
                out.append(f"    {s.get(f'out.smallest_{key}')} {v['num_gpus']} × {v['gpu']} — "
                           f"{fmt_bytes(v['peak_bytes_per_gpu'])[0]}")
    return out


def render_time(r: dict[str, Any], s: Strings) -> list[str]:
    """Time and cost lines (calculator/throughput.py): the chosen card's speed and run, the fastest and cheapest. A
    setup that does not fit its card gets no speed, time or cost (it cannot run): the lines say so and the fastest
    and cheapest setups that fit follow."""
    out: list[str] = []
    if "gpu" in r and r["gpu"]["verdict"] == "does_not_fit":
        g = r["gpu"]
        setup = f"{r['inputs']['num_gpus']} × {g['name']}"
        out += ["", "  " + _text(filled(s.get("out.time_not_fit"), {"setup": setup}))]
        r = {k: v for k, v in r.items() if k not in ("throughput", "run", "time_error")}
    if "time_error" in r:
        out += ["", "  " + _text(filled(s.get(f"out.time_error.{r['time_error']}"), {"gpu": r["gpu"]["name"]}))]
    tp = r.get("throughput")
    if tp:
        lo, hi = tp["range"]
        title = _text(filled(s.get("out.time_title"), {"setup": f"{tp['num_gpus']} × {tp['gpu']}"}))
        out += ["", f"  {title}",
                f"    {s.get('out.tokens_per_second_per_gpu')}: {fmt_int(round(tp['tokens_per_second_per_gpu']))} "
                f"({s.get('out.likely')} {fmt_int(round(lo))}–{fmt_int(round(hi))})"]
        if tp["num_gpus"] > 1:
            out.append(f"    {s.get('out.tokens_per_second')}: {fmt_int(round(tp['tokens_per_second']))}")
        step = _text(duration(s, tp["step_time_s"])) if tp["step_time_s"] >= 1 else \
            _text(filled(s.get("out.milliseconds"), {"n": fmt_int(round(tp["step_time_s"] * 1000))}))
        out.append(f"    {s.get('out.step_time')}: {step}; {s.get('out.mfu')}: {fmt_percent(tp['mfu'], 0)}")
        if (tp.get("evidence") or {}).get("basis") == "datasheet":
            out.append(f"    ({_text(s.get('out.datasheet_only'))})")
    run = r.get("run")
    if run:
        a, b = run["range_seconds"]
        out.append(f"    {s.get('out.run_time')}: {_text(duration(s, run['seconds']))} ({s.get('out.likely')} "
                   f"{_text(duration(s, a))} {s.get('out.range_sep')} {_text(duration(s, b))}); "
                   f"{s.get('out.gpu_hours')}: {fmt_number(run['gpu_hours'], 1 if run['gpu_hours'] < 100 else 0)}")
        if run["cost"] is not None:
            out.append(f"    {s.get('out.cost')}: {_text(money(s, run['cost'], run['currency']))} "
                       f"({run['price_per_gpu_hour']:g} {run['currency']} per GPU-hour, {run['price_source']})")
        else:
            out.append(f"    {s.get('out.cost')}: no price (give --gpu-hour-price)")
        if run["padding_share"]:
            out.append("    " + _text(filled(s.get("out.padding"), {"share": fmt_percent(run["padding_share"], 0)})))
    keys = []
    for key in ("fastest", "cheapest"):
        keys.append(key)
        best, measured = r.get(f"{key}_setup"), r.get(f"{key}_measured_setup")
        if best and measured and best["evidence"]["basis"] == "datasheet" and \
                (measured["gpu"], measured["num_gpus"]) != (best["gpu"], best["num_gpus"]):
            keys.append(f"{key}_measured")   # a datasheet-only winner, and the winner a measured run backs
    for key in keys:
        if f"{key}_setup" not in r:
            continue
        v = r[f"{key}_setup"]
        if not v:
            out.append(f"  {s.get(f'out.{key}')} {s.get('out.none_fits')}")
            continue
        detail = _text(rate(s, v["tokens_per_second"]))
        if v.get("seconds") is not None:
            detail += f", {_text(duration(s, v['seconds']))}"
        if v.get("cost") is not None:
            detail += f", {_text(money(s, v['cost']))}"
        elif v.get("cost_per_million_tokens") is not None:
            detail += ", " + _text(filled(s.get("out.per_million"), {"cost": money(s, v["cost_per_million_tokens"])}))
        if (v.get("evidence") or {}).get("basis") == "datasheet":
            detail += f"; {_text(s.get('out.datasheet_only'))}"
        out.append(f"  {s.get(f'out.{key}')} {v['num_gpus']} × {v['gpu']} ({detail})")
    return out


def _hub_words(code: str, repo: str) -> str:
    """Why the Hub gave no config, in the page's English words (``calc.hub.errors``), or the code alone."""
    try:
        return _text(filled(english().get(f"hub.errors.{code}"), {"repo": repo}))
    except (OSError, ValueError, KeyError):
        return code


def _fail(code: str, field: str | None, detail: str = "") -> int:
    """The one way the CLI refuses: ``error: CODE (FIELD)[: detail]`` on stderr, exit status 2."""
    line = f"error: {code} ({field})" + (f": {detail}" if detail else "")
    print(printable(line), file=sys.stderr)
    return 2


# ---------------------------------------------------------------------------------------------------------------
# From the estimate to a run and back (calculator/export): --import FILE (repeatable), --export TARGET --out DIR
# ---------------------------------------------------------------------------------------------------------------
#: The file cannot_express.json the export writes beside the target's files: the keys it could not write, why, and
#: what to do instead (codes, and the English string table's words for them).
CANNOT_FILE = "cannot_express.json"


def _add_export_flags(p: argparse.ArgumentParser) -> None:
    from .export import TARGETS

    p.add_argument("--import", dest="imports", action="append", metavar="FILE", default=[],
                   help="read a training config into the request (repeatable: a TRL, Axolotl, LLaMA-Factory or "
                        "Unsloth file plus its accelerate YAML / DeepSpeed JSON); flags given as well win over it")
    p.add_argument("--export", choices=TARGETS, metavar="TARGET",
                   help=f"write the setup as TARGET's files ({', '.join(TARGETS)}) into --out DIR")
    p.add_argument("--out", metavar="DIR", help="where --export writes (created if missing); the files it replaces "
                                                "are listed, and a folder still holding another export's files "
                                                "(an accelerate.yaml this setup no longer needs) is refused")
    p.add_argument("--force", action="store_true",
                   help="with --export: write into --out even when it holds another export's files (they are left "
                        "as they are, and listed)")


def read_text_file(path: str, limit: int | None = None) -> str:
    """The text of a regular file, at most ``limit`` characters (default: the API's ``MAX_INPUT_CHARS``), as UTF-8
    (a BOM allowed). Only a regular file is opened (a FIFO would wait for a writer, ``/dev/zero`` never ends, a
    directory is no file), without waiting on a FIFO swapped in after the check, and no more than the limit's bytes
    are read. ``FileRefused`` with the API's code otherwise: ``missing_field`` (cannot open), ``wrong_type`` (not a
    regular file, not UTF-8), ``too_large``."""
    import os

    from .api import MAX_INPUT_CHARS

    chars = MAX_INPUT_CHARS if limit is None else limit
    max_bytes = MAX_CONFIG_BYTES if limit is None else 4 * chars + 3     # UTF-8: 4 bytes a character at most, a BOM
    try:
        st = os.stat(path)
    except OSError as exc:
        raise FileRefused("missing_field", f"cannot open it: {exc.strerror or exc}") from None
    if not stat.S_ISREG(st.st_mode):
        raise FileRefused("wrong_type", "not a regular file")
    if st.st_size > max_bytes:
        raise FileRefused("too_large", f"longer than the {chars:,} characters the estimator reads")
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
        with os.fdopen(fd, "rb") as f:
            if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):
                raise FileRefused("wrong_type", "not a regular file")
            data = f.read(max_bytes + 1)
    except OSError as exc:
        raise FileRefused("missing_field", f"cannot read it: {exc.strerror or exc}") from None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise FileRefused("wrong_type", "not UTF-8 text") from None
    if len(data) > max_bytes or len(text) > chars:
        raise FileRefused("too_large", f"longer than the {chars:,} characters the estimator reads")
    return text


def _words(s: Strings | None, path: str, fallback: str) -> str:
    return s.get(path) if s is not None and s.has(path) else fallback


def _english_or_none() -> Strings | None:
    try:
        return english()
    except (OSError, ValueError, KeyError):
        return None


def import_files(paths: list[str]) -> dict[str, Any]:
    """``--import`` files read into a request (``calculator.export.answer_read``): the answer, ok or not. Files are
    named by their base name (``dpo.yaml`` tells a TRL DPO file); FileRefused for a file that cannot be read."""
    from .export import answer_read

    files: dict[str, str] = {}
    for path in paths:
        name = Path(path).name
        files[name if name not in files else path] = read_text_file(path)
    return answer_read({"target": "auto", "files": files})


@dataclass(frozen=True)
class Written:
    """What ``write_export`` did: the paths written, the names among them that replaced a file (or a link) already
    there, and an earlier export's files left beside them (``--force``)."""

    paths: list[Path]
    replaced: list[str]
    left: list[str]


def _earlier_export(folder: Path, names: set[str]) -> list[str]:
    """The files of the export last written into ``folder`` (the ``files`` its cannot_express.json lists) that are
    still there and that ``names`` does not hold: an accelerate.yaml or ds_config.json of a setup on more cards, a
    TRL config beside an Axolotl one. A cannot_express.json that lists none (unreadable, or hand-made) makes every
    other file in the folder one (not a folder in it), since nothing tells them apart."""
    manifest = folder / CANNOT_FILE
    if not manifest.is_file():
        return []
    try:
        listed = json.loads(read_text_file(str(manifest))).get("files")
    except (FileRefused, ValueError, AttributeError):
        listed = None
    if not isinstance(listed, list) or not all(isinstance(n, str) and Path(n).name == n for n in listed):
        listed = [p.name for p in folder.iterdir() if not p.is_dir()]
    return sorted(n for n in set(listed) - names - {CANNOT_FILE} if os.path.lexists(folder / n))


def write_export(answer: dict[str, Any], out: str, s: Strings | None, force: bool = False) -> Written:
    """The export's files and cannot_express.json (which lists them) written into ``out`` (created if missing).
    Each file is written whole or not at all: a new temporary file (``tempfile.mkstemp``: created exclusively, so a
    link planted under any name is never followed) renamed over the name, which replaces a file or a link there and
    never writes through it. ``StaleFiles`` before anything is written when the folder holds an earlier export's
    files this one does not write, unless ``force`` (they are then left, and named in ``Written.left``)."""
    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    e = answer["export"]
    cannot = [{**c, "reason_text": _words(s, f"run.reasons.{c['reason']}", c["reason"]),
               "what_to_do_text": None if c["what_to_do"] == "none" else
               _words(s, f"run.todo.{c['what_to_do']}", c["what_to_do"])}
              for c in e["cannot_express"]]
    files = dict(e["files"])
    for name in files:
        if Path(name).name != name or name in ("", ".", "..", CANNOT_FILE):   # the exporters name plain files
            raise ValueError(name)
    files[CANNOT_FILE] = json.dumps({"target": e["target"], "framework_version": e["framework_version"],
                                     "files": list(e["files"]), "cannot_express": cannot,
                                     "adjustments": e["adjustments"]}, indent=2, ensure_ascii=False) + "\n"
    left = _earlier_export(folder, set(files))
    if left and not force:
        raise StaleFiles(left)
    mask = os.umask(0)
    os.umask(mask)
    written, replaced = [], []
    for name, text in files.items():
        path = folder / name
        if os.path.lexists(path):
            replaced.append(name)
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=f".{name}.", suffix=".tmp")
        try:
            with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
                os.fchmod(f.fileno(), 0o666 & ~mask)          # as a plain open() would have made it
                f.write(text)
            os.replace(tmp, path)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise
        written.append(path)
    return Written(written, replaced, left)


def export_answer(target: str, req: dict[str, Any], s: Strings | None) -> dict[str, Any]:
    """``calculator.export.answer_export`` for the CLI: the files' comments and header in the English string
    table's words (``calc.run``), as the page writes them for an English reader."""
    from .export import answer_export, export
    from .errors import InputError
    from .page.run import comment_table, file_summary

    if s is None:
        return answer_export({"target": target, "request": req})

    def summary(adjusted: dict[str, Any]) -> dict[str, Any] | None:
        answer = json.loads(answer_text(json.dumps({**adjusted, "include": []})))
        return file_summary(s, answer["result"]) if answer["ok"] else None

    try:
        return {"ok": True, "export": export(req, target, summary=summary, text=comment_table(s)).as_json()}
    except InputError:
        return answer_export({"target": target, "request": req})     # the same refusal, as codes


def _export_main(a: argparse.Namespace, req: dict[str, Any], imported: dict[str, Any] | None) -> int:
    if not a.out:
        return _fail("missing_field", "out", "--export needs --out DIR")
    out_dir = Path(a.out)
    if out_dir.exists() and not out_dir.is_dir():
        return _fail("wrong_type", "out", f"--out {a.out}: not a directory")
    s = _english_or_none()
    answer = export_answer(a.export, req, s)
    if not answer["ok"]:
        e = answer["error"]
        if a.json:
            _print_json(answer)
        return _fail(e["code"], e["field"])
    try:
        done = write_export(answer, a.out, s, force=a.force)
    except StaleFiles as exc:
        return _fail("contradiction", "out", f"--out {a.out} holds another export's files that this setup does not "
                                             f"write: {', '.join(exc.stale)}; remove them, choose another folder, or "
                                             "give --force to write beside them")
    except OSError as exc:
        return _fail("wrong_type", "out", f"--out {a.out}: {exc.strerror or exc}")
    e = answer["export"]
    written = done.paths
    if a.json:
        _print_json({"ok": True, "export": {**{k: v for k, v in e.items() if k != "files"},
                                            "files": [p.name for p in written]},
                     "replaced": done.replaced, "left": done.left,
                     "out": str(out_dir), "imported": imported}, indent=1)
        return 0
    print(printable(f"{e['target']} {e['framework_version']}: wrote {len(written)} files into {out_dir}"))
    for path in written:
        print(printable(f"  {path}") + (" (replaced the file there)" if path.name in done.replaced else ""))
    if done.left:
        print(printable(f"  left as they were (another export's, not this setup's): {', '.join(done.left)}"))
    print(_reached_line(req, e))
    for c in e["cannot_express"]:
        why = _words(s, "run.reasons." + c["reason"], c["reason"])
        print(f"  cannot express {c['key']}={json.dumps(c['value'])}: the files give {json.dumps(c['becomes'])} "
              f"({why})")
    return 0


def _reached_line(req: dict[str, Any], e: dict[str, Any]) -> str:
    """The estimate the files reach as their framework runs them, beside the request's when the two differ."""
    reached = answer({**e["request"], "include": []})["result"]
    asked = answer({**req, "include": []})
    fw = reached["framework"]
    line = f"  estimate with these files, as {fw['id']} {fw['version']} runs them: peak " \
           f"{fmt_bytes(reached['peak_bytes_per_gpu'])[0]} per GPU"
    if asked["ok"] and asked["result"]["peak_bytes_per_gpu"] != reached["peak_bytes_per_gpu"]:
        line += f" (the request's own: {fmt_bytes(asked['result']['peak_bytes_per_gpu'])[0]}; why: 'cannot express' below)"
    return line


def _print_json(obj: Any, indent: int | None = None) -> None:
    """``--json``'s output: strict JSON (no NaN or Infinity, which JSON parsers refuse); an answer that would need
    them is an internal error, never printed as non-JSON."""
    try:
        print(json.dumps(obj, indent=indent, allow_nan=False))
    except ValueError:
        print(json.dumps({"ok": False, "error": {"code": "internal_error", "field": None}}))


def _print_imported(imported: dict[str, Any]) -> None:
    unread = imported["unread"]
    names = ", ".join(f"{u['key']} ({u['code']})" for u in unread)
    print(printable(f"Read as {imported['target']}" + (f"; not read: {names}" if names else "")) + "\n")


def main(argv: list[str] | None = None) -> int:
    for stream in (sys.stdout, sys.stderr):
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="backslashreplace")      # a terminal that cannot show a letter shows \uXXXX
    p = build_parser()
    a = p.parse_args(argv)
    if a.describe:
        print(answer_text(json.dumps({"describe": True})))
        return 0
    imported = None
    if a.imports:
        try:
            read = import_files(a.imports)
        except FileRefused as exc:
            return _fail(exc.code, "import", exc.reason)
        if not read["ok"]:
            if a.json:
                _print_json(read)
            for e in read["errors"]:
                _fail(e["code"], e.get("field"), f"in {e['file']}" if e.get("file") else "")
            return 2
        imported = read["read"]
    try:
        req = request_from_args(a)
    except FileRefused as exc:
        return _fail(exc.code, "model", f"--config {a.config}: {exc.reason}")
    except HubRefused as exc:
        return _fail(exc.code, "model", _hub_words(exc.code, exc.repo))
    if imported is not None:
        req = {**imported["request"], **req}          # a flag given beside the file wins over the file
    if "model" not in req and imported is not None:
        return _fail("missing_field", "model", "the imported file names no catalogue model: give --model ID "
                                                  "or --config PATH")
    if a.export:
        if "model" not in req:
            return _fail("missing_field", "model", "give --model ID or --config PATH")
        return _export_main(a, req, imported)
    if a.out:
        return _fail("contradiction", "out", "--out is where --export writes")
    if a.force:
        return _fail("contradiction", "force", "--force lets --export write beside another export's files")
    if imported is not None and not a.json:
        _print_imported(imported)
    if "model" not in req:
        return _fail("missing_field", "model", "give --model ID or --config PATH")
    out = answer(req)       # the parsed request itself: a flag's NaN or infinity is the API's out_of_range
    if not out["ok"]:
        e = out["error"]
        why = ", ".join(e.get("candidates", ()))       # ambiguous_model: the ids the name could be
        if e.get("reason"):
            try:
                why = english().get(f"errors.reasons.{e['reason']}")
            except (OSError, ValueError, KeyError):
                why = str(e["reason"])
        elif e["code"] == "unknown_model" and not a.fetch and isinstance(req["model"], str) \
                and hub.fetchable(req["model"]):
            why = "not in the catalogue nor in the local Hugging Face cache; --fetch reads its config.json from " \
                  "huggingface.co"
        _fail(e["code"], e["field"], why)
        if a.json:
            _print_json(out)
        return 2
    if a.json:
        _print_json(out if imported is None else {**out, "imported": imported}, indent=1)
        return 0
    try:
        s = english()
    except (OSError, ValueError, KeyError) as exc:
        print(f"error: cannot read the English string table {STRINGS}: {exc} (--json needs none)", file=sys.stderr)
        return 2
    print(render(_printable_tree(out["result"]), s))
    return 0


def run() -> None:
    """``vram-estimate`` (pyproject.toml's console script) and ``python -m calculator``: ``main``'s exit status."""
    try:
        code = main()
        sys.stdout.flush()
    except BrokenPipeError:      # `vram-estimate ... | head`: the reader left; no traceback for that
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        code = 0
    raise SystemExit(code)


if __name__ == "__main__":  # pragma: no cover
    run()
