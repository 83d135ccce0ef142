// The sandbox: what the admin is while no backend is connected (cms/config.yml says `test-repo`).
//
// Sveltia CMS's test backend keeps its files in the browser's origin-private file system (OPFS), in the folder
// `sveltia-cms-test`, and reads that folder when the editor enters ("Work with Test Repository"; Sveltia CMS 0.221.1
// src/lib/services/backends/fs/test.js, signIn + fetchFiles -> fs/shared/files.js loadFiles). A new visitor's folder
// is empty, so the build bundles the site's sources (admin/sandbox-<hash>.json, named by the page's
// <meta name="cms-sandbox">; sitebuild/cms.py) and this module writes them there before the CMS starts:
//   * a file the folder lacks is written;
//   * a file the editor has changed is never written over. What was written is remembered beside the folder (its
//     SHA-256 per path, in `sveltia-cms-test.seeded.json`, which the CMS never reads): a file that still holds what
//     was written takes the site's new version after a new build; one that differs is the editor's and stays (the
//     note then names it if the site's version has changed since, and offers to start again);
//   * a file a later build no longer has is removed, unless the editor has changed it;
//   * the same build opened again writes nothing and fetches nothing.
// It also shows, above the CMS, what the sandbox is and how to connect a backend, in the CMS's interface language
// (Arabic or English; the CMS follows the browser and sets <html lang>), and offers to start again from the site's
// pages. main.js loads this module only when the page names the sources, so a connected admin never runs it.

export const FOLDER = "sveltia-cms-test"; // cms/build.mjs checks that the bundled CMS still uses this name
const RECORD = `${FOLDER}.seeded.json`;
const LOCK = "cms-sandbox-sources";

const STRINGS = {
  ar: {
    label: "عن هذا المحرر",
    title: "بيئة تجريبية.",
    stays: "ما تحفظه هنا يبقى في هذا المتصفح وحده: لا يُنشر شيء، ولا يراه أحد غيرك.",
    copy: "فُتح هذا المحرر على نسخة من صفحات الموقع كما بُنيت: كل مقال بلغتيه، والصفحة الرئيسية، والمسرد.",
    connect: "للنشر يربط القائم على الموقع مستودعًا بتعديل واحد: كتلة `backend:` في الملف `cms/config.yml`،"
      + " ويشرحها الملف `cms/README.md` لكل مستضيف.",
    reset: "البدء من جديد من صفحات الموقع",
    resetConfirm: "أتريد حذف كل ما حفظته في هذه البيئة التجريبية والبدء من جديد من صفحات الموقع؟",
    preparing: "جارٍ نسخ صفحات الموقع إلى هذه البيئة التجريبية…",
    kept: (files) => `للموقع نسخة أحدث من ${files}، وبقيت تعديلاتك فيها. ابدأ من جديد لتأخذ نسخة الموقع.`,
    noStorage: "لا يتيح هذا المتصفح للبيئة التجريبية حفظ الملفات (يلزم أن يُفتح الموقع عبر `https` أو `localhost`،"
      + " وخارج التصفح الخاص)، لذا يُفتح المحرر بلا صفحات الموقع.",
    failed: (reason) => `تعذّر نسخ صفحات الموقع إلى البيئة التجريبية (${reason})، لذا قد يُفتح المحرر بلا بعضها.`,
    list: "، ",
  },
  en: {
    label: "About this editor",
    title: "Sandbox.",
    stays: "What you save here stays in this browser only: nothing is published, and no one else sees it.",
    copy: "This editor opened with a copy of the site's pages as they were built: both languages of every article,"
      + " the home page and the glossary.",
    connect: "To publish, the site's maintainer connects a repository with one edit, the `backend:` block of"
      + " `cms/config.yml`; `cms/README.md` shows it for each host.",
    reset: "Start again from the site's pages",
    resetConfirm: "Discard everything saved in this sandbox and start again from the site's pages?",
    preparing: "Copying the site's pages into this sandbox…",
    kept: (files) => `The site has a newer version of ${files}; your edits there are kept. Start again to take the`
      + " site's version.",
    noStorage: "This browser does not let the sandbox keep files (the site must be opened over `https` or on"
      + " `localhost`, outside private browsing), so the editor opens without the site's pages.",
    failed: (reason) => `The site's pages could not be copied into the sandbox (${reason}), so the editor may open`
      + " without some of them.",
    list: ", ",
  },
};

