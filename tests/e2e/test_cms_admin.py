"""The CMS's admin app in Debian Chromium, offline, from the built site served under a sub-path.

While no backend is connected (the repository as it is) the admin is a sandbox: Sveltia CMS's test backend, whose
files live in the browser's origin-private file system (OPFS), folder ``sveltia-cms-test`` (Sveltia CMS
``src/lib/services/backends/fs/test.js``). Every test here starts from a fresh browser context, so from empty
storage, as a new editor does: nothing is put in the browser by the test. The admin must then open with every page
the CMS edits, in both languages, with the bytes of ``docs/``, say on its first screen what it is and how to
connect, in the editor's language, keep an editor's saved edits when it is opened again, and not write over them
when a later build brings other sources.

With a backend named (the build's connected variant: ``sitebuild.cms.install_admin`` with a GitHub configuration)
the admin has no sandbox: no note, no request for the sandbox's files, nothing written in the browser's storage;
its local-repository workflow edits a clone. Button labels come from the pinned CMS's own strings, so a fallback to
the wrong language fails the test too.
"""
from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
import yaml
from playwright.sync_api import expect

from sitebuild import cms
from sitebuild.serve import serve_in_thread
from tests.lazy import OnFirstUse

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
LOCALES = ROOT / "node_modules" / "@sveltia" / "cms" / "locales"
# Sveltia's own interface labels, read by the tests that use them (collecting needs no node_modules).
UI = OnFirstUse(("ar", "en"), lambda lang: json.loads(
    (LOCALES / {"ar": "ar.json", "en": "en-US.json"}[lang]).read_text(encoding="utf-8")))
FOLDER = "sveltia-cms-test"

# What the collections edit, found here from the files themselves: every article in both languages, the home page,
# the glossary. The sandbox must hold exactly these, byte for byte.
SOURCES = sorted(
    str(p.relative_to(ROOT)) for pattern in ("docs/articles/*.md", "docs/glossary*.md", "docs/index*.md")
    for p in ROOT.glob(pattern)
)
ARTICLES = sorted({Path(p).name.split(".")[0] for p in SOURCES if p.startswith("docs/articles/")})
ENTRIES = [("articles", slug, (f"docs/articles/{slug}.md", f"docs/articles/{slug}.en.md")) for slug in ARTICLES] + [
    ("pages", "home", ("docs/index.md", "docs/index.en.md")),
    ("pages", "glossary", ("docs/glossary.md", "docs/glossary.en.md")),
]
EDITED = ("docs/articles/vram-guide.md", "docs/articles/vram-guide.en.md")
NEW_TITLES = {"ar": "عنوان جديد من المحرر", "en": "A new title from the editor"}
OPEN_MS = 30_000  # the most an entry may take to open: the glossary's long tables take seconds on two busy cores

# What the first screen must tell an editor, in each language: a sandbox, edits stay in this browser, nothing is
# published; and how to connect (the one edit, where it is described).
NOTE_SAYS = {
    "ar": ("بيئة تجريبية", "يبقى في هذا المتصفح وحده", "لا يُنشر شيء"),
    "en": ("Sandbox", "stays in this browser only", "nothing is published"),
}
NOTE_NAMES = {"backend:", "cms/config.yml", "cms/README.md"}

LIST_JS = "async () => { const out = []; for await (const name of (await navigator.storage.getDirectory()).keys())" \
          " out.push(name); return out.sort(); }"
