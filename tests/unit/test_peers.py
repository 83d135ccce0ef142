"""benchmarks/peers.py and benchmarks/league.py: the parts that need neither the peers' venv nor a network
(translation of a row into the normalised configuration, joining adapter answers, scoring, rendering, the peers'
committed answers)."""
from __future__ import annotations

import json
import re
import statistics
from pathlib import Path

import pytest

from benchmarks import league, peers
from benchmarks.league import OURS, Outcome
from benchmarks.peers import ScoredRow
from calculator.catalog import MODELS

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.unit

GB = 10**9


def _row(rid: str, method: str, measured: float, ours: float | None, **kw) -> ScoredRow:
    return ScoredRow(id=rid, method=method, model="Llama-2-7B", measured_bytes=int(measured * GB),
                     compare="allocated_bytes", ours_bytes=None if ours is None else int(ours * GB),
                     request={"model": "llama-2-7b", "method": method}, **kw)


ROWS = [
    _row("F1", "full", 20.0, 22.0),     # ours +10 %
    _row("F2", "full", 40.0, 30.0),     # ours -25 %
    _row("L1", "lora", 10.0, 10.5),     # ours +5 %
    _row("Q1", "qlora", 5.0, None, ours_error="estimator refused"),
]
ADAPTER = {  # what an adapter prints: one peer, answers in bytes or "unsupported"
    "peer": "ftuneai", "version": "0.4.1",
    "results": [
        {"id": "F1", "status": "ok", "bytes": int(18.0 * GB)},            # -10 %
        {"id": "F2", "status": "unsupported", "reason": "offload to host memory (optimizer)"},
        {"id": "L1", "status": "ok", "bytes": int(13.0 * GB)},            # +30 %
        # Q1 missing: an error
    ],
}


# --------------------------------------------------------------------------------------------------------------
# Outcomes and scoring
# --------------------------------------------------------------------------------------------------------------
def test_outcome_errors_are_absolute_and_signed_percentages():
    o = Outcome("x", "full", "t", "ok", 12 * GB, 10 * GB)
    assert o.ape == pytest.approx(20.0) and o.signed == pytest.approx(20.0)
    u = Outcome("x", "full", "t", "ok", 8 * GB, 10 * GB)
    assert u.ape == pytest.approx(20.0) and u.signed == pytest.approx(-20.0)
    assert Outcome("x", "full", "t", "unsupported", None, 10 * GB, "no LoRA").ape is None


def test_adapter_answers_are_joined_by_id_and_bad_answers_are_errors():
    out = {o.row_id: o for o in peers.outcomes_from_results(ROWS, "ftuneai", ADAPTER["results"])}
    assert out["F1"].status == "ok" and out["F1"].ape == pytest.approx(10.0)
    assert out["F2"].status == "unsupported" and "offload" in out["F2"].reason
    assert out["Q1"].status == "error" and out["Q1"].predicted is None
    bad = peers.outcomes_from_results(ROWS[:1], "p", [{"id": "F1", "status": "ok", "bytes": 0}])
    assert bad[0].status == "error"


def test_ours_without_an_estimate_counts_as_an_error_not_a_skip():
    out = {o.row_id: o for o in peers.ours_outcomes(ROWS)}
    assert out["Q1"].status == "error" and out["Q1"].reason == "estimator refused"
    assert out["F2"].ape == pytest.approx(25.0)


