"""Score the estimator against published measurements.

    python benchmarks/accuracy.py [--data PATH] [--json] [--assumptions] [--loso] [--fit]

Runs ``calculator.api`` on every usable row of the calibration CSV (default: benchmarks/data/measurements.csv,
the project's copy), compares like with like (allocated / reserved / nvidia-smi, GB vs GiB; see
``calibration.py``) and prints each row's signed error, then the median and worst absolute error per method, for the sharded
rows (FSDP FULL_SHARD / ZeRO-3, any method; their signed median shows a systematic bias) and overall. Rows left out (SUSPECT, ESTIMATE, encoder / encoder-decoder) are listed by id with the reason. Capacity rows
(UN-*) are upper bounds: the estimate at the stated context must not exceed the stated VRAM (pass/fail). Bracket rows
(no effective seq_len) pass when the measurement lies between the estimates at 1 token and at the stated cap.

``--fit`` refits the memory model's fitted coefficients (``FIT_GRID``: the three ``calculator/memory.py``
COEFFICIENTS marked as fitted; every other constant is a dtype size, a count checked on the exact traces or a
framework default) on every point row from neutral values (``FIT_START``), by the objective memory.py documents.
``--loso`` scores each source (the id prefix: TT, LG, PD, ...) with the coefficients fitted without it: the proxy for
runs the calibration has not seen.

Targets (pinned by tests/accuracy/test_accuracy.py): median |error| <= 10 % overall and <= 15 % per method; no usable
row off by more than 35 %.
"""
from __future__ import annotations

import argparse
import itertools
import json
import statistics
from contextlib import contextmanager
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any, Iterator

from benchmarks.calibration import DEFAULT_DATA, Row, load_rows
from benchmarks.coordinate import descend
from calculator import memory
from calculator.api import answer

__all__ = ["TARGETS", "Scored", "Report", "is_sharded", "score_rows", "run", "fit", "loso", "FIT_GRID", "FIT_START",
           "main"]

TARGETS = {"median_overall": 0.10, "median_per_method": 0.15, "worst": 0.35}
METHODS = ("full", "lora", "qlora")


@dataclass
class Scored:
    row: Row
    estimate_bytes: int | None = None
    error: float | None = None               # signed, (estimate - measured) / measured
    passed: bool | None = None               # capacity / bracket rows
    detail: str = ""


@dataclass
class Report:
    scored: list[Scored] = field(default_factory=list)
    excluded: list[Row] = field(default_factory=list)
    summary: dict[str, Any] = field(default_factory=dict)

    def points(self, method: str | None = None) -> list[Scored]:
        return [s for s in self.scored if s.row.kind == "point" and s.error is not None
                and (method is None or s.row.method == method)]

    def sharded(self) -> list[Scored]:
        """Point rows whose parameters are sharded (FSDP FULL_SHARD or ZeRO-3), whatever their method."""
        return [s for s in self.points() if is_sharded(s.row)]


def is_sharded(row: Row) -> bool:
    return (row.request or {}).get("sharding") == "zero3"


def _figure(req: dict[str, Any], compare: str) -> int:
    out = answer(req)
    if not out.get("ok"):
        raise ValueError(f"estimator refused the request: {out.get('error')}")
    return int(out["result"][compare])


def score_rows(rows: list[Row]) -> Report:
    rep = Report()
    for row in rows:
        if row.excluded_reason or row.request is None:
            rep.excluded.append(row)
            continue
        s = Scored(row)
        try:
            est = _figure(row.request, row.compare)
        except ValueError as exc:
            s.detail = str(exc)
            rep.scored.append(s)
            continue
        s.estimate_bytes = est
        if row.kind == "capacity":
            s.passed = est <= row.measured_bytes
            s.error = (est - row.measured_bytes) / row.measured_bytes
        elif row.kind == "bracket":
            low = _figure(row.bracket_low_request or {}, row.compare)
            s.passed = low <= row.measured_bytes <= est
            s.detail = f"bracket [{low / 1e9:.2f}, {est / 1e9:.2f}] GB"
        else:
            s.error = (est - row.measured_bytes) / row.measured_bytes
        rep.scored.append(s)
    rep.summary = summarize(rep)
    return rep


