"""The CMS: its configuration file, the one rule that says whether the site is connected, and the admin app.

``cms/config.yml`` (beside ``mkdocs.yml``) is the CMS configuration, in Sveltia CMS's own format. It is the only
place that says whether a CMS is connected: :func:`is_connected` is the rule, and the build's publish logic
(``sitebuild/publish.py``) reads nothing else.

The admin app is Sveltia CMS from npm (pinned in ``package.json``), bundled by ``cms/build.mjs`` with esbuild (pinned
too) into ``.cache/cms-admin/<hash of its inputs>/`` and copied into ``site/admin/`` by the build, with the admin page
(``cms/admin.html``) and the configuration it reads (``admin/config.yml``: ``cms/config.yml`` plus the facts that
``mkdocs.yml`` already declares, see :func:`admin_config`). Nothing of it lives in ``docs/``, so MkDocs never treats
it as content (no page, no search entry, no sitemap line).

While no backend is connected the admin is a sandbox (Sveltia CMS's ``test-repo`` backend, whose files live in the
editor's browser). So that it opens with the site's real pages rather than empty, the build also writes every file
the collections edit, in every language, into ``admin/sandbox-<hash>.json`` and names that file in the admin page
(``<meta name="cms-sandbox">``); ``cms/sandbox.js`` copies them into the browser before the CMS starts (see
:func:`sandbox_sources`). A connected build writes neither and leaves that module out; its admin page is
``cms/admin.html`` as it is.
"""
from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import tempfile
from collections.abc import Mapping
from copy import deepcopy
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[1]
CMS_DIR = ROOT / "cms"
NODE_MODULES = ROOT / "node_modules"
CACHE_DIR = ROOT / ".cache" / "cms-admin"
PACKAGE = "@sveltia/cms"

# The files the bundle is made from (besides the npm packages, pinned by package-lock.json); build.mjs copies the
# admin page in as index.html.
BUNDLE_INPUTS = ("build.mjs", "main.js", "sandbox.js", "admin.html")
ADMIN_DIR = "admin"  # in the built site: <site>/admin/

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
        raise CmsConfigError(f"{path} is missing: the CMS configuration (see cms/README.md)") from exc
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


# ---------------------------------------------------------------------------------------------------------------
# The configuration the admin app reads
# ---------------------------------------------------------------------------------------------------------------
# Facts mkdocs.yml declares; cms/config.yml must not repeat them (the build writes them into admin/config.yml).
DERIVED_I18N_KEYS = ("locales", "default_locale")
# The front-matter mapping of an article's shared estimator assumptions (sitebuild/markers.py reads it): its CMS
# field is an object whose fields the build writes, one per key the collection's files use, typed from
# calculator/inputs.py. Declared in that order, the keys keep their order when the CMS saves a file.
CALC_FIELD = "calc"


def front_matter(path: Path) -> dict[str, Any]:
    text = path.read_text(encoding="utf-8")
    if not text.startswith("---\n"):
        return {}
    data = yaml.safe_load(text[4:text.index("\n---", 4)])
    return data if isinstance(data, dict) else {}


def mapping_keys(paths: list[Path], key: str) -> list[str]:
    """The keys of the front-matter mapping ``key`` across ``paths``, in order of first appearance."""
    keys: list[str] = []
    for path in paths:
        for name in front_matter(path).get(key) or {}:
            if name not in keys:
                keys.append(name)
    return keys


def calc_fields(keys: list[str], labels: Mapping[str, Any]) -> list[dict[str, Any]]:
    """CMS fields for request keys: the field is the one the key's kind of value names (calculator/values.py), with
    its limits and choices from calculator/inputs.py; the label is the form's Arabic label
    (``calc.fields.<key>.label``) beside the key itself."""
    from calculator.inputs import BY_NAME

    fields = []
    for name in keys:
        spec = BY_NAME.get(name)
        if spec is None:
            raise CmsConfigError(f"`{CALC_FIELD}: {name}` in an article is not a request key (calculator/inputs.py)")
        label = (labels.get(name) or {}).get("label") if isinstance(labels.get(name), Mapping) else None
        field: dict[str, Any] = {"name": name, "label": f"{label} · {name}" if label else name,
                                 **spec.value_kind.cms_field(spec)}
        if spec.nullable:
            field["required"] = False
        fields.append(field)
    return fields


def _collection_files(root: Path, collection: Mapping[str, Any]) -> list[Path]:
    folder = root / str(collection.get("folder", ""))
    return sorted(folder.glob(f"*.{collection.get('extension', 'md')}")) if "folder" in collection else []


