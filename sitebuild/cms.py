"""The CMS: its configuration file and the one rule that says whether the site is connected.

``cms/config.yml`` (beside ``mkdocs.yml``) is the CMS configuration, in Sveltia CMS's own format. It is the only
place that says whether a CMS is connected: :func:`is_connected` is the rule, and the build's publish logic
(``sitebuild/publish.py``) reads nothing else.
"""
from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import yaml

# Backends that edit the real repository (Sveltia CMS 0.221 names them so; ``gitea`` is also the backend for
# Forgejo, which Sveltia detects from the server). ``test-repo`` keeps files in the browser's origin-private
# file system: a sandbox, not a connection.
REAL_BACKENDS = frozenset({"github", "gitlab", "gitea"})
TEST_BACKEND = "test-repo"


class CmsConfigError(ValueError):
    """The CMS configuration cannot be used; the message names the file and the key."""


def config_path(mkdocs_config_file: str | os.PathLike[str]) -> Path:
    """The CMS configuration that belongs to a MkDocs configuration: ``cms/config.yml`` beside it."""
    return Path(mkdocs_config_file).resolve().parent / "cms" / "config.yml"


def read_config(path: Path) -> dict[str, Any]:
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        raise CmsConfigError(f"{path} is missing: the CMS configuration (see README, 'Editing with the CMS')") from exc
    except yaml.YAMLError as exc:
        raise CmsConfigError(f"{path} is not valid YAML: {exc}") from exc
    if not isinstance(data, dict):
        raise CmsConfigError(f"{path}: expected a mapping of CMS settings, got {type(data).__name__}")
    return data


def backend_name(cms_config: Mapping[str, Any], where: str = "cms/config.yml") -> str | None:
    """The backend the configuration names (``None`` for no backend); anything the pinned CMS cannot use fails."""
    backend = cms_config.get("backend")
    if backend is None:
        return None
    if not isinstance(backend, Mapping) or not isinstance(backend.get("name"), str):
        raise CmsConfigError(f"{where}: `backend` must be a mapping with a `name`")
    name = backend["name"]
    if name == "forgejo":
        raise CmsConfigError(f"{where}: Sveltia CMS serves Forgejo with `backend: {{name: gitea}}` (it detects Forgejo"
                             " from the server); write `gitea`")
    if name not in REAL_BACKENDS | {TEST_BACKEND}:
        raise CmsConfigError(f"{where}: backend `{name}` is not one the bundled Sveltia CMS can edit this site with;"
                             f" use one of {', '.join(sorted(REAL_BACKENDS | {TEST_BACKEND}))}")
    if name in REAL_BACKENDS:  # the repository it edits: owner/name (GitLab also allows group/sub/name)
        repo = backend.get("repo")
        if not isinstance(repo, str) or repo.count("/") < 1 or not all(repo.split("/")):
            raise CmsConfigError(f"{where}: backend `{name}` needs `repo: owner/name`")
    return name


def is_connected(cms_config: Mapping[str, Any], where: str = "cms/config.yml") -> bool:
    """THE rule: the site counts as connected when its CMS configuration names a backend that edits the real
    repository (GitHub, GitLab, Gitea/Forgejo); not with no backend, nor with the in-browser test backend."""
    return backend_name(cms_config, where) in REAL_BACKENDS
