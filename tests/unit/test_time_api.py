"""Time and cost at the JSON boundary (calculator/api.py) and in the CLI: request keys, result fields, errors."""
from __future__ import annotations

import json

import pytest

from calculator import api
from calculator.__main__ import main as cli_main
from calculator.catalog import GPUS

pytestmark = pytest.mark.unit


# ---------------------------------------------------------------------------------------------------------------
def _api(**req) -> dict:
    return json.loads(api.answer_text(json.dumps({"model": "llama-3.1-8b", "method": "qlora", **req})))


def test_api_throughput_and_run_with_the_readers_price() -> None:
    out = _api(gpu="rtx-4090", dataset_tokens=10_000_000, gpu_hour_price=0.5, epochs=2)
    r = out["result"]
    tp, run = r["throughput"], r["run"]
    assert tp["tokens_per_second"] == tp["tokens_per_second_per_gpu"] > 0
    assert run["currency"] == "USD" and run["price_source"] == "reader" and run["price_per_gpu_hour"] == 0.5
    assert run["seconds"] == pytest.approx(2 * 10_000_000 / tp["tokens_per_second"], rel=1e-3)
    assert run["cost"] == pytest.approx(run["gpu_hours"] * 0.5, abs=0.01)
    assert r["inputs"]["dataset_tokens"] == 10_000_000 and r["inputs"]["gpu_hour_price"] == 0.5


def test_api_prices_from_the_catalogue_or_none() -> None:
    priced = _api(gpu="h100-80gb", dataset_tokens=1_000_000)["result"]["run"]
    assert priced["price_source"] == "catalogue" and priced["price_per_gpu_hour"] == GPUS["h100-80gb"].price_per_hour
    unpriced = _api(gpu="rtx-3090", dataset_tokens=1_000_000)["result"]["run"]
    assert GPUS["rtx-3090"].price_per_hour is None
    assert unpriced["cost"] is None and unpriced["price_source"] is None and unpriced["seconds"] > 0


def test_api_gpu_table_and_fastest_cheapest_follow_the_fit_rule() -> None:
    r = _api(model="llama-3.1-70b", gpu="a100-80gb", dataset_tokens=10_000_000)["result"]
    setups = [(row, st) for row in r["gpu_table"] for st in row["setups"]]
    assert all("tokens_per_second" in st for _, st in setups)
    # "fits" is the whole likely range on the card: neither at the edge nor over (ESTIMATOR.md, the edge rule)
    fitting = [(row, st) for row, st in setups if st["verdict"] not in ("at_edge", "does_not_fit")]
    fastest, cheapest = r["fastest_setup"], r["cheapest_setup"]
    assert max(st["tokens_per_second"] for _, st in fitting) == fastest["tokens_per_second"]
    priced = [st["cost"] for _, st in fitting if st.get("cost") is not None]
    assert min(priced) == cheapest["cost"]
    chosen = {(row["gpu"], st["num_gpus"]): st for row, st in setups}
    assert chosen[(fastest["gpu"], fastest["num_gpus"])]["verdict"] not in ("at_edge", "does_not_fit")
    # a 70B QLoRA does not fit one 24 GB card, so no such setup may be named
    assert (cheapest["gpu"], cheapest["num_gpus"]) != ("rtx-4090", 1)


@pytest.mark.parametrize("req", [
    {"gpu": "a100-80gb", "dataset_examples": 10_000, "mean_tokens_per_example": 300, "micro_batch_size": 4},
    {"model": "llama-2-7b", "method": "full", "gpu": "h100-80gb", "num_gpus": 8, "sharding": "zero3",
     "dataset_tokens": 50_000_000},
    {"gpu": "rtx-4090", "num_gpus": 2, "sharding": "zero3", "optimizer": "paged_adamw_8bit",
     "dataset_tokens": 1_000_000, "gpu_hour_price": 0.4},
])
def test_gpu_table_times_the_chosen_setup_like_throughput_and_run(req) -> None:
    """The table times every card from one count per card count (a faster path); the chosen card and count must
    read exactly what ``throughput`` and ``run`` say for the request itself."""
    r = _api(**req)["result"]
    row = next(row for row in r["gpu_table"] if row["gpu"] == req["gpu"])
    st = next(st for st in row["setups"] if st["num_gpus"] == req.get("num_gpus", 1))
    assert st["tokens_per_second"] == r["throughput"]["tokens_per_second"]
    assert st["seconds"] == r["run"]["seconds"] and st["gpu_hours"] == r["run"]["gpu_hours"]
    assert st["cost"] == r["run"]["cost"]


def test_api_padding_with_examples() -> None:
    unpacked = _api(gpu="a100-80gb", dataset_examples=10_000, mean_tokens_per_example=300, micro_batch_size=4)
    packed = _api(gpu="a100-80gb", dataset_examples=10_000, mean_tokens_per_example=300, micro_batch_size=4,
                  packing=True)
    u, p = unpacked["result"]["run"], packed["result"]["run"]
    assert u["dataset_tokens"] == p["dataset_tokens"] == 3_000_000
    assert p["padding_share"] == 0 and u["padding_share"] > 0.3
    assert u["computed_tokens"] > p["computed_tokens"]
    assert unpacked["result"]["throughput"]["seq_len"] < 2048 == packed["result"]["throughput"]["seq_len"]


