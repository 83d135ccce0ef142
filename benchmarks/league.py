"""League tables: our estimator and the public calculators, scored on the same measured runs.

The one home of what ``benchmarks/peers.py`` (peak memory) and ``benchmarks/peers_time.py`` (training speed) share:

* the peers' own virtual environment (``.cache/peers-venv``, pinned in ``benchmarks/peer_adapters/requirements*.txt``)
  and the adapters run in it (``benchmarks/peer_adapters/``, one process per peer, JSON in and out);
* the peers' **committed answers** (``benchmarks/peer_adapters/results/<league>.json``): what each adapter answered
  for each run, with a digest of the configuration it was given. A league table is our live figures against those
  answers, so it is recomputed in a second without the peers' venv; ``--run-peers`` runs the peers again and
  rewrites the file. An answer given for another configuration than today's is refused (``StaleAnswers``), never
  reused;
* scoring: absolute and signed percentage error per run, and per group (each method, then all) and tool the runs
  supported, median and worst error, runs within each threshold, and our median on exactly that tool's runs;
* the tables: plain text for the terminal, Markdown in English and Arabic for the documents' generated blocks
  (``python -m tools.docs`` writes them; each script's ``--markdown`` prints the same text).
"""
from __future__ import annotations

import datetime as _dt
import hashlib
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import venv
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
ADAPTER_DIR = ROOT / "benchmarks" / "peer_adapters"
RESULTS_DIR = ADAPTER_DIR / "results"
DEFAULT_VENV = ROOT / ".cache" / "peers-venv"
REQUIREMENTS = ADAPTER_DIR / "requirements.txt"
REQUIREMENTS_NODEPS = ADAPTER_DIR / "requirements-nodeps.txt"
VENV_MARKER = ".peers-requirements.sha256"
METHODS = ("full", "lora", "qlora")
GROUPS = (*METHODS, "all")
OURS = "ours"


# =====================================================================================================================
# The peers and their virtual environment
# =====================================================================================================================
@dataclass(frozen=True)
class Peer:
    key: str                 # short id, used in JSON and --peers
    label: str               # table label
    distribution: str        # PyPI name
    script: str              # adapter in benchmarks/peer_adapters/
    docs: str                # where its usage is documented
    covers: str              # what its figure includes
    leaves_out: str          # what it leaves out (shown on the page)


def requirements_key(python: str = sys.executable) -> str:
    h = hashlib.sha256()
    for path in (REQUIREMENTS, REQUIREMENTS_NODEPS):
        h.update(path.read_bytes())
    h.update(f"{sys.version_info.major}.{sys.version_info.minor}".encode())
    return h.hexdigest()


def venv_python(venv_dir: Path) -> Path:
    return venv_dir / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


def ensure_venv(venv_dir: Path, *, rebuild: bool = False, log=sys.stderr) -> Path:
    """Create (or reuse) the peers' venv with the pinned requirements; return its Python."""
    py = venv_python(venv_dir)
    marker = venv_dir / VENV_MARKER
    key = requirements_key()
    if not rebuild and py.exists() and marker.exists() and marker.read_text().strip() == key:
        return py
    if venv_dir.exists():
        if not (venv_dir / "pyvenv.cfg").exists():
            raise SystemExit(f"{venv_dir} exists and is not a virtual environment; pass another --venv")
        shutil.rmtree(venv_dir)
    print(f"peers: creating {venv_dir} and installing the pinned peers (about a minute) ...", file=log)
    venv.EnvBuilder(with_pip=True, clear=True).create(venv_dir)
    (venv_dir / ".gitignore").write_text("*\n")          # never committed, whatever the repo's .gitignore says
    pip = [str(py), "-m", "pip", "--disable-pip-version-check", "install", "--quiet"]
    for extra in ([], ["--no-deps"]):
        reqs = REQUIREMENTS if not extra else REQUIREMENTS_NODEPS
        proc = subprocess.run([*pip, *extra, "-r", str(reqs)], stdout=log, stderr=log)
        if proc.returncode != 0:
            raise SystemExit(f"peers: pip install -r {reqs.name} failed ({proc.returncode})")
    marker.write_text(key + "\n")
    return py


