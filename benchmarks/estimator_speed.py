"""Speed of one ``calculator.api.answer_text`` call on this interpreter. Prints figures; not a test.

    .venv/bin/python benchmarks/estimator_speed.py [--repeat N]

Each request is timed N times after one warm-up call; the median and the 95th percentile are printed in ms, twice:
"first time" with every remembered result forgotten before each call (a setup the page has not seen: what typing a
new value costs), and "again" with them kept (a setup seen before: going back to a value). The
"full" request asks for everything the page's full estimator shows: the estimate, the GPU table (with time and cost
per card), the smallest, fastest and cheapest setups, the remedies and the inverse solver for the chosen card; "full
+ run" adds a workload (the run's time and cost, padding included). In the browser the same code runs in Pyodide
(see benchmarks/page.py for the round trip there).
"""
from __future__ import annotations

import argparse
import json
import platform
import statistics
import time

from calculator import api, memory, recommend, throughput


def forget() -> None:
    """Drop every remembered result of the estimator (the lru caches of memory, advice and time)."""
    for module in (memory, recommend, throughput):
        for value in vars(module).values():
            if hasattr(value, "cache_clear"):
                value.cache_clear()

REQUESTS = {
    "estimate only (include: [])": {"model": "llama-3.1-8b", "method": "qlora", "include": []},
    "full: 8B QLoRA on RTX 4090": {"model": "llama-3.1-8b", "method": "qlora", "gpu": "rtx-4090"},
    "full: 70B QLoRA + DPO on A100 80GB": {"model": "llama-3.1-70b", "method": "qlora", "gpu": "a100-80gb",
                                           "dpo": True, "gradient_checkpointing": True},
    "full: 7B full FT, ZeRO-3 x 8 on H100": {"model": "llama-2-7b", "method": "full", "gpu": "h100-80gb",
                                             "num_gpus": 8, "sharding": "zero3"},
    "full + run: 8B QLoRA, 20k padded examples": {"model": "llama-3.1-8b", "method": "qlora", "gpu": "rtx-4090",
                                                  "micro_batch_size": 4, "dataset_examples": 20_000,
                                                  "mean_tokens_per_example": 300, "gpu_hour_price": 0.5},
}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=200)
    args = parser.parse_args(argv)
    print(f"{platform.python_implementation()} {platform.python_version()}, {args.repeat} calls each")
    for label, request in REQUESTS.items():
        text = json.dumps(request)
        if not json.loads(api.answer_text(text))["ok"]:
            raise RuntimeError(f"{label}: the estimator refused the benchmark's request")
        for when, clear in (("first time", True), ("again", False)):
            times = []
            for _ in range(args.repeat):
                if clear:
                    forget()
                t = time.perf_counter()
                api.answer_text(text)
                times.append((time.perf_counter() - t) * 1000)
            times.sort()
            p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
            print(f"  {label:<42} {when:<10} median {statistics.median(times):6.2f} ms   p95 {p95:6.2f} ms")


if __name__ == "__main__":
    main()