def _stats(xs: list[float]) -> dict[str, Any]:
    if not xs:
        return {"n": 0, "median_abs": None, "worst_abs": None, "median_signed": None}
    a = [abs(x) for x in xs]
    return {"n": len(xs), "median_abs": statistics.median(a), "worst_abs": max(a),
            "median_signed": statistics.median(xs)}


def summarize(rep: Report) -> dict[str, Any]:
    out: dict[str, Any] = {"overall": _stats([s.error for s in rep.points()])}
    for m in METHODS:
        out[m] = _stats([s.error for s in rep.points(m)])
    out["sharded"] = _stats([s.error for s in rep.sharded()])
    worst = max(rep.points(), key=lambda s: abs(s.error or 0), default=None)
    out["worst_row"] = worst.row.id if worst else None
    caps = [s for s in rep.scored if s.row.kind == "capacity"]
    out["capacity"] = {"n": len(caps), "passed": sum(1 for s in caps if s.passed),
                       "failed": [s.row.id for s in caps if not s.passed]}
    br = [s for s in rep.scored if s.row.kind == "bracket"]
    out["bracket"] = {"n": len(br), "passed": sum(1 for s in br if s.passed),
                      "failed": [s.row.id for s in br if not s.passed]}
    out["errors"] = [s.row.id for s in rep.scored if s.estimate_bytes is None]
    out["excluded"] = {r.id: r.excluded_reason for r in rep.excluded}
    out["targets"] = dict(TARGETS)
    ov, per = out["overall"], [out[m] for m in METHODS if out[m]["n"]]
    out["meets_targets"] = bool(
        ov["n"] and ov["median_abs"] <= TARGETS["median_overall"]
        and all(p["median_abs"] <= TARGETS["median_per_method"] for p in per)
        and ov["worst_abs"] <= TARGETS["worst"]
    )
    return out


def run(path: str | Path = DEFAULT_DATA) -> Report:
    return score_rows(load_rows(path))


# =====================================================================================================================
# Fitting the memory model's fitted coefficients, and leave-one-source-out
# =====================================================================================================================
#: The coefficients of calculator/memory.py marked as fitted, with the grids their comments name.
FIT_GRID: dict[str, tuple[float, ...]] = {
    "act_scale_frozen": tuple(round(0.90 + 0.05 * i, 2) for i in range(9)),              # 0.90 .. 1.30
    "qlora_saved_input_scale": tuple(round(1.0 + 0.1 * i, 1) for i in range(21)),        # 1.0 .. 3.0
    "allocator_reserve_fraction": tuple(round(0.10 + 0.025 * i, 3) for i in range(7)),   # 0.10 .. 0.25
}
#: Neutral starting values: the physics count itself (scales 1.0) and the middle of the reserve's grid.
FIT_START: dict[str, float] = {"act_scale_frozen": 1.0, "qlora_saved_input_scale": 1.0,
                               "allocator_reserve_fraction": 0.15}
#: A row further off than this counts as much as one off by it (memory.py: "mean(min(|error|, 35 %))").
ERROR_CAP = 0.35


@contextmanager
def coefficients(k: memory.Coefficients) -> Iterator[None]:
    """Estimate with ``k`` in place of calculator/memory.py's COEFFICIENTS (read at every call)."""
    saved = memory.COEFFICIENTS
    memory.COEFFICIENTS = k
    try:
        yield
    finally:
        memory.COEFFICIENTS = saved


def objective(rep: Report) -> float:
    """What the fit minimises (memory.py's "Fitting procedure"): mean(min(|error|, 35 %)) + the median |error|
    overall + the largest per-method median."""
    errs = [s.error for s in rep.points() if s.error is not None]
    if not errs:
        return 0.0
    per = [statistics.median(abs(s.error) for s in rep.points(m)) for m in METHODS if rep.points(m)]
    return (statistics.fmean(min(abs(e), ERROR_CAP) for e in errs) + statistics.median(abs(e) for e in errs)
            + max(per))


def _point_rows(rows: list[Row]) -> list[Row]:
    return [r for r in rows if r.kind == "point" and r.request is not None and not r.excluded_reason]


