"""python -m calculator: flags mirror the API, --json prints the API output, exit 2 on bad input."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from calculator import api
from calculator.__main__ import main

pytestmark = pytest.mark.unit
ROOT = Path(__file__).resolve().parents[2]


def test_table_shows_gb_and_gib(capsys) -> None:
    assert main(["--model", "llama-3.1-8b", "--method", "qlora", "--seq-len", "2048", "--gpu", "rtx-4090"]) == 0
    out = capsys.readouterr().out
    assert "GB" in out and "GiB" in out and "Peak memory per GPU" in out and "RTX 4090" in out


def test_the_text_says_what_the_page_says(capsys) -> None:
    """The CLI's labels and figures are the page's English ones: every component of the breakdown by its label in
    the string table, the peak as calculator.page.text formats it."""
    from calculator.__main__ import english
    from calculator.page.text import fmt_bytes

    s = english()
    request = {"model": "llama-3.1-8b", "gpu": "h100-80gb", "precision": "mixed", "include": []}
    r = json.loads(api.answer_text(json.dumps(request)))["result"]
    assert main(["--model", "llama-3.1-8b", "--gpu", "h100-80gb", "--precision", "mixed"]) == 0
    out = capsys.readouterr().out
    for key, value in r["breakdown_bytes"].items():
        if value:
            assert s.get(f"components.{key}") in out, key
    assert fmt_bytes(r["peak_bytes_per_gpu"])[0] in out
    assert s.get(f"verdict.{r['gpu']['verdict']}") in out


def test_json_equals_api(capsys) -> None:
    assert main(["--model", "llama-2-7b", "--method", "lora", "--lora-targets", "q_proj,v_proj", "--lora-rank", "8",
                 "--no-gradient-checkpointing", "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    req = {"model": "llama-2-7b", "method": "lora", "lora_targets": ["q_proj", "v_proj"], "lora_rank": 8,
           "gradient_checkpointing": False, "include": list(api.ENUMS["include"])}
    assert printed == json.loads(api.answer_text(json.dumps(req)))


def test_config_file(tmp_path, capsys) -> None:
    cfg = {"hidden_size": 2048, "num_hidden_layers": 16, "num_attention_heads": 32, "num_key_value_heads": 8,
           "intermediate_size": 8192, "vocab_size": 128256, "tie_word_embeddings": True, "head_dim": 64}
    p = tmp_path / "config.json"
    p.write_text(json.dumps(cfg))
    assert main(["--config", str(p), "--json"]) == 0
    r = json.loads(capsys.readouterr().out)["result"]
    assert r["params"] == 1_235_814_400         # Llama 3.2 1B


@pytest.mark.parametrize("argv,needle", [
    (["--model", "nope"], "unknown_model"),
    (["--model", "llama-2-7b", "--seq-len", "-3"], "out_of_range"),
    (["--model", "llama-2-7b", "--sharding", "zero3"], "contradiction"),
    ([], "missing_field"),
])
def test_bad_input_exit_2(argv, needle, capsys) -> None:
    assert main(argv) == 2
    assert needle in capsys.readouterr().err


def test_module_entry_point_runs() -> None:
    p = subprocess.run([sys.executable, "-m", "calculator", "--model", "nope"], cwd=ROOT, capture_output=True,
                       text=True, timeout=60)
    assert p.returncode == 2 and "unknown_model" in p.stderr
    p = subprocess.run([sys.executable, "-m", "calculator", "--describe"], cwd=ROOT, capture_output=True, text=True,
                       timeout=60)
    assert p.returncode == 0 and json.loads(p.stdout)["ok"] is True


def test_a_time_resting_on_a_datasheet_says_so(capsys) -> None:
    """The speed block of a card no measured run covers, and a datasheet-only fastest/cheapest, carry the note; the
    winner among measured cards follows it. A measured card's speed has no note."""
    note = "from the card's datasheet only"
    assert main(["--model", "llama-3.1-8b", "--method", "qlora", "--gpu", "mi300x", "--dataset-tokens", "10000000"]) == 0
    lines = capsys.readouterr().out.splitlines()
    speed = lines.index(next(x for x in lines if x.startswith("  Speed, time and cost on 1 × mi300x")))
    assert any(note in x for x in lines[speed:speed + 5])
    fastest = next(x for x in lines if x.startswith("  Fastest that fits:"))
    measured = next(x for x in lines if x.startswith("  Fastest that fits on a card with measured speeds:"))
    assert note in fastest and note not in measured
    assert main(["--model", "llama-3.1-8b", "--method", "qlora", "--gpu", "rtx-4090", "--gradient-checkpointing"]) == 0
    out = capsys.readouterr().out
    block = out[out.index("Speed, time and cost on 1 × rtx-4090"):out.index("Fastest that fits")]
    assert note not in block