def admin_config(cms_config: Mapping[str, Any], *, locales: list[str], default_locale: str, draft_default: bool,
                 root: Path, calc_labels: Mapping[str, Any], where: str = "cms/config.yml") -> dict[str, Any]:
    """``cms/config.yml`` completed with what is declared elsewhere: the languages (the i18n plugin in
    ``mkdocs.yml``), the default of every ``draft`` field (``extra.draft_default``) and the fields of the ``calc``
    object (the keys the files under ``root`` use, typed by ``calculator/inputs.py``). With no backend, the admin is
    the sandbox."""
    out = deepcopy(dict(cms_config))
    i18n = out.setdefault("i18n", {})
    if not isinstance(i18n, dict):
        raise CmsConfigError(f"{where}: `i18n` must be a mapping")
    for key in DERIVED_I18N_KEYS:
        if key in i18n:
            raise CmsConfigError(f"{where}: remove `i18n.{key}`; the build takes it from the i18n plugin in mkdocs.yml")
    i18n["locales"] = list(locales)
    i18n["default_locale"] = default_locale
    if out.get("backend") is None:
        out["backend"] = {"name": TEST_BACKEND}
    for collection in out.get("collections") or []:
        for fields in [collection.get("fields") or []] + [f.get("fields") or [] for f in collection.get("files") or []]:
            for field in fields:
                if field.get("name") == "draft":
                    if "default" in field:
                        raise CmsConfigError(f"{where}: remove the `default` of the `draft` field in collection"
                                             f" `{collection.get('name')}`; it is `extra.draft_default` in mkdocs.yml")
                    field["default"] = draft_default
                if field.get("name") == CALC_FIELD and field.get("widget") == "object":
                    if "fields" in field:
                        raise CmsConfigError(f"{where}: remove the `fields` of `{CALC_FIELD}` in collection"
                                             f" `{collection.get('name')}`; the build writes them from the articles"
                                             " and calculator/inputs.py")
                    field["fields"] = calc_fields(mapping_keys(_collection_files(root, collection), CALC_FIELD),
                                                  calc_labels)
    return out


class _PlainDumper(yaml.SafeDumper):
    def ignore_aliases(self, data: Any) -> bool:  # fields shared through a YAML anchor are written out in full
        return True


def dump_admin_config(config: Mapping[str, Any]) -> str:
    header = "# Written by the build (sitebuild/cms.py) from cms/config.yml and mkdocs.yml: edit those, not this.\n"
    return header + yaml.dump(dict(config), Dumper=_PlainDumper, allow_unicode=True, sort_keys=False, width=120)


# ---------------------------------------------------------------------------------------------------------------
# The admin app: bundled once per set of inputs, copied into every build
# ---------------------------------------------------------------------------------------------------------------
def pinned_version() -> str:
    return json.loads((ROOT / "package.json").read_text(encoding="utf-8"))["dependencies"][PACKAGE]


def installed_version() -> str:
    pkg = NODE_MODULES / PACKAGE / "package.json"
    if not pkg.is_file():
        raise CmsConfigError(f"node_modules/{PACKAGE} is missing: run `npm ci` (make serve does it)")
    installed = json.loads(pkg.read_text(encoding="utf-8"))["version"]
    if installed != pinned_version():
        raise CmsConfigError(f"node_modules/{PACKAGE} is {installed} but package.json pins {pinned_version()}:"
                             " run `npm ci`")
    return installed


def bundle_hash() -> str:
    """What the bundle depends on: the two input files and the exact npm tree (package-lock.json pins every
    package, the CMS, esbuild and their dependencies, with its integrity hash)."""
    h = hashlib.sha256(f"cms-admin {installed_version()}\n".encode())
    for name in BUNDLE_INPUTS:
        h.update(name.encode() + b"\0" + (CMS_DIR / name).read_bytes() + b"\0")
    h.update(b"package-lock.json\0" + (ROOT / "package-lock.json").read_bytes())
    return h.hexdigest()[:16]


def cached_bundle() -> Path:
    """The bundled admin app for the current inputs: built on first use (a few seconds), then reused."""
    target = CACHE_DIR / bundle_hash()
    if (target / "cms.js").is_file():
        return target
    CACHE_DIR.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="build-", dir=CACHE_DIR))
    try:
        proc = subprocess.run(["node", str(CMS_DIR / "build.mjs"), str(work)], cwd=ROOT, capture_output=True,
                              text=True, timeout=600)
        if proc.returncode != 0:
            raise CmsConfigError(f"bundling the admin app failed (node cms/build.mjs):\n{proc.stdout}\n{proc.stderr}")
        if not (work / "cms.js").is_file():
            raise CmsConfigError("node cms/build.mjs wrote no cms.js")
        try:
            work.rename(target)
        except OSError:  # another build finished the same bundle first
            if not (target / "cms.js").is_file():
                raise
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return target


def _sync_tree(src: Path, dst: Path, keep: frozenset[Path] = frozenset()) -> None:
    """Make dst a copy of src (files copied only when they differ; files src does not have removed, but keep)."""
    wanted = {p.relative_to(src) for p in src.rglob("*") if p.is_file()}
    if dst.is_dir():
        for p in sorted(dst.rglob("*"), reverse=True):
            rel = p.relative_to(dst)
            if p.is_file() and rel not in wanted and rel not in keep:
                p.unlink()
            elif p.is_dir() and not any(p.iterdir()):
                p.rmdir()
    for rel in wanted:
        s, d = src / rel, dst / rel
        if d.is_file() and d.stat().st_size == s.stat().st_size and d.read_bytes() == s.read_bytes():
            continue
        d.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(s, d)


