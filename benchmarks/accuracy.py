"""Score the estimator against published measurements.

    python benchmarks/accuracy.py [--data PATH] [--json] [--rows]

Runs ``calculator.api`` on every usable row of the calibration CSV (default: benchmarks/data/measurements.csv,
the project's copy), compares like with like (allocated / reserved / nvidia-smi, GB vs GiB; see
``calibration.py``) and prints each row's signed error, then the median and worst absolute error per method, for the sharded
rows (FSDP FULL_SHARD / ZeRO-3, any method; their signed median shows a systematic bias) and overall. Rows left out (SUSPECT, ESTIMATE, encoder / encoder-decoder) are listed by id with the reason. Capacity rows
(UN-*) are upper bounds: the estimate at the stated context must not exceed the stated VRAM (pass/fail). Bracket rows
(no effective seq_len) pass when the measurement lies between the estimates at 1 token and at the stated cap.

Targets (pinned by tests/accuracy/test_accuracy.py): median |error| <= 10 % overall and <= 15 % per method; no usable
row off by more than 35 %.
"""
from __future__ import annotations

import argparse
import json
import statistics
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benchmarks.calibration import DEFAULT_DATA, Row, load_rows
from calculator.api import answer

__all__ = ["TARGETS", "Scored", "Report", "is_sharded", "score_rows", "run", "main"]

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


def _pct(x: float | None) -> str:
    return "   n/a" if x is None else f"{x * 100:+6.1f}%"


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
    a = p.parse_args(argv)
    rep = run(a.data)
    if a.json:
        print(json.dumps(to_json(rep), indent=1))
    else:
        print(render(rep, a.assumptions))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