WRITE_JS = """async ({files, root}) => {
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
    try {
      let dir = top;
      for (const part of parts.slice(0, -1)) dir = await dir.getDirectoryHandle(part);
      const handle = await dir.getFileHandle(parts.at(-1));
      let bytes;
      // A File is a snapshot: when the admin writes the file again between getFile() and the read, the read throws
      // NotReadableError (seen under load); a fresh snapshot then reads the file as it now is.
      for (let tries = 0; ; tries++) {
        try { bytes = await (await handle.getFile()).arrayBuffer(); break; }
        catch (error) {
          if (error.name !== 'NotReadableError' || tries >= 20) throw error;
          await new Promise((done) => setTimeout(done, 100));
        }
      }
      out[path] = new TextDecoder('utf-8', {ignoreBOM: true}).decode(bytes);  // the bytes as they are, BOM included
    } catch (error) {
      if (error.name !== 'NotFoundError') throw error;
      out[path] = null;  // no such file
    }
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


def _source(path: str) -> str:
    return (ROOT / path).read_bytes().decode("utf-8")  # no newline translation: the file's bytes


def _front(text: str) -> dict:
    return yaml.safe_load(text.split("\n---\n", 1)[0].removeprefix("---\n"))


def _body(text: str) -> str:
    return text.split("\n---\n", 1)[1]


def _changed_lines(before: str, after: str) -> list[tuple[str, str]]:
    a, b = before.split("\n"), after.split("\n")
    assert len(a) == len(b), "lines were added or removed"
    return [(x, y) for x, y in zip(a, b) if x != y]


def _retitled(text: str, title: str) -> str:
    new, n = re.subn(r"(?m)^title: .*$", f"title: {title}", text, count=1)
    assert n == 1
    return new


def _note_is_shown(page, lang: str) -> None:
    """The sandbox note on the CMS's first screen: in the CMS's interface language, saying what it is and how to
    connect, not covered by the CMS."""
    html_lang = page.locator("html")
    expect(html_lang).to_have_attribute("lang", re.compile(f"^{lang}"))  # the CMS's interface language
    note = page.locator("aside[data-sandbox-note]")
    expect(note).to_be_visible()
    expect(note).to_have_attribute("lang", lang)
    expect(note).to_have_attribute("dir", "rtl" if lang == "ar" else "ltr")
    text = note.inner_text()
    for phrase in NOTE_SAYS[lang]:
        assert phrase in text, (phrase, text)
    assert NOTE_NAMES <= set(note.locator("code").all_inner_texts()), text
    enter = page.get_by_role("button", name=UI[lang]["work_with_test_repo"])
    expect(enter).to_be_visible()
    box, below = note.bounding_box(), enter.bounding_box()
    assert box["y"] + box["height"] <= below["y"], "the note and the CMS overlap"
    # On top at its centre (polled: while the CMS runs a view transition, the document itself is what is hit).
    page.wait_for_function("([x, y]) => !!document.elementFromPoint(x, y)?.closest('[data-sandbox-note]')",
                           arg=[box["x"] + box["width"] / 2, box["y"] + box["height"] / 2], timeout=10_000)


def _entry_shows(page, url: str, collection: str, slug: str, files: tuple[str, str],
                 texts: dict[str, str] | None = None) -> None:
    """The entry's two languages side by side, with the title and the whole body of each file."""
    texts = texts or {}
    # From the collection's list, as an editor goes (the CMS does not switch an open entry for another by address).
    page.goto(f"{url}admin/#/collections/{collection}")
    expect(page.locator("textarea")).to_have_count(0, timeout=OPEN_MS)
    page.goto(f"{url}admin/#/collections/{collection}/entries/{slug}")
    for lang, path in zip(("ar", "en"), files):
        title = _front(texts.get(path, _source(path)))["title"]
        expect(page.locator(f'input[lang="{lang}"]').first).to_have_value(title, timeout=OPEN_MS)
    bodies = page.locator("textarea:not([lang])")  # the raw Markdown bodies, Arabic pane first
    expect(bodies).to_have_count(2, timeout=OPEN_MS)
    for i, path in enumerate(files):
        assert bodies.nth(i).input_value().strip() == _body(texts.get(path, _source(path))).strip(), path


