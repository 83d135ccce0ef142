"""Shared fixtures: the site is built once per test session with the real CLI, and shared by the docs and e2e
tests."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
KINDS = ("unit", "property", "accuracy", "docs", "e2e", "frameworks")


def pytest_collection_modifyitems(config, items):
    """Every test carries one of the project's markers, so `-m` selections never silently miss a test."""
    unmarked = [item.nodeid for item in items if not any(item.get_closest_marker(k) for k in KINDS)]
    if unmarked:
        raise pytest.UsageError(f"tests without a marker ({', '.join(KINDS)}): {unmarked}")


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
