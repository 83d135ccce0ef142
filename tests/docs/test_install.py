"""The estimator installed alone, as README's two lines say: the pip wheel (pyproject.toml) built offline from the
checkout's root files and calculator/ only, installed into a fresh virtualenv, and run from a folder outside the
checkout: ``vram-estimate``, ``python -m calculator --version`` and ``calculator.api.answer`` answer there as they do
here. The wheel holds the estimator's packages (the very list the page's wheel is made of, sitebuild/wheel.py) and its
string tables, and nothing of the site's build, the benchmarks, the frameworks' checks or the tests.

Needs the test extra's setuptools (dev/pyproject.toml; `make install`): the wheel is built without build isolation,
so no index is asked."""
from __future__ import annotations

import importlib.metadata
import json
import os
import shutil
import subprocess
import sys
import tomllib
import venv
import zipfile
from pathlib import Path

import pytest

import calculator
from calculator import api
from calculator.__main__ import main
from sitebuild import wheel as page_wheel

pytestmark = pytest.mark.docs

ROOT = Path(__file__).resolve().parents[2]
ARGV = ["--model", "llama-3.1-8b", "--method", "qlora", "--gpu", "rtx-4090"]
REQUEST = {"model": "llama-3.1-8b", "method": "qlora", "gpu": "rtx-4090"}


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> tuple[Path, Path]:
    """(the wheel, the fresh virtualenv it is installed in)."""
    from packaging.requirements import Requirement

    for line in tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["build-system"]["requires"]:
        need = Requirement(line)
        have = importlib.metadata.version(need.name)
        assert need.specifier.contains(have), f"{need.name} {have} cannot build the pip wheel ({line}): make install"
    tmp = tmp_path_factory.mktemp("install")
    src = tmp / "src"
    src.mkdir()
    for path in ROOT.iterdir():                 # the root's files (pyproject.toml, README.md, ...), no other folder
        if path.is_file():
            shutil.copy2(path, src / path.name)
    shutil.copytree(ROOT / "calculator", src / "calculator", ignore=shutil.ignore_patterns("__pycache__"))
    dist = tmp / "dist"
    build = subprocess.run([sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", str(dist), str(src)],
                           capture_output=True, text=True, timeout=300)
    assert build.returncode == 0, f"the pip wheel did not build (make install?):\n{build.stdout}\n{build.stderr}"
    (whl,) = dist.glob("*.whl")
    env_dir = tmp / "venv"
    venv.create(env_dir, with_pip=False)
    pip = subprocess.run([sys.executable, "-m", "pip", "--python", str(env_dir / "bin" / "python"), "install",
                          "--quiet", "--no-deps", "--no-index", str(whl)], capture_output=True, text=True, timeout=300)
    assert pip.returncode == 0, pip.stderr
    return whl, env_dir


def _run(env_dir: Path, cwd: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    """A command of the virtualenv, run from ``cwd`` (outside the checkout) with nothing of the checkout on the path."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV")}
    env["PATH"] = f"{env_dir / 'bin'}{os.pathsep}{env.get('PATH', '')}"
    return subprocess.run([str(env_dir / "bin" / argv[0]), *argv[1:]], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=120)


def test_the_console_script_answers_outside_the_checkout(installed, tmp_path, capsys):
    _, env_dir = installed
    proc = _run(env_dir, tmp_path, "vram-estimate", *ARGV)
    assert proc.returncode == 0, proc.stderr
    assert main(ARGV) == 0                                       # the checkout's CLI, in-process
    here = capsys.readouterr().out
    assert proc.stdout == here
    assert "Peak memory per GPU" in proc.stdout and "RTX 4090" in proc.stdout     # the English table's words


def test_a_reader_who_leaves_early_gets_no_traceback(installed, tmp_path):
    """``vram-estimate ... | head -1``: the reader closes the pipe before the estimate is printed."""
    _, env_dir = installed
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV")}
    proc = subprocess.Popen([str(env_dir / "bin" / "vram-estimate"), *ARGV], cwd=tmp_path, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    proc.stdout.close()                                          # before the CLI has imported, let alone printed
    stderr = proc.stderr.read()
    assert (proc.wait(timeout=120), stderr) == (0, "")


def test_python_m_calculator_says_its_version(installed, tmp_path):
    _, env_dir = installed
    proc = _run(env_dir, tmp_path, "python", "-m", "calculator", "--version")
    assert (proc.returncode, proc.stdout) == (0, f"python -m calculator {calculator.__version__}\n"), proc.stderr


def test_the_installed_api_answers_as_the_checkouts(installed, tmp_path):
    _, env_dir = installed
    code = ("import json, sys, calculator\n"
            "from calculator import api\n"
            "print(json.dumps({'file': calculator.__file__, 'answer': api.answer(json.loads(sys.argv[1]))}))\n")
    proc = _run(env_dir, tmp_path, "python", "-c", code, json.dumps(REQUEST))
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert Path(out["file"]).is_relative_to(env_dir) and not Path(out["file"]).is_relative_to(ROOT)
    assert out["answer"]["ok"] and out["answer"] == json.loads(json.dumps(api.answer(REQUEST)))


def test_the_wheel_holds_the_estimator_and_its_strings_only(installed):
    whl, _ = installed
    with zipfile.ZipFile(whl) as zf:
        names = zf.namelist()
        dist_info = next(n.split("/")[0] for n in names if n.endswith(".dist-info/METADATA"))
        metadata = zf.read(f"{dist_info}/METADATA").decode()
        entry_points = zf.read(f"{dist_info}/entry_points.txt").decode()
    assert {n.split("/")[0] for n in names} == {"calculator", dist_info}      # no sitebuild, benchmarks, tests ...
    assert "Name: llm-vram-estimator\n" in metadata and f"Version: {calculator.__version__}\n" in metadata
    assert "calculator/strings/ar.json" in names and "calculator/strings/en.json" in names
    for lang in ("ar", "en"):
        with zipfile.ZipFile(whl) as zf:
            assert zf.read(f"calculator/strings/{lang}.json") == (ROOT / "calculator" / "strings" / f"{lang}.json"
                                                                   ).read_bytes()
    packages = sorted({n.rsplit("/", 1)[0].replace("/", ".") for n in names if n.endswith("/__init__.py")})
    assert packages == page_wheel.packages()                    # the page's wheel is made of the same packages
    assert "vram-estimate = calculator.__main__:run" in entry_points and "mkdocs" not in entry_points
