"""``llamafactory-cli`` as the pinned venv can run it: the real ``llamafactory.cli.main`` after one stand-in.

``llamafactory.data.mm_plugin`` (imported by ``train.tuner``) imports ``torchaudio`` at the top and uses it only to
load audio inputs; the pinned venv has no CPU build of it, so an empty module answers unless the real one is there.
``python lf_cli.py train file.yaml key=value ...`` is ``llamafactory-cli train file.yaml key=value ...``.
"""
from __future__ import annotations

import importlib.util
import sys
import types


def audio_stand_in() -> None:
    """After transformers has looked for the real package (its import probes which packages are there)."""
    import transformers  # noqa: F401
    if importlib.util.find_spec("torchaudio") is None:
        sys.modules["torchaudio"] = types.ModuleType("torchaudio")


if __name__ == "__main__":
    audio_stand_in()
    from llamafactory.cli import main
    sys.argv = ["llamafactory-cli", *sys.argv[1:]]
    main()