@pytest.mark.parametrize("lang", [
    pytest.param("ar", marks=pytest.mark.browser_context_args(locale="ar")),
    pytest.param("en", marks=pytest.mark.browser_context_args(locale="en-US")),
])
def test_a_new_editor_finds_every_page_of_the_site_in_the_sandbox(page, guard, subpath_site_url, lang):
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    # The CMS reports a configuration problem (unknown or deprecated option, unreadable entry) as a warning.
    warnings: list[str] = []
    page.on("console", lambda m: warnings.append(m.text) if m.type == "warning" else None)

    # A reader page loads nothing of the admin; the browser's storage is empty, as a new editor's is.
    page.goto(subpath_site_url + "articles/vram-guide/", wait_until="networkidle")
    assert not [u for u in requests if "/admin/" in u]
    assert page.evaluate(LIST_JS) == []

    page.goto(subpath_site_url + "admin/")
    _note_is_shown(page, lang)
    page.get_by_role("button", name=UI[lang]["work_with_test_repo"]).click()

    # Every article is listed (the list shows the default language's titles) and opens with both languages.
    page.goto(subpath_site_url + "admin/#/collections/articles")
    for slug in ARTICLES:
        expect(page.get_by_text(_front(_source(f"docs/articles/{slug}.md"))["title"], exact=True)).to_be_visible()
    for collection, slug, files in ENTRIES:
        _entry_shows(page, subpath_site_url, collection, slug, files)
    # Right-to-left Arabic fields, left-to-right English ones (the last entry opened, the glossary).
    for field_lang, direction in (("ar", "rtl"), ("en", "ltr")):
        fields = page.locator(f'input[lang="{field_lang}"], textarea[lang="{field_lang}"]')
        assert fields.count() >= 2  # title and description
        for i in range(fields.count()):
            assert fields.nth(i).evaluate("e => [e.dir, getComputedStyle(e).direction]") == [direction, direction]

    # The sandbox holds the same bytes as docs/, and nothing else the CMS would read.
    assert page.evaluate(READ_JS, {"paths": SOURCES, "root": FOLDER}) == {p: _source(p) for p in SOURCES}
    assert page.evaluate(LIST_JS) == [FOLDER, f"{FOLDER}.seeded.json"]
    assert not warnings, warnings
    # Everything came from the site itself (the guard also aborts and fails on any other host).
    assert requests and all(u.startswith(subpath_site_url) or u.startswith(("data:", "blob:")) for u in requests), \
        [u for u in requests if not u.startswith(subpath_site_url)]


@pytest.mark.browser_context_args(locale="ar")
def test_the_sandbox_keeps_an_editors_edits(page, guard, subpath_site_url):
    url = subpath_site_url
    originals = {path: _source(path) for path in SOURCES}
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    warnings: list[str] = []
    page.on("console", lambda m: warnings.append(m.text) if m.type == "warning" else None)

    page.goto(url + "admin/")
    _note_is_shown(page, "ar")
    page.get_by_role("button", name=UI["ar"]["work_with_test_repo"]).click()
    page.goto(url + "admin/#/collections/articles/entries/vram-guide")

    # Edit both titles, flip the one draft switch (shared by both files), save.
    title = {lang: page.locator(f'input[lang="{lang}"]').first for lang in ("ar", "en")}
    expect(title["ar"]).to_have_value(_front(originals[EDITED[0]])["title"])
    title["ar"].fill(NEW_TITLES["ar"])
    title["en"].fill(NEW_TITLES["en"])
    switches = page.get_by_role("switch")
    expect(switches).to_have_count(2)  # one per pane, the English one mirrors the Arabic one
    expect(switches.nth(0)).to_have_attribute("aria-checked", "true")
    switches.nth(0).click()
    expect(switches.nth(1)).to_have_attribute("aria-checked", "false")
    page.get_by_role("button", name=UI["ar"]["save"], exact=True).click()
    page.wait_for_function(SAVED_JS, arg={"root": FOLDER, "expect": {EDITED[0]: NEW_TITLES["ar"],
                                                                     EDITED[1]: NEW_TITLES["en"]}},
                           timeout=30_000, polling=200)
    saved = page.evaluate(READ_JS, {"paths": SOURCES, "root": FOLDER})
    for path, lang in zip(EDITED, ("ar", "en")):  # only the title and draft lines changed, in both files
        assert _changed_lines(originals[path], saved[path]) == [
            (originals[path].split("\n")[1], f"title: {NEW_TITLES[lang]}"),
            ("draft: true", "draft: false"),
        ], path
    assert all(saved[p] == originals[p] for p in SOURCES if p not in EDITED)

    # Opened again (the same build): the edit is there, and the sandbox's files are not fetched again.
    requests.clear()
    page.goto(url + "admin/")
    expect(page.locator("aside[data-sandbox-note]")).to_be_visible()
    _entry_shows(page, url, "articles", "vram-guide", EDITED, saved)
    assert page.evaluate(READ_JS, {"paths": SOURCES, "root": FOLDER}) == saved
    assert not [u for u in requests if re.search(r"/admin/sandbox-[0-9a-f]+\.json", u)]

    # A later build with other sources: a file the editor has not touched takes the site's new version (or goes,
    # if the site no longer has it); an edited one keeps the editor's, and the note names it if the site has changed
    # it too.
    later = dict(originals)
    later["docs/articles/five-ways.en.md"] = _retitled(originals["docs/articles/five-ways.en.md"], "Five ways, later")
    later[EDITED[0]] = _retitled(originals[EDITED[0]], "عنوان الموقع في بناء لاحق")
    gone = "docs/glossary.en.md"
    del later[gone]
    def later_page(route):
        response = route.fetch()
        html, n = re.subn(r'(<meta name="cms-sandbox" content=")sandbox-[0-9a-f]+\.json"', r'\1sandbox-later.json"',
                          response.text())
        assert n == 1
        headers = {k: v for k, v in response.headers.items() if k.lower() != "content-length"}
        route.fulfill(status=response.status, headers=headers, body=html)
    page.route(re.compile(r"/admin/(index\.html)?(\?.*)?$"), later_page)
    page.route("**/admin/sandbox-later.json", lambda r: r.fulfill(
        status=200, content_type="application/json", body=json.dumps({"files": later}, ensure_ascii=False)))
    page.goto(url + "admin/")
    status = page.locator("aside[data-sandbox-note] [role=status]")
    expect(page.locator("aside[data-sandbox-note]")).to_have_attribute("data-sandbox-state", "kept")
    expect(status.locator("code")).to_have_text([EDITED[0]])
    now = page.evaluate(READ_JS, {"paths": SOURCES, "root": FOLDER})
    assert now == {**later, EDITED[0]: saved[EDITED[0]], EDITED[1]: saved[EDITED[1]], gone: None}
    _entry_shows(page, url, "articles", "five-ways", ("docs/articles/five-ways.md", "docs/articles/five-ways.en.md"),
                 later)

    # Starting again (asked first) brings back the site's pages of that build, the edits gone.
    page.once("dialog", lambda dialog: dialog.accept())
    with page.expect_navigation():
        page.locator("aside[data-sandbox-note] button").click()
    expect(page.locator("aside[data-sandbox-note]")).to_have_attribute("data-sandbox-state", "ready")
    assert page.evaluate(READ_JS, {"paths": SOURCES, "root": FOLDER}) == {**later, gone: None}
    expect(status).to_be_hidden()
    assert not warnings, warnings