def installed_versions(py: Path, peers: Iterable[Peer]) -> dict[str, str]:
    names = [p.distribution for p in peers] + ["torch", "transformers"]
    code = ("import json, importlib.metadata as m; "
            f"print(json.dumps({{n: m.version(n) for n in {names!r}}}))")
    out = subprocess.run([str(py), "-c", code], capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def run_peer(py: Path, peer: Peer, configs: list[dict[str, Any]], *, timeout: float = 1800) -> dict[str, Any]:
    """Run one adapter on every configuration; a crash of the whole adapter marks every row as an error."""
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "PYTHONNOUSERSITE": "1"}
    env.pop("PYTHONPATH", None)
    try:
        proc = subprocess.run([str(py), str(ADAPTER_DIR / peer.script)], input=json.dumps(configs),
                              capture_output=True, text=True, timeout=timeout, cwd=str(ADAPTER_DIR), env=env)
        doc = json.loads(proc.stdout) if proc.returncode == 0 else None
        failure = None if doc else f"adapter exited {proc.returncode}: {proc.stderr.strip()[-400:]}"
    except (subprocess.TimeoutExpired, json.JSONDecodeError) as exc:
        doc, failure = None, f"{type(exc).__name__}: {exc}"
    if doc is None:
        return {"peer": peer.key, "version": None,
                "results": [{"id": c["id"], "status": "error", "reason": failure} for c in configs]}
    return doc


def run_peers(peers: Sequence[Peer], configs: list[dict[str, Any]], *, venv_dir: Path = DEFAULT_VENV,
              rebuild: bool = False, log=sys.stderr) -> tuple[dict[str, dict[str, Any]], dict[str, str]]:
    """Every peer's adapter on every configuration, in the peers' venv: (answers per peer key, versions)."""
    py = ensure_venv(venv_dir, rebuild=rebuild, log=log)
    versions = installed_versions(py, peers)
    docs: dict[str, dict[str, Any]] = {}
    for peer in peers:
        print(f"peers: running {peer.label} on {len(configs)} runs ...", file=log)
        docs[peer.key] = run_peer(py, peer, configs)
        if docs[peer.key].get("version"):
            versions[peer.distribution] = docs[peer.key]["version"]
    return docs, versions


# =====================================================================================================================
# The peers' committed answers
# =====================================================================================================================
class StaleAnswers(ValueError):
    """The committed answers were given for other configurations than the ones the rows give today."""


def config_digest(config: Mapping[str, Any]) -> str:
    """What an answer was given for: a digest of the normalised configuration the adapter read."""
    return hashlib.sha256(json.dumps(config, sort_keys=True).encode()).hexdigest()[:16]


def save_answers(path: Path, *, league: str, command: str, date: str, configs: Sequence[Mapping[str, Any]],
                 docs: Mapping[str, Mapping[str, Any]], versions: Mapping[str, str], value_key: str) -> None:
    """Write the peers' answers (without the adapters' free-form ``detail``), keyed to each configuration."""
    answers = {}
    for key, doc in docs.items():
        answers[key] = [{k: r[k] for k in ("id", "status", value_key, "reason") if k in r}
                        for r in doc.get("results", [])]
    payload = {
        "league": league, "run": {"date": date, "command": command}, "versions": dict(versions),
        "configs": {c["id"]: config_digest(c) for c in configs},
        "answers": answers,
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(payload, indent=1, sort_keys=False) + "\n", encoding="utf-8")


@dataclass(frozen=True)
class Answers:
    """The committed answers of one league, checked against today's configurations."""

    path: Path
    date: str
    versions: dict[str, str]
    docs: dict[str, dict[str, Any]]          # peer key -> {"results": [...]} as the adapter printed it


