"""One virtualenv per export target, made on demand and reused while its pinned requirements are unchanged.

``frameworks/<target>/requirements.txt`` pins every distribution of the target's environment (a ``pip freeze``; the
targets' pins conflict, so each has its own), ``build.txt`` the ones built from an sdist after those (DeepSpeed). A venv lives in ``.cache/frameworks/<target>-<hash>/`` (git-ignored),
the hash covering the requirements file, the Python version and the torch pin, so a changed pin makes a new one.
torch (``TORCH``, the CPU wheel pip finds on this machine's disk) is unpacked once into ``.cache/frameworks/torch-…``
and each venv that needs it points at it with a ``.pth`` file (three copies of 750 MB were most of a cold start);
the pins go in with ``--no-deps`` (everything is pinned, nothing is resolved: no CUDA torch can be pulled in),
``--no-build-isolation`` (DeepSpeed builds from its sdist against that torch), ``--ignore-requires-python`` (Axolotl
0.21 declares Python 3.12 but runs its schema code on 3.11: see frameworks/README.md) and ``--no-compile`` (modules
are compiled when first imported, not all of them at install). A target whose ``torch.txt`` says ``no``
needs no torch (Unsloth's checks read sources with ``ast``); its ``wheels.txt`` lists wheels unpacked, not installed.

    python -m frameworks.venv trl        # prints the venv's python, creating the venv if needed
"""
from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HERE = Path(__file__).resolve().parent
CACHE = ROOT / ".cache" / "frameworks"
#: The torch every torch-based target validates with (the CPU wheel; never a CUDA build).
TORCH = "torch==2.13.0"
TARGETS = ("trl", "axolotl", "llamafactory", "unsloth")


def _needs_torch(target: str) -> bool:
    flag = HERE / target / "torch.txt"
    return not (flag.exists() and flag.read_text().strip() == "no")


def key(target: str) -> str:
    h = hashlib.sha256()
    for name in ("requirements.txt", "build.txt", "wheels.txt", "torch.txt"):
        path = HERE / target / name
        if path.exists():
            h.update(name.encode() + b"\0" + path.read_bytes())
    h.update(f"{sys.version_info[:2]}|{TORCH if _needs_torch(target) else ''}".encode())
    return h.hexdigest()[:12]


def path(target: str) -> Path:
    return CACHE / f"{target}-{key(target)}"


def python(target: str) -> Path:
    return path(target) / "bin" / "python"


def _pip(py: Path, *args: str) -> None:
    subprocess.run([str(py), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--no-compile", *args],
                   check=True)


def torch_dir() -> Path:
    """The one unpacked torch every torch-based venv shares (made on first use; ``.ok`` marks a finished one)."""
    folder = CACHE / f"torch-{TORCH.split('==')[1]}-py{sys.version_info[0]}{sys.version_info[1]}"
    if (folder / ".ok").exists():
        return folder
    if folder.exists():
        shutil.rmtree(folder)
    CACHE.mkdir(parents=True, exist_ok=True)
    _pip(Path(sys.executable), "--no-deps", "--target", str(folder), TORCH)
    (folder / ".ok").write_text(TORCH)
    return folder


def ensure(target: str) -> Path:
    """The venv's python, after creating the venv if it is missing or unfinished (``.ok`` marks a finished one)."""
    venv = path(target)
    if (venv / ".ok").exists():
        return python(target)
    if venv.exists():
        shutil.rmtree(venv)
    CACHE.mkdir(parents=True, exist_ok=True)
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    py = python(target)
    if _needs_torch(target):
        site = next((venv / "lib").glob("python*/site-packages"))
        (site / "_frameworks_torch.pth").write_text(str(torch_dir()) + "\n")
    _pip(py, "--no-deps", "--no-build-isolation", "--ignore-requires-python", "-r",
         str(HERE / target / "requirements.txt"))
    build = HERE / target / "build.txt"
    if build.exists():          # sdists, built against what requirements.txt installed (torch's dependencies too)
        _pip(py, "--no-deps", "--no-build-isolation", "-r", str(build))
    wheels = HERE / target / "wheels.txt"
    if wheels.exists():
        dest = venv / "wheels"
        dl = venv / "downloads"
        specs = [line.strip() for line in wheels.read_text().splitlines() if line.strip() and not line.startswith("#")]
        subprocess.run([str(py), "-m", "pip", "download", "--quiet", "--disable-pip-version-check", "--no-deps",
                        "--only-binary=:all:", "--ignore-requires-python", "-d", str(dl), *specs], check=True)
        for whl in sorted(dl.glob("*.whl")):
            with zipfile.ZipFile(whl) as zf:
                zf.extractall(dest / whl.name.split("-")[0])
        shutil.rmtree(dl)
    for old in CACHE.glob(f"{target}-*"):
        if old != venv:
            shutil.rmtree(old, ignore_errors=True)
    (venv / ".ok").write_text(key(target))
    return py


def run(target: str, payload: str, timeout: float = 600) -> str:
    """Run ``frameworks/<target>/check.py`` in the target's venv with ``payload`` on stdin; its stdout."""
    py = ensure(target)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV"))}
    env.update({"PYTHONWARNINGS": "default", "HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1",
                "TRANSFORMERS_OFFLINE": "1", "TOKENIZERS_PARALLELISM": "false", "WANDB_DISABLED": "true",
                "DO_NOT_TRACK": "1", "CUDA_VISIBLE_DEVICES": ""})
    proc = subprocess.run([str(py), str(HERE / target / "check.py")], input=payload, capture_output=True,
                          text=True, timeout=timeout, env=env, cwd=str(ROOT))
    if proc.returncode != 0:
        raise RuntimeError(f"{target} checker failed ({proc.returncode}):\n{proc.stderr[-8000:]}")
    return proc.stdout


if __name__ == "__main__":
    for name in sys.argv[1:] or TARGETS:
        print(ensure(name))