#: The estimate's attribute each compared figure of the answer is (api.answer's result_json lays them out so).
_FIGURE = {"allocated_bytes": "allocated_bytes", "reserved_bytes": "reserved_bytes",
           "peak_bytes_per_gpu": "peak_bytes"}


def _fast_objective(usable: list[Row]) -> Any:
    """The objective of a coefficient set on ``usable``, from each row's setup parsed once (``api.parse_request``)
    and its compared figure read off ``memory.estimate``: the same figures ``api.answer`` returns, without laying out
    an answer per probe."""
    from calculator.api import parse_request
    parsed = [(r, parse_request(r.request)[0], _FIGURE[r.compare]) for r in usable]

    def obj(k: memory.Coefficients) -> float:
        rep = Report()
        with coefficients(k):
            for r, s, attr in parsed:
                est = getattr(memory.estimate(s), attr)
                rep.scored.append(Scored(r, est, (est - r.measured_bytes) / r.measured_bytes))
        return objective(rep)
    return obj


def fit(rows: list[Row], rounds: int = 8) -> memory.Coefficients:
    """Coordinate search over FIT_GRID from FIT_START: each coefficient in turn takes the grid value that lowers the
    objective most on ``rows``' point rows, then every pair jointly; until a pass improves nothing."""
    usable = _point_rows(rows)
    names = list(FIT_GRID)
    moves = [{n: v} for n in names for v in FIT_GRID[n]]
    moves += [{a: x, b: y} for a, b in itertools.combinations(names, 2) for x in FIT_GRID[a] for y in FIT_GRID[b]]
    return descend(replace(memory.COEFFICIENTS, **FIT_START), moves, _fast_objective(usable), rounds)


def source_of(row: Row) -> str:
    """A row's source: its id prefix (one document or one framework's tables)."""
    return row.id.split("-")[0]


def loso(rows: list[Row]) -> tuple[Report, dict[str, dict[str, float]]]:
    """Each source's point rows scored with the coefficients fitted on the other sources' rows."""
    usable = _point_rows(rows)
    scored: list[Scored] = []
    fitted: dict[str, dict[str, float]] = {}
    for src in sorted({source_of(r) for r in usable}):
        k = fit([r for r in usable if source_of(r) != src])
        fitted[src] = {n: getattr(k, n) for n in FIT_GRID}
        with coefficients(k):
            scored += score_rows([r for r in usable if source_of(r) == src]).scored
    rep = Report(scored=scored)
    rep.summary = summarize(rep)
    return rep, fitted


def _fitted_fields(k: memory.Coefficients) -> dict[str, float]:
    return {f.name: getattr(k, f.name) for f in fields(k) if f.name in FIT_GRID}


def _pct(x: float | None) -> str:
    return "   n/a" if x is None else f"{x * 100:+6.1f}%"


def render_loso(rep: Report, fitted: dict[str, dict[str, float]]) -> str:
    lines = ["Leave-one-source-out (each source scored with "
             + ", ".join(FIT_GRID) + " fitted without it):"]
    for key in ("full", "lora", "qlora", "sharded", "overall"):
        st = rep.summary[key]
        if st["n"]:
            lines.append(f"  {key:<8} n={st['n']:<3} median {st['median_abs'] * 100:5.1f}%  "
                         f"worst {st['worst_abs'] * 100:5.1f}%  (median signed {st['median_signed'] * 100:+.1f}%)")
    for src, k in fitted.items():
        lines.append(f"  without {src:<4} " + ", ".join(f"{n} {v:g}" for n, v in k.items()))
    return "\n".join(lines)