def load_answers(path: Path, configs: Sequence[Mapping[str, Any]], peer_keys: Iterable[str],
                 *, refresh: str) -> Answers:
    """The committed answers for ``configs``; ``StaleAnswers`` (naming the runs and the command ``refresh`` that
    rewrites the file) when a run is missing or its configuration has changed since the peers answered."""
    if not path.is_file():
        raise StaleAnswers(f"{shown_path(path)} is missing: run `{refresh}` (it needs the peers' venv)")
    payload = json.loads(path.read_text(encoding="utf-8"))
    known = payload.get("configs", {})
    changed = [c["id"] for c in configs if known.get(c["id"]) != config_digest(c)]
    if changed:
        raise StaleAnswers(
            f"{shown_path(path)}: the peers answered other configurations than today's for "
            f"{len(changed)} run(s) ({', '.join(changed[:8])}{', ...' if len(changed) > 8 else ''}): "
            f"run `{refresh}` (it needs the peers' venv) and commit the file")
    wanted = {c["id"] for c in configs}
    docs = {k: {"results": [r for r in payload["answers"][k] if r["id"] in wanted]}
            for k in peer_keys if k in payload.get("answers", {})}
    return Answers(path, payload["run"]["date"], dict(payload.get("versions", {})), docs)


def answers_for(peers: Sequence[Peer], configs: list[dict[str, Any]], *, path: Path, league: str, value_key: str,
                command: str, refresh: str, run: bool = False, save: bool = False, venv_dir: Path = DEFAULT_VENV,
                rebuild: bool = False, log=sys.stderr) -> tuple[dict[str, dict[str, Any]], dict[str, str], dict[str, str]]:
    """The peers' answers for ``configs``: (answers per peer, versions, where they come from: ``path`` and ``date``).
    ``run``: ask the peers now in their venv (and, with ``save``, rewrite ``path``); else read ``path``
    (``StaleAnswers`` when it answers other configurations)."""
    if not run:
        ans = load_answers(path, configs, [p.key for p in peers], refresh=refresh)
        return ans.docs, ans.versions, {"path": shown_path(path), "date": ans.date}
    docs, versions = run_peers(peers, configs, venv_dir=venv_dir, rebuild=rebuild, log=log)
    date = _dt.datetime.now(_dt.timezone.utc).date().isoformat()
    if not save:
        return docs, versions, {"path": "this run, not saved", "date": date}
    save_answers(path, league=league, command=command, date=date, configs=configs, docs=docs, versions=versions,
                 value_key=value_key)
    print(f"peers: wrote {shown_path(path)}", file=log)
    return docs, versions, {"path": shown_path(path), "date": date}


# =====================================================================================================================
# Scoring (pure: unit-tested)
# =====================================================================================================================
@dataclass(frozen=True)
class Measured:
    """A run as a league table scores it: its id, method and the measured figure (bytes, or tokens/s per GPU)."""

    id: str
    method: str
    measured: float


@dataclass(frozen=True)
class Outcome:
    row_id: str
    method: str
    tool: str
    status: str                     # "ok" | "unsupported" | "error"
    predicted: float | None         # the tool's figure, in the measured figure's unit
    measured: float
    reason: str = ""

    @property
    def ape(self) -> float | None:
        """Absolute percentage error, or None when the tool gave no figure."""
        if self.status != "ok" or self.predicted is None:
            return None
        return abs(self.predicted - self.measured) / self.measured * 100.0

    @property
    def signed(self) -> float | None:
        if self.status != "ok" or self.predicted is None:
            return None
        return (self.predicted - self.measured) / self.measured * 100.0


def answer_outcomes(rows: Sequence[Measured], tool: str, results: Iterable[Mapping[str, Any]], value_key: str,
                    *, integral: bool = False) -> list[Outcome]:
    """Join one adapter's answers to the rows by id: a row it did not answer, or a figure that is not a positive
    number, is an error of that tool (never a skip)."""
    by_id = {r["id"]: r for r in results}
    out = []
    for row in rows:
        r = by_id.get(row.id, {"status": "error", "reason": "no answer from the adapter"})
        status = r.get("status", "error")
        value = r.get(value_key) if status == "ok" else None
        reason = str(r.get("reason", ""))
        if status == "ok" and (not isinstance(value, (int, float)) or value <= 0):
            status, value, reason = "error", None, reason or f"non-positive or missing {value_key}: {value!r}"
        if value is not None:
            value = int(value) if integral else float(value)
        out.append(Outcome(row.id, row.method, tool, status, value, row.measured, reason))
    return out


