"""The site plugin (sitebuild/site_plugin.py) keeps each build's state on its instance, not in a module, and says
what it did at INFO on the ``mkdocs.plugins.site`` logger (never a WARNING: that fails the strict build). The
hook files stay thin: no state of their own."""
from __future__ import annotations

import ast
import logging
from pathlib import Path
from types import SimpleNamespace

import pytest
import yaml
from mkdocs.config import load_config
from mkdocs.exceptions import PluginError

from sitebuild.site_plugin import SitePlugin

pytestmark = pytest.mark.unit

ROOT = Path(__file__).resolve().parents[2]


def _page(src_uri: str, **meta) -> SimpleNamespace:
    return SimpleNamespace(file=SimpleNamespace(src_uri=src_uri), meta=dict(meta))


@pytest.fixture
def config():
    return load_config(str(ROOT / "mkdocs.yml"))


def test_the_publish_rule_lives_on_the_instance_set_by_each_build(config, caplog):
    plugin = config.plugins["site"]
    assert isinstance(plugin, SitePlugin)
    with pytest.raises(PluginError, match="on_config"):
        plugin.draft_active(_page("articles/vram-guide.md"))        # no build yet: no rule to apply
    with caplog.at_level(logging.INFO, logger="mkdocs.plugins.site"):
        plugin.on_config(config)
    assert plugin.build is not None and plugin.build.publishing.connected is False   # cms/config.yml: test-repo
    notes = [r for r in caplog.records if r.name == "mkdocs.plugins.site"]
    assert notes and all(r.levelno == logging.INFO for r in notes)
    assert "every article is an unpublished draft" in notes[0].getMessage()
    article, home = _page("articles/vram-guide.md", draft=False), _page("index.md")
    plugin.on_page_markdown("", page=article, config=config, files=None)
    plugin.on_page_markdown("", page=home, config=config, files=None)
    assert article.meta["draft_active"] and article.meta["status"] == "draft"  # not connected: draft whatever it says
    assert "draft_active" not in home.meta
    assert plugin.drafts == ["articles/vram-guide.md"]
    assert SitePlugin().build is None                               # another instance shares none of it
    plugin.on_config(config)
    assert plugin.drafts == []                                      # each language build starts its own list


def _module_state(path: Path) -> list[str]:
    """Names bound at module level to a mutable container ({}, [], set(), dict(), list())."""
    found = []
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, ast.AnnAssign) \
            else []
        value = getattr(node, "value", None)
        mutable = isinstance(value, (ast.Dict, ast.List, ast.Set)) or (
            isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id in {"dict", "list", "set"})
        if mutable:
            found += [t.id for t in targets if isinstance(t, ast.Name)]
    return found


def test_the_hooks_and_plugins_keep_no_state_in_their_modules():
    hooks = yaml.load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"), Loader=yaml.BaseLoader)["hooks"]
    routes = [ROOT / h for h in hooks] + [ROOT / "sitebuild" / "site_plugin.py", ROOT / "sitebuild" / "plugin.py"]
    assert {p: _module_state(p) for p in routes} == {p: [] for p in routes}