// The CMS's interface language once it has set <html lang>; before that, the browser's first language.
const language = (tag) => (/^ar\b/i.test(tag || "") ? "ar" : "en");

class SandboxError extends Error {}

// ----------------------------------------------------------------------------------------------------------------
// The note above the CMS
// ----------------------------------------------------------------------------------------------------------------
// The nodes of a string: `code` spans are its only markup, each isolated left-to-right inside Arabic text.
function spans(text) {
  return text.split("`").flatMap((part, i) => {
    if (!part) return [];
    return [i % 2 ? Object.assign(document.createElement("code"), { dir: "ltr", textContent: part }) : part];
  });
}

// What it is, in one line that stays; the rest (where its pages come from, how to connect, starting again) folds
// away under it, open at first, so that an editor on a small screen can give the room back to the CMS. The status
// line (copying, a failure, edits kept) stays outside the fold. Its elements are made once and their text redone
// on a change of language or state, so that focus and the fold's state survive.
function createNote(onReset) {
  const make = (tag, props = {}) => Object.assign(document.createElement(tag), props);
  const note = make("aside", { className: "sandbox-note" });
  note.dataset.sandboxNote = "";
  const details = make("details", { open: true });
  const summary = make("summary");
  const copy = make("p");
  const connect = make("p");
  const reset = make("button", { type: "button" });
  const status = make("p", { className: "sandbox-note__status" });
  status.setAttribute("role", "status");
  details.append(summary, copy, connect, reset);
  note.append(details, status);
  let state = { kind: "idle" };
  let lang = language(navigator.languages?.[0] || navigator.language);
  reset.addEventListener("click", () => {
    if (window.confirm(STRINGS[lang].resetConfirm)) onReset();
  });

  const render = () => {
    const t = STRINGS[lang];
    note.dataset.sandboxState = state.kind; // idle, preparing, ready, kept, noStorage, failed
    note.lang = lang;
    note.dir = lang === "ar" ? "rtl" : "ltr";
    note.setAttribute("aria-label", t.label);
    summary.replaceChildren(make("strong", { textContent: t.title }), " ", ...spans(t.stays));
    copy.replaceChildren(...spans(t.copy));
    connect.replaceChildren(...spans(t.connect));
    reset.textContent = t.reset;
    reset.hidden = state.kind === "noStorage" || state.kind === "preparing";
    const message = {
      preparing: () => t.preparing,
      kept: () => t.kept(state.paths.map((path) => `\`${path}\``).join(t.list)),
      noStorage: () => t.noStorage,
      failed: () => t.failed(state.reason),
    }[state.kind];
    status.replaceChildren(...spans(message ? message() : ""));
    status.hidden = !message;
    status.classList.toggle("sandbox-note__status--error", state.kind === "noStorage" || state.kind === "failed");
  };

  render();
  return {
    element: note,
    show(next) {
      state = next;
      render();
    },
    follow(root) {
      // Sveltia sets <html lang> (and dir) to its interface language, and again when the editor changes it.
      new MutationObserver(() => {
        const next = language(root.getAttribute("lang"));
        if (next !== lang) {
          lang = next;
          render();
        }
      }).observe(root, { attributes: true, attributeFilter: ["lang"] });
    },
  };
}

// ----------------------------------------------------------------------------------------------------------------
// The files
// ----------------------------------------------------------------------------------------------------------------
const isMissing = (error) => error?.name === "NotFoundError" || error?.name === "TypeMismatchError";

async function fileHandle(dir, path, create) {
  const parts = path.split("/");
  for (const part of parts.slice(0, -1)) dir = await dir.getDirectoryHandle(part, { create });
  return dir.getFileHandle(parts.at(-1), { create });
}

async function readBytes(dir, path) {
  try {
    return new Uint8Array(await (await (await fileHandle(dir, path, false)).getFile()).arrayBuffer());
  } catch (error) {
    if (isMissing(error)) return null;
    throw error;
  }
}