@dataclass(frozen=True)
class Summary:
    group: str                      # "full" | "lora" | "qlora" | "all"
    tool: str
    rows: int                       # rows the tool gave a figure for
    of: int                         # rows in the group
    median: float | None
    worst: float | None
    within: dict[str, int]          # threshold (percent, as text) -> rows within it
    unsupported: int
    errors: int
    under: int                      # rows predicted below the measurement
    same_rows: dict[str, float | None] = field(default_factory=dict)   # reference tool -> its median on these rows


def summarise(outcomes: Sequence[Outcome], tools: Sequence[str], *, within: Sequence[float],
              references: Sequence[str] = (OURS,)) -> list[Summary]:
    """Per group (each method, then all) and tool: counts, median/worst APE, rows within each threshold, and each
    reference's (our) median on exactly the rows that tool supports (the fair head-to-head)."""
    ref = {r: {o.row_id: o for o in outcomes if o.tool == r} for r in references}
    out = []
    for group in GROUPS:
        for tool in tools:
            mine = [o for o in outcomes if o.tool == tool and (group == "all" or o.method == group)]
            if not mine:
                continue
            apes = sorted(a for o in mine if (a := o.ape) is not None)
            ids = [o.row_id for o in mine if o.ape is not None]
            same: dict[str, float | None] = {}
            for r in references:
                theirs = [a for i in ids if i in ref[r] and (a := ref[r][i].ape) is not None]
                same[r] = statistics.median(theirs) if theirs and tool not in references else None
            out.append(Summary(
                group=group, tool=tool, rows=len(apes), of=len(mine),
                median=statistics.median(apes) if apes else None, worst=max(apes) if apes else None,
                within={f"{t:g}": sum(a <= t for a in apes) for t in within},
                unsupported=sum(o.status == "unsupported" for o in mine),
                errors=sum(o.status == "error" for o in mine),
                under=sum(1 for o in mine if (s := o.signed) is not None and s < 0),
                same_rows=same,
            ))
    return out


def per_row(outcomes: Sequence[Outcome], value_name: str) -> dict[str, dict[str, Any]]:
    """Every tool's answer per row, as the reports' ``rows[].tools`` carry it."""
    out: dict[str, dict[str, Any]] = {}
    for o in outcomes:
        out.setdefault(o.row_id, {})[o.tool] = {"status": o.status, value_name: o.predicted, "ape": o.ape,
                                                "signed": o.signed, "reason": o.reason}
    return out


def summary_json(summaries: Sequence[Summary]) -> list[dict[str, Any]]:
    return [asdict(s) for s in summaries]


# =====================================================================================================================
# Rendering
# =====================================================================================================================
GROUP_NAMES = {
    "en": {"full": "full", "lora": "LoRA", "qlora": "QLoRA", "all": "all"},
    "ar": {"full": "ضبط كامل", "lora": "<bdi>LoRA</bdi>", "qlora": "<bdi>QLoRA</bdi>", "all": "الكل"},
}


@dataclass(frozen=True)
class Table:
    """What differs between the leagues' tables: thresholds, our tools' labels, the headers, and the sentence above
    the Markdown table (``stamp``, formatted with the report's ``command``, ``data``, ``scored``, ``left``,
    ``answers``, ``answered`` and ``versions``)."""

    within: tuple[float, ...]
    references: tuple[str, ...]
    labels: Mapping[str, Mapping[str, str]]          # lang -> our tool -> label
    text_head: tuple[str, ...]
    md_head: Mapping[str, tuple[str, ...]]           # lang -> column titles
    stamp: Mapping[str, str]                         # lang -> the sentence above the table
    empty_same_rows: str = "—"                       # a peer cell with no head-to-head figure


def pct(x: float | None) -> str:
    return "—" if x is None else f"{x:.1f} %"


def page_style(text: str) -> str:
    """A cell as the site's pages write it: the percent sign attached to its number ("6.1%"), as the articles and the
    widgets write it in both languages (content review §5.5); the terminal tables keep "6.1 %"."""
    return re.sub(r"(?<=\d) %", "%", text)