@pytest.mark.browser_context_args(locale="en-US")
def test_a_browser_that_keeps_no_files_is_told_why(page, context, guard, subpath_site_url):
    """Where the browser refuses its origin-private file system (an address that is neither https nor localhost,
    some private modes), the sandbox cannot hold the site's pages: the note says so and why, and the CMS still
    starts."""
    context.add_init_script("StorageManager.prototype.getDirectory = () =>"
                            " Promise.reject(new DOMException('refused', 'SecurityError'));")
    page.goto(subpath_site_url + "admin/")
    note = page.locator("aside[data-sandbox-note]")
    expect(note).to_have_attribute("data-sandbox-state", "noStorage")
    status = note.locator("[role=status]")
    expect(status).to_be_visible()
    assert {"https", "localhost"} <= set(status.locator("code").all_inner_texts())
    expect(note.locator("button")).to_be_hidden()  # nothing to start again from
    expect(page.get_by_role("button", name=UI["en"]["work_with_test_repo"])).to_be_visible()


@pytest.mark.browser_context_args(locale="ar")
def test_sources_that_do_not_load_are_reported(page, guard, subpath_site_url):
    guard.allow_console.append("Failed to load resource: the server responded with a status of 404")
    page.route(re.compile(r"/admin/sandbox-[0-9a-f]+\.json$"), lambda r: r.fulfill(status=404, body="gone"))
    page.goto(subpath_site_url + "admin/")
    note = page.locator("aside[data-sandbox-note]")
    expect(note).to_have_attribute("data-sandbox-state", "failed")
    expect(note.locator("[role=status]")).to_contain_text("HTTP 404")
    expect(page.get_by_role("button", name=UI["ar"]["work_with_test_repo"])).to_be_visible()
    assert page.evaluate(LIST_JS) == []  # nothing copied, nothing recorded: the next visit tries again