def test_summary_per_method_and_overall():
    outcomes = peers.ours_outcomes(ROWS) + peers.outcomes_from_results(ROWS, "ftuneai", ADAPTER["results"])
    s = {(x.group, x.tool): x for x in league.summarise(outcomes, [OURS, "ftuneai"], within=peers.WITHIN)}
    ours_full = s[("full", OURS)]
    assert (ours_full.rows, ours_full.of) == (2, 2)
    assert ours_full.median == pytest.approx(statistics.median([10.0, 25.0]))
    assert ours_full.worst == pytest.approx(25.0)
    assert ours_full.within == {"10": 1, "20": 1}
    ft_all = s[("all", "ftuneai")]
    assert (ft_all.rows, ft_all.of, ft_all.unsupported, ft_all.errors) == (2, 4, 1, 1)
    assert ft_all.median == pytest.approx(20.0) and ft_all.worst == pytest.approx(30.0)
    assert ft_all.within == {"10": 1, "20": 1}
    assert ft_all.under == 1
    # our median on exactly the rows ftune could express (F1: 10 %, L1: 5 %)
    assert ft_all.same_rows["ours"] == pytest.approx(7.5)
    assert s[("qlora", OURS)].rows == 0 and s[("qlora", OURS)].median is None
    assert [x.group for x in league.summarise(outcomes, [OURS], within=peers.WITHIN)] == ["full", "lora", "qlora", "all"]


# --------------------------------------------------------------------------------------------------------------
# Report and rendering
# --------------------------------------------------------------------------------------------------------------
def _report():
    left = [peers.Left("LG-C15", "SUSPECT"), peers.Left("UN-H01", "capacity row")]
    return peers.build_report(ROWS, left, {"ftuneai": ADAPTER}, data="benchmarks/data/measurements.csv",
                              command="python benchmarks/peers.py", versions={"ftuneai": "0.4.1"},
                              answers={"path": "benchmarks/peer_adapters/results/memory.json", "date": "2026-01-02"})


def test_report_is_json_and_counts_rows():
    rep = _report()
    json.dumps(rep, allow_nan=False)
    assert rep["counts"] == {"scored": 4, "excluded": 2}
    assert [p["key"] for p in rep["peers"]] == ["ftuneai"]
    assert rep["rows"][1]["tools"]["ftuneai"]["status"] == "unsupported"
    assert {n["name"] for n in rep["not_run"]} >= {"gpu_poor", "vram.asmirnov.xyz", "How_Much_VRAM"}


def test_text_table_shows_every_group_and_the_numbers():
    text = peers.render_text(_report(), rows=True)
    assert "2026-01-02" in text and "python benchmarks/peers.py" in text
    line = next(ln for ln in text.splitlines() if ln.startswith("all") and "ftune 0.4.1" in ln)
    assert re.search(r"2/4\s+20\.0 %\s+30\.0 %\s+1\s+1\s+7\.5 %", line), line
    assert "F2" in text and "n/s" in text
    assert "offload to host memory (optimizer)" in text        # why a row is not supported


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_markdown_tables_carry_the_same_numbers_in_both_languages(lang):
    md = peers.render_markdown(_report(), rows=True, lang=lang)
    assert "2026-01-02" in md and "python benchmarks/peers.py" in md
    numbers = re.findall(r"\d+\.\d ?%", md)
    en_numbers = re.findall(r"\d+\.\d ?%", peers.render_markdown(_report(), rows=True, lang="en"))
    assert numbers == en_numbers
    assert numbers and not re.search(r"\d %", md), "the pages attach the percent sign (6.1%)"
    tables = [ln for ln in md.splitlines() if ln.startswith("|")]
    widths = {ln.count("|") for ln in tables[:2 + 4 * 2]}
    assert len(widths) == 1, "league table rows have different column counts"
    if lang == "ar":
        assert '<bdi dir="ltr">ftune 0.4.1</bdi>' in md and "حاسبتنا" in md
        assert '<bdi dir="ltr">20.0%</bdi>' in md                  # numbers keep their order in RTL
        assert not re.search(r"[٠-٩]", md), "Latin digits only"


# --------------------------------------------------------------------------------------------------------------
# The peers' committed answers
# --------------------------------------------------------------------------------------------------------------
CONFIGS = [{"id": "F1", "method": "full", "seq_len": 512}, {"id": "L1", "method": "lora", "seq_len": 512}]