def bdi(text: str, lang: str) -> str:
    """Arabic pages: isolate Latin text and numbers; dir="ltr" keeps "8.4%" and dates in their order."""
    return f'<bdi dir="ltr">{text}</bdi>' if lang == "ar" and text else text


def tool_label(tool: str, report: Mapping[str, Any], table: Table, lang: str = "en") -> str:
    if tool in table.references:
        return table.labels[lang][tool]
    peer = next(p for p in report["peers"] if p["key"] == tool)
    return f"{peer['label']} {peer['version']}" if peer.get("version") else peer["label"]


def _cells(s: Mapping[str, Any], table: Table) -> list[str]:
    """The figures of one summary row as printed: rows, median, worst, within each threshold, head-to-head."""
    cells = [f"{s['rows']}/{s['of']}", pct(s["median"]), pct(s["worst"]), *(str(n) for n in s["within"].values())]
    for r in table.references:
        v = s["same_rows"].get(r)
        cells.append("" if s["tool"] in table.references else table.empty_same_rows if v is None else pct(v))
    return cells


def grouped_table_lines(head: Sequence[str], cells: Sequence[Sequence[str]]) -> list[str]:
    """A plain-text table, its first two columns left-aligned and the rest right-aligned, with a blank line between
    groups (a change in the first column)."""
    widths = [max(len(c[i]) for c in [head, *cells]) for i in range(len(head))]
    fmt = "  ".join(f"{{:{'<' if i < 2 else '>'}{w}}}" for i, w in enumerate(widths))
    lines = [fmt.format(*head), fmt.format(*("-" * w for w in widths))]
    last = None
    for c in cells:
        if last is not None and c[0] != last:
            lines.append("")
        lines.append(fmt.format(*c))
        last = c[0]
    return lines


def text_table(report: Mapping[str, Any], table: Table) -> list[str]:
    cells = [(GROUP_NAMES["en"][s["group"]], tool_label(s["tool"], report, table), *_cells(s, table))
             for s in report["summary"]]
    return grouped_table_lines(table.text_head, cells)


def markdown_table(report: Mapping[str, Any], table: Table, lang: str = "en") -> str:
    """The sentence saying where the figures come from, then the league table, in English or Arabic (the same
    figures; Arabic cells wrap Latin text and numbers in <bdi>)."""
    stamp = table.stamp[lang].format(**stamp_fields(report, lang))
    head = table.md_head[lang]
    lines = [stamp, "", "| " + " | ".join(head) + " |", "| " + " | ".join(["---", "---"] + ["---:"] * (len(head) - 2))
             + " |"]
    for s in report["summary"]:
        tool = tool_label(s["tool"], report, table, lang)
        if s["tool"] not in table.references:
            tool = bdi(tool, lang)
        lines.append("| " + " | ".join([GROUP_NAMES[lang][s["group"]], tool,
                                        *(bdi(page_style(c), lang) for c in _cells(s, table))]) + " |")
    return "\n".join(lines) + "\n"


def stamp_fields(report: Mapping[str, Any], lang: str) -> dict[str, Any]:
    ans = report.get("answers") or {}
    peers = ", ".join(bdi(f"{p['label']} {p['version']}" if p.get("version") else p["label"], lang)
                      for p in report["peers"])
    return {"command": report["command"], "data": report["data"], "scored": report["counts"]["scored"],
            "left": report["counts"].get("excluded", 0), "answers": ans.get("path", ""),
            "answered": ans.get("date", ""), "peers": peers}


def markdown_command(command: str, lang: str, *extra: str) -> str:
    """The command that prints a table in ``lang`` (shown above it, so a reader can reproduce it)."""
    return " ".join([command, "--markdown", *extra, *(["--lang", "ar"] if lang == "ar" else [])])


def shown_path(path: Path) -> str:
    """A file as the reports and the documents name it: its place in the repository (``benchmarks/data/...`` for the
    calibration data, the project's own copy), or the path as given for a file outside it."""
    try:
        return Path(path).resolve().relative_to(ROOT).as_posix()
    except ValueError:
        return str(path)