# ---------------------------------------------------------------------------------------------------------------
# Connected: the build's admin step with a real backend named
# ---------------------------------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def connected_admin_url(built_site, tmp_path_factory):
    """The admin as a connected build installs it (the same function the build calls, with the served
    configuration's backend set to GitHub), served at the root of 127.0.0.1, beside a blank page of the same
    origin from which a test can write the browser's storage."""
    site = tmp_path_factory.mktemp("connected-admin") / "site"
    served = yaml.safe_load((built_site / "admin" / "config.yml").read_text(encoding="utf-8"))
    served["backend"] = {"name": "github", "repo": "example/gpu-guide", "branch": "main"}
    admin = cms.install_admin(site, served, ROOT)
    assert (admin / "cms.js").is_file() and not list(admin.glob("sandbox*"))
    (site / "assets").mkdir()
    shutil.copyfile(built_site / "assets" / "favicon.svg", site / "assets" / "favicon.svg")
    (site / "blank.html").write_text("<!doctype html><title>blank</title>", encoding="utf-8")
    server, url = serve_in_thread(site)
    yield url
    server.shutdown()


def _answer_github_status(context) -> list[str]:
    """The GitHub backend shows GitHub's status (a badge); answer it here, it is the one request the admin makes off
    the host with that backend. Returns the list of the addresses asked."""
    asked: list[str] = []
    context.route("https://www.githubstatus.com/**", lambda r: (asked.append(r.request.url), r.fulfill(
        status=200, content_type="application/json", body='{"status": {"indicator": "none"}}')))
    return asked


@pytest.mark.browser_context_args(locale="ar")
def test_a_connected_admin_runs_no_sandbox_code(page, context, guard, connected_admin_url):
    _answer_github_status(context)
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    page.goto(connected_admin_url + "admin/")
    expect(page.get_by_role("button", name=UI["ar"]["work_with_local_repo"])).to_be_visible()
    expect(page.locator("aside[data-sandbox-note]")).to_have_count(0)
    assert page.evaluate(LIST_JS) == []  # nothing written in the browser's storage
    assert not [u for u in requests if "sandbox" in u], requests
    assert any(u.endswith("/admin/cms.js") for u in requests)


@pytest.mark.browser_context_args(locale="ar")
def test_admin_edits_a_local_clone_once_a_backend_is_named(page, context, guard, connected_admin_url):
    """The local workflow of cms/README.md: the configuration names a real backend (here GitHub), the admin runs on
    127.0.0.1, and "work with a local repository" edits the files of a clone. The folder picker is the browser's
    (File System Access API); the test answers it with an origin-private folder holding a clone's files."""
    url = connected_admin_url
    status_checks = _answer_github_status(context)
    context.add_init_script("window.showDirectoryPicker = async () =>"
                            " (await navigator.storage.getDirectory()).getDirectoryHandle('clone');")
    originals = {path: _source(path) for path in SOURCES}

    page.goto(url + "blank.html")
    page.evaluate(WRITE_JS, {"files": {**originals, ".git/HEAD": "ref: refs/heads/main\n"}, "root": "clone"})
    page.goto(url + "admin/")
    page.get_by_role("button", name=UI["ar"]["work_with_local_repo"]).click()
    page.goto(url + "admin/#/collections/articles/entries/five-ways")
    title = page.locator('input[lang="en"]').first
    edited = "docs/articles/five-ways.en.md"
    expect(title).to_have_value(_front(originals[edited])["title"])
    title.fill(NEW_TITLES["en"])
    page.get_by_role("button", name=UI["ar"]["save"], exact=True).click()
    page.wait_for_function(SAVED_JS, arg={"root": "clone", "expect": {edited: NEW_TITLES["en"]}}, timeout=30_000,
                           polling=200)
    saved = page.evaluate(READ_JS, {"paths": SOURCES, "root": "clone"})
    assert _changed_lines(originals[edited], saved[edited]) == [
        (originals[edited].split("\n")[1], f"title: {NEW_TITLES['en']}")]
    assert all(saved[p] == originals[p] for p in SOURCES if p != edited)
    assert page.evaluate(LIST_JS) == ["clone"]  # the connected admin wrote no sandbox beside it
    assert status_checks in ([], ["https://www.githubstatus.com/api/v2/status.json"])