def _saved(tmp_path):
    path = tmp_path / "memory.json"
    docs = {"ftuneai": {"peer": "ftuneai", "version": "0.4.1", "results": [
        {"id": "F1", "status": "ok", "bytes": 18 * GB, "detail": {"weights": 1}},
        {"id": "L1", "status": "unsupported", "reason": "no LoRA"}]}}
    league.save_answers(path, league="memory", command="python benchmarks/peers.py --run-peers", date="2026-01-02",
                        configs=CONFIGS, docs=docs, versions={"ftuneai": "0.4.1"}, value_key="bytes")
    return path


def test_committed_answers_are_read_back_for_the_same_configurations(tmp_path):
    ans = league.load_answers(_saved(tmp_path), CONFIGS, ["ftuneai"], refresh="x --run-peers")
    assert ans.date == "2026-01-02" and ans.versions == {"ftuneai": "0.4.1"}
    results = ans.docs["ftuneai"]["results"]
    assert results == [{"id": "F1", "status": "ok", "bytes": 18 * GB},
                       {"id": "L1", "status": "unsupported", "reason": "no LoRA"}]      # no free-form detail


def test_an_answer_for_another_configuration_is_refused_not_reused(tmp_path):
    path = _saved(tmp_path)
    changed = [CONFIGS[0], {**CONFIGS[1], "seq_len": 1024}]
    with pytest.raises(league.StaleAnswers, match=r"L1.*x --run-peers"):
        league.load_answers(path, changed, ["ftuneai"], refresh="x --run-peers")
    with pytest.raises(league.StaleAnswers, match="N1"):                      # a run the peers never saw
        league.load_answers(path, [*CONFIGS, {"id": "N1"}], ["ftuneai"], refresh="x --run-peers")
    with pytest.raises(league.StaleAnswers, match="missing"):
        league.load_answers(tmp_path / "none.json", CONFIGS, ["ftuneai"], refresh="x --run-peers")


# --------------------------------------------------------------------------------------------------------------
# Normalised configuration
# --------------------------------------------------------------------------------------------------------------
def test_peer_config_of_a_lora_request():
    req = {"model": "llama-2-7b", "method": "lora", "lora_rank": 8, "lora_targets": ["q_proj", "v_proj"],
           "lora_dtype": "bf16", "micro_batch_size": 2, "seq_len": 512, "gradient_checkpointing": True,
           "attention": "sdpa", "chunked_cross_entropy": True, "include": []}
    cfg = peers.peer_config("X", req, gpu="a100-40gb")
    assert cfg["method"] == "lora" and cfg["weights"] == "bf16" and cfg["compute"] == "bf16"
    assert cfg["lora_rank"] == 8 and cfg["lora_targets"] == ["q_proj", "v_proj"]
    assert cfg["optimizer"] == "adamw" and cfg["optimizer_states"] == "bf16"     # the adapters' dtype
    assert (cfg["micro_batch"], cfg["seq_len"], cfg["grad_checkpointing"]) == (2, 512, True)
    assert cfg["special"] == [] and cfg["chunked_cross_entropy"] is True      # scored, not excluded
    assert cfg["num_gpus"] == 1 and cfg["sharding"] == "none" and cfg["offload"] == []
    assert cfg["gpu"] == "a100-40gb" and cfg["published_params"] == 6_738_415_616
    assert cfg["hf_config"]["model_type"] == "llama" and cfg["hf_config"]["intermediate_size"] == 11008
    json.dumps(cfg)