async function writeBytes(dir, path, bytes) {
  const writable = await (await fileHandle(dir, path, true)).createWritable();
  try {
    await writable.write(bytes);
  } finally {
    await writable.close(); // the file changes only here, all at once
  }
}

async function removeFile(dir, path) {
  const parts = path.split("/");
  for (const part of parts.slice(0, -1)) dir = await dir.getDirectoryHandle(part);
  await dir.removeEntry(parts.at(-1));
}

async function sha256(bytes) {
  return [...new Uint8Array(await crypto.subtle.digest("SHA-256", bytes))]
    .map((b) => b.toString(16).padStart(2, "0")).join("");
}

async function readRecord(top) {
  const bytes = await readBytes(top, RECORD);
  if (!bytes) return null;
  try {
    const record = JSON.parse(new TextDecoder().decode(bytes));
    return record && typeof record === "object" && record.files && typeof record.files === "object" ? record : null;
  } catch {
    return null; // an unreadable record: every file that differs from the site's is then treated as an edit
  }
}

// Bring the sandbox folder up to the site's sources of this build; return the paths kept with the editor's edits
// although the site's version has changed since the one the editor started from.
async function seed(top, sourcesUrl, onFetch) {
  const build = sourcesUrl.pathname.split("/").pop();
  const record = await readRecord(top);
  if (record?.build === build) return record.kept || [];
  onFetch();
  const response = await fetch(sourcesUrl);
  if (!response.ok) throw new SandboxError(`HTTP ${response.status}`);
  const { files } = await response.json();
  const dir = await top.getDirectoryHandle(FOLDER, { create: true });
  const encoder = new TextEncoder();
  const written = {};
  const kept = [];
  for (const [path, text] of Object.entries(files)) {
    const bytes = encoder.encode(text);
    const site = await sha256(bytes);
    const current = await readBytes(dir, path);
    const mine = current && await sha256(current);
    if (!current || (mine !== site && mine === record?.files[path])) {
      await writeBytes(dir, path, bytes); // new to the sandbox, or untouched since written: the site's version
      written[path] = site;
    } else if (mine === site) {
      written[path] = site;
    } else { // the editor's version
      if (record?.files[path]) written[path] = record.files[path];
      if (site !== record?.files[path]) kept.push(path);
    }
  }
  // A page the site no longer has goes too, unless the editor has changed it.
  for (const [path, sha] of Object.entries(record?.files || {})) {
    if (path in files) continue;
    const current = await readBytes(dir, path);
    if (current && await sha256(current) === sha) await removeFile(dir, path);
    else if (current) written[path] = sha;
  }
  await writeBytes(top, RECORD, encoder.encode(JSON.stringify({ build, files: written, kept })));
  return kept;
}

async function forget(top) {
  for (const name of [FOLDER, RECORD]) {
    try {
      await top.removeEntry(name, { recursive: true });
    } catch (error) {
      if (!isMissing(error)) throw error;
    }
  }
}

// Serialised across the tabs of this site, so that two admin tabs opened at once do not write the same files.
const exclusive = (task) => (navigator.locks ? navigator.locks.request(LOCK, task) : task());

export async function prepareSandbox(sourcesUrl) {
  let top = null;
  const note = createNote(async () => {
    try {
      await exclusive(() => forget(top));
    } finally {
      window.location.reload();
    }
  });
  document.body.prepend(note.element);
  note.follow(document.documentElement);
  try {
    top = await navigator.storage.getDirectory(); // absent or refused outside a secure context, in private modes
  } catch {
    top = null;
  }
  if (!top || !globalThis.crypto?.subtle) {
    note.show({ kind: "noStorage" });
    return;
  }
  try {
    const kept = await exclusive(() => seed(top, sourcesUrl, () => note.show({ kind: "preparing" })));
    note.show(kept.length ? { kind: "kept", paths: kept } : { kind: "ready" });
  } catch (error) {
    console.warn("cms sandbox: the site's pages were not copied", error);
    note.show({ kind: "failed", reason: error instanceof SandboxError ? error.message : error?.name || "Error" });
  }
}
