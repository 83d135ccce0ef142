"""The CMS's admin app in Debian Chromium, offline, from the built site served under a sub-path.

The site ships with the in-browser test backend (``test-repo``): its files live in the browser's origin-private
file system (OPFS), in the folder ``sveltia-cms-test`` (Sveltia CMS ``src/lib/services/backends/fs/test.js``). The
test puts the real article files there, edits one article through the UI, saves, and reads the files back.
The button labels come from the pinned CMS's own Arabic strings, so a fallback to English fails the test too.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from playwright.sync_api import expect

from calc_pages import loaded

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
EDITED = ("docs/articles/vram-guide.md", "docs/articles/vram-guide.en.md")
NEW_TITLES = {"ar": "عنوان جديد من المحرر", "en": "A new title from the editor"}


@pytest.fixture(scope="module")
def ui_ar() -> dict[str, str]:
    """Sveltia CMS's own Arabic labels (read here, not at import: collecting needs no node_modules)."""
    return json.loads((ROOT / "node_modules" / "@sveltia" / "cms" / "locales" / "ar.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def seeded() -> list[str]:
    """The files a test backend is seeded with: every article, the glossary and the home page, both languages."""
    return sorted(str(p.relative_to(ROOT)) for pattern in ("docs/articles/*.md", "docs/glossary*.md", "docs/index*.md")
                  for p in ROOT.glob(pattern))


TEST_REPO_JS = """async ({files, root}) => {
  const top = await (await navigator.storage.getDirectory()).getDirectoryHandle(root, {create: true});
  for (const [path, text] of Object.entries(files)) {
    const parts = path.split('/');
    let dir = top;
    for (const part of parts.slice(0, -1)) dir = await dir.getDirectoryHandle(part, {create: true});
    const writable = await (await dir.getFileHandle(parts.at(-1), {create: true})).createWritable();
    await writable.write(text);
    await writable.close();
  }
}"""
READ_JS = """async ({paths, root}) => {
  const top = await (await navigator.storage.getDirectory()).getDirectoryHandle(root);
  const out = {};
  for (const path of paths) {
    const parts = path.split('/');
    let dir = top;
    for (const part of parts.slice(0, -1)) dir = await dir.getDirectoryHandle(part);
    out[path] = await (await (await dir.getFileHandle(parts.at(-1))).getFile()).text();
  }
  return out;
}"""

# True once every file named in `expect` (path in the backend's folder -> text) holds its text. A file the CMS is
# still writing cannot be read (NotReadableError): that is "not yet".
SAVED_JS = """async ({root, expect}) => {
  try {
    const top = await (await navigator.storage.getDirectory()).getDirectoryHandle(root);
    for (const [path, text] of Object.entries(expect)) {
      const parts = path.split('/');
      let dir = top;
      for (const part of parts.slice(0, -1)) dir = await dir.getDirectoryHandle(part);
      if (!(await (await (await dir.getFileHandle(parts.at(-1))).getFile()).text()).includes(text)) return false;
    }
    return true;
  } catch (error) {
    return false;
  }
}"""


def _changed_lines(before: str, after: str) -> list[tuple[str, str]]:
    a, b = before.split("\n"), after.split("\n")
    assert len(a) == len(b), "lines were added or removed"
    return [(x, y) for x, y in zip(a, b) if x != y]


@pytest.mark.browser_context_args(locale="ar")
def test_admin_edits_both_languages_of_an_article_offline(page, guard, subpath_site_url, ui_ar, seeded):
    originals = {path: (ROOT / path).read_text(encoding="utf-8") for path in seeded}
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    # The CMS reports a configuration problem (unknown or deprecated option, unreadable entry) as a warning.
    warnings: list[str] = []
    page.on("console", lambda m: warnings.append(m.text) if m.type == "warning" else None)

    # A reader page loads nothing of the admin.
    page.goto(subpath_site_url + "articles/vram-guide/")
    loaded(page)
    assert not [u for u in requests if "/admin/" in u]

    # Seed the test backend from a page of the same origin, then open the admin.
    page.evaluate(TEST_REPO_JS, {"files": originals, "root": "sveltia-cms-test"})
    page.goto(subpath_site_url + "admin/")
    expect(page.locator("html")).to_have_attribute("lang", "ar")  # Sveltia's Arabic UI, mirrored
    expect(page.locator("html")).to_have_attribute("dir", "rtl")
    page.get_by_role("button", name=ui_ar["work_with_test_repo"]).click()
    page.goto(subpath_site_url + "admin/#/collections/articles/entries/vram-guide")

    # Both languages side by side; the Arabic fields right-to-left, the English ones left-to-right.
    title = {lang: page.locator(f'input[lang="{lang}"]').first for lang in ("ar", "en")}
    expect(title["ar"]).to_have_value(originals[EDITED[0]].split("\n")[1].removeprefix("title: "))
    expect(title["en"]).to_have_value(originals[EDITED[1]].split("\n")[1].removeprefix("title: "))
    for lang, direction in (("ar", "rtl"), ("en", "ltr")):
        fields = page.locator(f'input[lang="{lang}"], textarea[lang="{lang}"]')
        expect(fields.nth(1)).to_be_attached()  # title and description (the pane may still be drawing the rest)
        for i in range(fields.count()):
            assert fields.nth(i).evaluate("e => [e.dir, getComputedStyle(e).direction]") == [direction, direction]
    bodies = page.locator("textarea:not([lang])")  # the raw Markdown bodies, Arabic pane first
    expect(bodies).to_have_count(2)
    assert [bodies.nth(i).evaluate("e => getComputedStyle(e).direction") for i in range(2)] == ["rtl", "ltr"]

    # Edit both titles, flip the one draft switch (shared by both files), save.
    title["ar"].fill(NEW_TITLES["ar"])
    title["en"].fill(NEW_TITLES["en"])
    switches = page.get_by_role("switch")
    expect(switches).to_have_count(2)  # one per pane, the English one mirrors the Arabic one
    expect(switches.nth(0)).to_have_attribute("aria-checked", "true")
    switches.nth(0).click()
    expect(switches.nth(0)).to_have_attribute("aria-checked", "false")
    expect(switches.nth(1)).to_have_attribute("aria-checked", "false")
    page.get_by_role("button", name=ui_ar["save"], exact=True).click()
    page.wait_for_function(
        SAVED_JS,
        arg={"root": "sveltia-cms-test", "expect": {EDITED[0]: NEW_TITLES["ar"], EDITED[1]: NEW_TITLES["en"]}},
        timeout=30_000, polling=200)

    # Only the title and draft lines changed, in both files; every other file is untouched.
    saved = page.evaluate(READ_JS, {"paths": seeded, "root": "sveltia-cms-test"})
    for path, lang in zip(EDITED, ("ar", "en")):
        assert _changed_lines(originals[path], saved[path]) == [
            (originals[path].split("\n")[1], f"title: {NEW_TITLES[lang]}"),
            ("draft: true", "draft: false"),
        ], path
    for path in seeded:
        if path not in EDITED:
            assert saved[path] == originals[path], f"{path} changed"
    assert not warnings, warnings
    # Everything came from the site itself (the guard also aborts and fails on any other host).
    assert requests and all(u.startswith(subpath_site_url) or u.startswith(("data:", "blob:")) for u in requests), \
        [u for u in requests if not u.startswith(subpath_site_url)]


@pytest.mark.browser_context_args(locale="ar")
def test_admin_edits_a_local_clone_once_a_backend_is_named(page, context, guard, site_url, built_site, ui_ar,
                                                            seeded):
    """The local workflow of the README: the configuration names a real backend (here GitHub), the admin runs on
    127.0.0.1, and "work with a local repository" edits the files of a clone. The folder picker is the browser's
    (File System Access API); the test answers it with an origin-private folder holding a clone's files."""
    served = yaml.safe_load((built_site / "admin" / "config.yml").read_text(encoding="utf-8"))
    served["backend"] = {"name": "github", "repo": "example/gpu-guide", "branch": "main"}
    context.route("**/admin/config.yml*", lambda r: r.fulfill(status=200, content_type="application/yaml",
                                                              body=yaml.safe_dump(served, allow_unicode=True)))
    # The GitHub backend shows GitHub's status while signed in; answer it here (it is the one request the local
    # workflow makes off the host, and only to show a status badge).
    status_checks: list[str] = []
    context.route("https://www.githubstatus.com/**", lambda r: (status_checks.append(r.request.url), r.fulfill(
        status=200, content_type="application/json", body='{"status": {"indicator": "none"}}')))
    context.add_init_script("window.showDirectoryPicker = async () =>"
                            " (await navigator.storage.getDirectory()).getDirectoryHandle('clone');")
    originals = {path: (ROOT / path).read_text(encoding="utf-8") for path in seeded}

    page.goto(site_url)
    page.evaluate(TEST_REPO_JS, {"files": {**originals, ".git/HEAD": "ref: refs/heads/main\n"}, "root": "clone"})
    page.goto(site_url + "admin/")
    page.get_by_role("button", name=ui_ar["work_with_local_repo"]).click()
    page.goto(site_url + "admin/#/collections/articles/entries/five-ways")
    title = page.locator('input[lang="en"]').first
    expect(title).to_have_value(originals["docs/articles/five-ways.en.md"].split("\n")[1].removeprefix("title: "))
    title.fill(NEW_TITLES["en"])
    page.get_by_role("button", name=ui_ar["save"], exact=True).click()
    edited = "docs/articles/five-ways.en.md"
    page.wait_for_function(SAVED_JS, arg={"root": "clone", "expect": {edited: NEW_TITLES["en"]}}, timeout=30_000,
                           polling=200)
    saved = page.evaluate(READ_JS, {"paths": seeded, "root": "clone"})
    assert _changed_lines(originals[edited], saved[edited]) == [
        (originals[edited].split("\n")[1], f"title: {NEW_TITLES['en']}")]
    assert all(saved[p] == originals[p] for p in seeded if p != edited)
    assert status_checks in ([], ["https://www.githubstatus.com/api/v2/status.json"])
