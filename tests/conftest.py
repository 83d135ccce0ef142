"""Shared fixtures: the site is built once per test session with the real CLI, and shared by the docs and e2e
tests."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

ROOT = Path(__file__).resolve().parents[1]
TIERS = ("unit", "property", "accuracy", "docs", "e2e", "frameworks")

# Hypothesis example counts, one profile per kind of run; no test sets its own count, so the profile always applies.
#: ``ci``: Hypothesis's own CI profile (derandomized, no database; Hypothesis loads it itself when it sees a CI
#: environment, e.g. CI=true as .ci/run sets), with at least as many examples for every property test as any of them
#: ran before the profiles existed (150, 300, 120 and 150 in the four modules: 300 for all).
CI_EXAMPLES = 300
#: ``dev``: every other run (a contributor's `make check`), quick: 10 examples a law (25 took 9 of the fast tiers' 27 s
#: on a 2-core machine); HYPOTHESIS_PROFILE=ci gives the full counts locally.
DEV_EXAMPLES = 10
_SLOW_OK = {"deadline": None, "suppress_health_check": [HealthCheck.too_slow]}   # the estimator's cost varies per draw
settings.register_profile("ci", settings.get_profile("ci"), max_examples=CI_EXAMPLES, **_SLOW_OK)
settings.register_profile("dev", max_examples=DEV_EXAMPLES, **_SLOW_OK)
if settings.get_current_profile_name() != "ci":          # not chosen by Hypothesis's CI detection: dev unless asked
    settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))


def pytest_report_header(config) -> str:
    return f"hypothesis profile: {settings.get_current_profile_name()} (max_examples={settings().max_examples})"


def pytest_collection_modifyitems(config, items):
    """Every test carries one of the project's markers, so `-m` selections never silently miss a test."""
    unmarked = [item.nodeid for item in items if not any(item.get_closest_marker(k) for k in TIERS)]
    if unmarked:
        raise pytest.UsageError(f"tests without a marker ({', '.join(TIERS)}): {unmarked}")


def _mkdocs() -> list[str]:
    return [sys.executable, "-m", "mkdocs"]


@pytest.fixture(scope="session")
def built_site(tmp_path_factory) -> Path:
    """Build the whole site (both languages) with ``mkdocs build --strict`` in a subprocess; return site dir."""
    out = tmp_path_factory.mktemp("site") / "site"
    proc = subprocess.run(
        [*_mkdocs(), "build", "--strict", "--site-dir", str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={**os.environ, "NO_COLOR": "1"},
        timeout=900,
    )
    if proc.returncode != 0:
        pytest.fail(f"mkdocs build --strict failed ({proc.returncode}):\n{proc.stdout}\n{proc.stderr}")
    return out