def test_peer_config_of_full_qlora_and_sharded_requests():
    full = peers.peer_config("F", {"model": "llama-3.2-3b", "method": "full", "optimizer": "adamw_torch_fused",
                                   "optimizer_in_backward": True, "include": []})
    assert full["weights"] == "bf16" and full["optimizer_states"] == "bf16"
    assert full["special"] == ["optimizer_in_backward"] and full["lora_targets"] == []
    mixed = peers.peer_config("M", {"model": "llama-2-7b", "method": "full", "precision": "mixed", "include": []})
    assert (mixed["weights"], mixed["compute"], mixed["optimizer_states"]) == ("fp32", "bf16", "fp32")
    q = peers.peer_config("Q", {"model": "llama-2-7b", "method": "qlora", "optimizer": "paged_adamw_32bit",
                                "double_quant": False, "include": []})
    assert q["weights"] == "nf4" and q["optimizer"] == "adamw" and q["paged"] is True
    assert q["optimizer_states"] == "fp32" and q["double_quant"] is False
    sharded = peers.peer_config("S", {"model": "llama-2-70b", "method": "lora", "num_gpus": 8,
                                      "sharding": "fsdp", "include": []})
    assert (sharded["num_gpus"], sharded["sharding"]) == (8, "zero3")
    ddp = peers.peer_config("D", {"model": "llama-2-7b", "method": "lora", "num_gpus": 2, "include": []})
    assert ddp["sharding"] == "ddp"
    eight = peers.peer_config("E", {"model": "llama-2-7b", "method": "qlora", "optimizer": "paged_adamw_8bit",
                                    "include": []})
    assert (eight["optimizer"], eight["optimizer_states"]) == ("adamw_8bit", "8bit")


def test_hf_configs_follow_the_real_checkpoints():
    for arch in MODELS.values():
        cfg = peers.hf_config(arch)
        assert cfg["vocab_size"] == arch.vocab_size and cfg["hidden_size"] == arch.hidden_size
        assert cfg["tie_word_embeddings"] == arch.tie_word_embeddings
    assert peers.hf_config(MODELS["falcon-7b"])["model_type"] == "falcon"
    assert peers.hf_config(MODELS["falcon-7b"])["multi_query"] is True
    assert peers.hf_config(MODELS["bloomz-7b1"])["n_layer"] == 30
    assert peers.hf_config(MODELS["phi-2"])["model_type"] == "phi"
    assert peers.hf_config(MODELS["stablelm-base-alpha-3b"])["model_type"] == "gpt_neox"
    gemma = peers.hf_config(MODELS["gemma-2b"])
    assert gemma["model_type"] == "gemma" and gemma["head_dim"] == 256
    assert peers.hf_config(MODELS["llama-2-7b"], min_positions=100_000)["max_position_embeddings"] == 100_000


# --------------------------------------------------------------------------------------------------------------
# Installation inputs
# --------------------------------------------------------------------------------------------------------------
def test_every_requirement_is_pinned_and_every_peer_is_installed():
    names = set()
    for path in (league.REQUIREMENTS, league.REQUIREMENTS_NODEPS):
        for line in path.read_text(encoding="utf-8").splitlines():
            spec = line.split("#", 1)[0].strip()
            if spec:
                assert re.fullmatch(r"[A-Za-z0-9_.-]+==[0-9][A-Za-z0-9.+-]*", spec), f"{path.name}: {spec!r}"
                names.add(spec.split("==")[0].lower())
    assert {p.distribution for p in peers.PEERS} <= names
    assert "torch==2.13.0" in league.REQUIREMENTS.read_text(encoding="utf-8")
    from benchmarks import peers_time
    for p in (*peers.PEERS, *peers_time.PEERS):
        assert (league.ADAPTER_DIR / p.script).is_file()


def test_the_venv_key_changes_with_the_pins(tmp_path, monkeypatch):
    key = league.requirements_key()
    other = tmp_path / "requirements.txt"
    other.write_text(league.REQUIREMENTS.read_text(encoding="utf-8") + "extra==1.0\n", encoding="utf-8")
    monkeypatch.setattr(league, "REQUIREMENTS", other)
    assert league.requirements_key() != key


def test_default_data_path_is_the_projects_own_csv():
    from benchmarks import DATA_DIR
    from benchmarks.calibration import DEFAULT_DATA

    assert peers.DEFAULT_DATA == DEFAULT_DATA == DATA_DIR / "measurements.csv"
    assert DATA_DIR == ROOT / "benchmarks" / "data"