def install_admin(site_dir: Path, served_config: Mapping[str, Any], root: Path) -> Path:
    """Copy the bundle (the app and its page) and write its configuration into ``<site_dir>/admin/``; while not
    connected, also the sandbox's starting files (the sources under ``root`` that the collections edit), named in
    the admin page."""
    admin = site_dir / ADMIN_DIR
    _sync_tree(cached_bundle(), admin, keep=frozenset({Path("config.yml")}))
    (admin / "config.yml").write_text(dump_admin_config(served_config), encoding="utf-8")
    if is_connected(served_config, "admin/config.yml"):
        (admin / SANDBOX_MODULE).unlink()  # never loaded by a connected admin: not shipped either
    else:
        name, payload = sandbox_file(sandbox_sources(served_config, root))
        (admin / name).write_bytes(payload)
        page = admin / "index.html"
        page.write_text(name_sandbox_in_page(page.read_text(encoding="utf-8"), name), encoding="utf-8")
    return admin


# ---------------------------------------------------------------------------------------------------------------
# The sandbox's starting files
# ---------------------------------------------------------------------------------------------------------------
SANDBOX_META = "cms-sandbox"  # <meta name="cms-sandbox" content="sandbox-<hash>.json"> in admin/index.html
SANDBOX_MODULE = "sandbox.js"  # cms/sandbox.js as bundled: the code that reads that file
_LOCALE = "{{locale}}"
# Sveltia CMS 0.221 fillLocalePlaceholder (src/lib/services/contents/i18n/placeholder.js): for the default locale
# under omit_default_locale_from_file_path, the placeholder goes with the separator after it (or the slash before
# it, at the end of a path).
_OMITTED_LOCALE = re.compile(r"\{\{locale\}\}[./]|/?\{\{locale\}\}$")


def locale_path(path: str, locale: str, *, omit: bool) -> str:
    """A collection path with ``{{locale}}`` filled in as the CMS fills it (``docs/index.{{locale}}.md`` is
    ``docs/index.md`` in the default language when it is omitted, ``docs/index.en.md`` in English)."""
    if omit:
        path = _OMITTED_LOCALE.sub("", path, count=1)
    return path.replace(_LOCALE, locale)


def sandbox_sources(served_config: Mapping[str, Any], root: Path) -> dict[str, str]:
    """Every file the served configuration's collections edit, in every language: path (relative to ``root``, the
    repository, as the CMS names it) -> its text, decoded from its bytes as they are (no newline translation), so
    the sandbox holds the same bytes as ``docs/``. A file a collection names that does not exist fails the build."""
    i18n = served_config.get("i18n") or {}
    locales = list(i18n.get("locales") or [])
    default = i18n.get("default_locale")
    omit = bool(i18n.get("omit_default_locale_from_file_path"))

    def each_locale(path: str) -> list[str]:
        if _LOCALE not in path:
            return [path]
        return [locale_path(path, locale, omit=omit and locale == default) for locale in locales]

    paths: list[str] = []
    for collection in served_config.get("collections") or []:
        if "folder" in collection:
            for folder in each_locale(str(collection["folder"]).strip("/")):
                found = sorted((root / folder).glob(f"*.{collection.get('extension', 'md')}"))
                if not found:
                    raise CmsConfigError(f"collection `{collection.get('name')}`: no file in {folder}/")
                paths += [p.relative_to(root).as_posix() for p in found]
        for item in collection.get("files") or []:
            paths += each_locale(str(item["file"]).strip("/"))
    sources: dict[str, str] = {}
    for rel in paths:
        path = root / rel
        if not path.is_file():
            raise CmsConfigError(f"collection file {rel} does not exist (cms/config.yml)")
        sources[rel] = path.read_bytes().decode("utf-8")
    return sources


def sandbox_file(sources: Mapping[str, str]) -> tuple[str, bytes]:
    """The sandbox's JSON file (``{"files": {path: text}}``) and its name, ``sandbox-<hash of the content>.json``:
    a new build with other sources gets another name, which is how the browser tells that the site has changed."""
    payload = json.dumps({"files": dict(sources)}, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    return f"sandbox-{hashlib.sha256(payload).hexdigest()[:16]}.json", payload


def name_sandbox_in_page(html: str, name: str) -> str:
    """The admin page with the sandbox's file named in it (the page's script reads the name; nothing else does)."""
    tag = f'<meta name="{SANDBOX_META}"'
    if html.count("</head>") != 1 or tag in html:
        raise CmsConfigError(f"cms/admin.html: expected one </head> and no {tag}> of its own")
    return html.replace("</head>", f'  {tag} content="{name}">\n</head>')