@pytest.mark.parametrize("req, code, field", [
    ({"dataset_tokens": 10, "dataset_examples": 5, "mean_tokens_per_example": 3}, "contradiction", "dataset_examples"),
    ({"dataset_examples": 5}, "missing_field", "mean_tokens_per_example"),
    ({"dataset_tokens": 1.5}, "wrong_type", "dataset_tokens"),
    ({"dataset_tokens": 0}, "out_of_range", "dataset_tokens"),
    ({"gpu_hour_price": -1}, "out_of_range", "gpu_hour_price"),
    ({"gpu_hour_price": "2"}, "wrong_type", "gpu_hour_price"),
    ({"epochs": 0}, "out_of_range", "epochs"),
    ({"mean_tokens_per_example": True}, "wrong_type", "mean_tokens_per_example"),
])
def test_api_rejects_bad_time_keys(req: dict, code: str, field: str) -> None:
    out = _api(**req)
    assert out == {"ok": False, "error": {"code": code, "field": field}, "errors": [{"code": code, "field": field}]}


def test_api_refuses_fp32_time_with_a_code() -> None:
    r = _api(method="full", precision="fp32", gpu="a100-80gb", dataset_tokens=100)["result"]
    assert r["time_error"] == "fp32_not_modelled" and "throughput" not in r and "run" not in r
    assert r["peak_bytes_per_gpu"] > 0


def test_schema_lists_peaks_and_prices() -> None:
    gpus = {g["id"]: g for g in api.schema()["gpus"]}
    assert gpus["h100-80gb"]["peak_tflops"] == 989.4 and gpus["h100-80gb"]["price_per_hour"] > 0
    assert gpus["rtx-3090"]["price_per_hour"] is None


def test_cli_prints_time_and_cost(capsys) -> None:
    assert cli_main(["--model", "llama-3.1-8b", "--method", "qlora", "--gradient-checkpointing", "--gpu", "rtx-4090",
                     "--dataset-tokens", "10000000", "--gpu-hour-price", "2.5"]) == 0
    out = capsys.readouterr().out
    assert "Tokens per second per GPU" in out and "GPU-hours" in out and "USD" in out
    assert "Fastest that fits:" in out and "Cheapest that fits:" in out




# ESTIMATOR.md, "Not checked against a measurement": no usable speed row runs on these cards.
_DATASHEET_ONLY = ("b200", "h200", "mi300x", "rtx-5090", "v100-32gb")


def test_every_time_says_what_it_rests_on() -> None:
    """``evidence`` on the chosen card's speed and on every timed card and count of the GPU table: the cards no
    measured run covers rest on their datasheet, the RTX 4090 (torchtune's and others' runs) on measured speeds."""
    r = _api(gpu="rtx-4090", method="qlora")["result"]
    ev = r["throughput"]["evidence"]
    assert ev["basis"] == "measured" and ev["rows"] >= 1 and "qlora" in ev["methods"] and ev["method_measured"]
    timed = 0
    for row in r["gpu_table"]:
        for st in row["setups"]:
            if st.get("tokens_per_second") is None:
                assert "evidence" not in st
                continue
            timed += 1
            e = st["evidence"]
            assert e["basis"] in ("measured", "datasheet") and (e["basis"] == "measured") == (e["rows"] > 0)
            assert e["count_measured"] == (st["num_gpus"] in e["gpu_counts"])
            if row["gpu"] in _DATASHEET_ONLY:
                assert e == {"basis": "datasheet", "rows": 0, "methods": [], "gpu_counts": [],
                             "method_measured": False, "count_measured": False}, row["gpu"]
    assert timed > 20


def test_the_fastest_and_cheapest_among_measured_cards_sit_beside_the_overall_ones() -> None:
    """A datasheet-only card can win "fastest" or "cheapest"; the answer names the winner among the cards a measured
    run backs too, never faster (or cheaper) than the overall one, and each carries its evidence."""
    r = _api(model="qwen2.5-14b", method="full", gpu="rtx-4090", dataset_tokens=20_000_000)["result"]
    fastest, cheapest = r["fastest_setup"], r["cheapest_setup"]
    fm, cm = r["fastest_measured_setup"], r["cheapest_measured_setup"]
    assert fm["evidence"]["basis"] == cm["evidence"]["basis"] == "measured"
    assert fm["tokens_per_second"] <= fastest["tokens_per_second"] and cm["cost"] >= cheapest["cost"]
    if fastest["evidence"]["basis"] == "measured":
        assert (fm["gpu"], fm["num_gpus"]) == (fastest["gpu"], fastest["num_gpus"])
    assert fastest["gpu"] in _DATASHEET_ONLY or fastest["evidence"]["basis"] == "measured"
    for best in (fastest, cheapest, fm, cm):
        row = next(row for row in r["gpu_table"] if row["gpu"] == best["gpu"])
        st = next(st for st in row["setups"] if st["num_gpus"] == best["num_gpus"])
        assert st["verdict"] != "does_not_fit" and st["evidence"] == best["evidence"]