def render(rep: Report, show_assumptions: bool = False) -> str:
    lines = []
    lines.append(f"{'id':<8} {'method':<6} {'kind':<8} {'compared':<18} {'measured':>10} {'estimate':>10} "
                 f"{'error':>8}  note")
    for s in rep.scored:
        r = s.row
        unit = "GiB" if r.measured_bytes % (1 << 20) == 0 else "GB"
        div = (1 << 30) if unit == "GiB" else 1e9
        meas = f"{r.measured_bytes / div:.2f}{unit}"
        est = "-" if s.estimate_bytes is None else f"{s.estimate_bytes / div:.2f}{unit}"
        if r.kind == "point":
            err = _pct(s.error)
            note = ""
        else:
            err = "  pass " if s.passed else "  FAIL "
            note = s.detail or (f"bound: estimate {_pct(s.error)} vs VRAM" if s.error is not None else "")
        if any(a.startswith("measure_kind unknown") for a in r.assumptions):
            note = (note + " unknown statistic->allocated").strip()
        lines.append(f"{r.id:<8} {r.method:<6} {r.kind:<8} {r.compare:<18} {meas:>10} {est:>10} {err:>8}  {note}")
        if show_assumptions and r.assumptions:
            lines.append("         assumed: " + "; ".join(r.assumptions))
    lines.append("")
    lines.append("Left out:")
    for r in rep.excluded:
        lines.append(f"  {r.id:<8} {r.excluded_reason}")
    sm = rep.summary
    lines.append("")
    lines.append("Summary (absolute relative error of point rows):")
    for key in ("full", "lora", "qlora", "sharded", "overall"):
        st = sm[key]
        if st["n"]:
            lines.append(f"  {key:<8} n={st['n']:<3} median {st['median_abs'] * 100:5.1f}%  "
                         f"worst {st['worst_abs'] * 100:5.1f}%  (median signed {st['median_signed'] * 100:+.1f}%)")
    lines.append(f"  worst row: {sm['worst_row']}")
    c, b = sm["capacity"], sm["bracket"]
    lines.append(f"  capacity (upper-bound) rows: {c['passed']}/{c['n']} pass"
                 + (f"; fail: {', '.join(c['failed'])}" if c["failed"] else ""))
    lines.append(f"  bracket rows: {b['passed']}/{b['n']} pass" + (f"; fail: {', '.join(b['failed'])}" if b["failed"]
                                                                   else ""))
    lines.append(f"  targets: median <= {TARGETS['median_overall']:.0%} overall, <= {TARGETS['median_per_method']:.0%}"
                 f" per method, worst <= {TARGETS['worst']:.0%}: {'MET' if sm['meets_targets'] else 'NOT MET'}")
    return "\n".join(lines)


def to_json(rep: Report) -> dict[str, Any]:
    return {
        "rows": [{"id": s.row.id, "method": s.row.method, "kind": s.row.kind, "compare": s.row.compare,
                  "measured_bytes": s.row.measured_bytes, "estimate_bytes": s.estimate_bytes, "error": s.error,
                  "passed": s.passed, "assumptions": s.row.assumptions, "request": s.row.request}
                 for s in rep.scored],
        "excluded": [{"id": r.id, "reason": r.excluded_reason} for r in rep.excluded],
        "summary": rep.summary,
    }


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--data", default=str(DEFAULT_DATA), help="measurements CSV (default: %(default)s)")
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    p.add_argument("--assumptions", action="store_true", help="list what was assumed for each row")
    p.add_argument("--loso", action="store_true", help="also score each source with the fitted coefficients refitted "
                                                        "without it")
    p.add_argument("--fit", action="store_true", help="print the fitted coefficients refitted on every point row from "
                                                       "neutral values, next to calculator/memory.py's")
    a = p.parse_args(argv)
    rows = load_rows(a.data)
    if a.fit:
        k = fit(rows)
        with coefficients(k):
            refit = score_rows(_point_rows(rows))
        print(json.dumps({"fitted": _fitted_fields(k), "shipped": _fitted_fields(memory.COEFFICIENTS),
                          "summary_fitted": {m: refit.summary[m] for m in (*METHODS, "overall")}}, indent=1))
        return 0
    rep = score_rows(rows)
    lo = loso(rows) if a.loso else None
    if a.json:
        out = to_json(rep)
        if lo is not None:
            out["loso_summary"], out["loso_fitted"] = lo[0].summary, lo[1]
            out["loso_rows"] = [{"id": s.row.id, "error": s.error} for s in lo[0].scored]
        print(json.dumps(out, indent=1))
    else:
        print(render(rep, a.assumptions))
        if lo is not None:
            print()
            print(render_loso(*lo))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
