"""The peers' committed answers (benchmarks/peer_adapters/results/*.json) answer the configurations the measured runs
give today, for every peer: else the league tables could not be recomputed without the peers' venv, and
``python benchmarks/peers.py --run-peers`` (or ``peers_time.py --run-peers``) must be run. An accuracy test: it reads
the project's data."""
from __future__ import annotations

import pytest

from benchmarks import peers, peers_time
from benchmarks.league import OURS
from benchmarks.time_accuracy import load_rows

pytestmark = pytest.mark.accuracy


def test_the_memory_answers_cover_every_measured_run_today():
    """benchmarks/peer_adapters/results/memory.json answers today's configurations (else: run --run-peers)."""
    rep = peers.report()
    assert [p["key"] for p in rep["peers"]] == list(peers.PEER_KEYS)
    assert rep["counts"]["scored"] == len(rep["rows"]) >= 70
    for r in rep["rows"]:
        assert set(r["tools"]) == {OURS, *peers.PEER_KEYS}
        assert all(o["status"] != "error" for o in r["tools"].values()), r


def test_the_time_answers_cover_every_measured_run_today():
    from benchmarks import league

    configs = peers_time.configs_of(load_rows())
    ans = league.load_answers(peers_time.ANSWERS, configs, peers_time.PEER_KEYS, refresh="peers_time.py --run-peers")
    assert set(ans.docs) == set(peers_time.PEER_KEYS)
    for key, doc in ans.docs.items():
        assert {r["id"] for r in doc["results"]} == {c["id"] for c in configs}, key
        assert all(r["status"] in ("ok", "unsupported") for r in doc["results"]), key