@pytest.mark.parametrize("request_", [
    {"model": "llama-3.1-8b", "method": "qlora", "gpu": "h100-80gb"},
    {"model": "qwen2.5-14b", "method": "lora", "gpu": "a100-80gb", "seq_len": 1024},
    {"model": "llama-3.2-1b", "method": "full", "gpu": "h100-80gb", "micro_batch_size": 4},
    {"model": "mixtral-8x7b", "method": "qlora", "gpu": "b200"},
])
def test_the_cli_prints_the_speed_the_page_shows(request_, capsys) -> None:
    """The review saw 867 tokens/s on the page and 868 in the CLI for one setup: the CLI prints the figure the page
    shows for the same answer (calculator.page.text.rate), whatever the setup."""
    import re

    from calculator.__main__ import english
    from calculator.page.text import plain_text, rate

    args = [x for k, v in request_.items() for x in (f"--{k.replace('_', '-')}", str(v))]
    assert main(args) == 0
    out = capsys.readouterr().out
    s = english()
    printed = re.search(re.escape(s.get("out.tokens_per_second_per_gpu")) + r": ([\d,]+) ", out)
    assert printed, out
    tp = api.answer(request_)["result"]["throughput"]["tokens_per_second_per_gpu"]
    assert plain_text(rate(s, tp)).split(" ")[0] == printed.group(1)


def test_a_paged_optimizers_peak_is_not_called_the_drivers_figure(capsys) -> None:
    """content review D5/N17: a paged optimizer's state is managed memory the driver counts while it sits on the card
    and PyTorch's statistics do not; the CLI called the peak (which leaves it out) "nvidia-smi". It prints the driver's
    figure on its own line; without paging the peak is the driver's figure and keeps its name."""
    from calculator.page.text import fmt_bytes
    paged = api.answer({"model": "llama-2-7b", "optimizer": "paged_adamw_8bit"})["result"]
    assert paged["driver_bytes"] > paged["peak_bytes_per_gpu"]
    assert main(["--model", "llama-2-7b", "--optimizer", "paged_adamw_8bit"]) == 0
    lines = capsys.readouterr().out.splitlines()
    peak = next(x for x in lines if x.strip().startswith("Peak memory per GPU"))
    driver = next(x for x in lines if x.strip().startswith("Driver (nvidia-smi)"))
    assert "nvidia-smi" not in peak and fmt_bytes(paged["peak_bytes_per_gpu"])[0] in peak
    assert fmt_bytes(paged["driver_bytes"])[0] in driver
    assert main(["--model", "llama-2-7b"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert any(x.strip().startswith("Peak memory per GPU (nvidia-smi)") for x in lines)
    assert not any(x.strip().startswith("Driver (nvidia-smi)") for x in lines)


def test_version_is_the_packages(capsys) -> None:
    """``--version`` says the estimator's one version (``calculator.__version__``, which the pip wheel's metadata
    reads too)."""
    import calculator

    with pytest.raises(SystemExit) as info:
        main(["--version"])
    assert info.value.code == 0
    assert capsys.readouterr().out == f"python -m calculator {calculator.__version__}\n"


def test_every_exception_class_of_the_estimator_is_in_errors_py() -> None:
    """One module holds the estimator's errors (calculator/errors.py): no other module of calculator/ defines an
    exception class of its own. calculator/export/ is the exports issue's room (its YAML reader's YamlError)."""
    import importlib
    import inspect

    for path in sorted((ROOT / "calculator").rglob("*.py")):
        rel = path.relative_to(ROOT).with_suffix("")
        if rel.parts[1] == "export" or rel.name == "errors":
            continue
        module = importlib.import_module(".".join(rel.parts[:-1] if rel.name == "__init__" else rel.parts))
        own = [name for name, obj in vars(module).items() if inspect.isclass(obj)
               and issubclass(obj, BaseException) and obj.__module__ == module.__name__]
        assert not own, f"{rel}: {own} belong in calculator/errors.py"


def test_several_cards_without_sharding_say_ddp_and_what_zero3_gives(capsys) -> None:
    """Issue 42, H1: 8 cards with sharding left at none hold a full copy each (DDP); the text says so with ZeRO-3's
    figure on the same cards, and one card says nothing of it."""
    from calculator.page.text import fmt_bytes
    args = ["--model", "llama-3.1-8b", "--method", "full", "--gpu", "h100-80gb"]
    zero3 = api.answer({"model": "llama-3.1-8b", "method": "full", "gpu": "h100-80gb", "num_gpus": 8,
                        "sharding": "zero3", "include": []})["result"]["peak_bytes_per_gpu"]
    assert main(args + ["--num-gpus", "8"]) == 0
    line = next(x for x in capsys.readouterr().out.splitlines() if "DDP" in x)
    assert "8 cards" in line and "ZeRO-3" in line and fmt_bytes(zero3)[0] in line
    assert main(args + ["--num-gpus", "1"]) == 0
    assert "DDP" not in capsys.readouterr().out
