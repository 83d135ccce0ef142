// Bundle the admin app (Sveltia CMS's npm build) with esbuild; both are pinned in package.json.
//
//   node cms/build.mjs <outdir>
//
// The site build (sitebuild/cms.py) runs this into .cache/cms-admin/<hash of the inputs>/ and copies the result into
// site/admin/; run it by hand only to look at the output. What it writes:
//   index.html   the admin page (cms/admin.html)
//   cms.js       the entry (cms/main.js) with the CMS; cms-<hash>.js the chunks it loads on demand
//   sandbox.js   what the admin does while no backend is connected (cms/sandbox.js), loaded by cms.js only then
//   assets/      the fonts, icons and wasm the CMS finds with new URL("assets/...", import.meta.url)
//   LICENSE.txt  Sveltia CMS's licence (the bundled packages' licence comments stay at the end of each file)
//
// Three edits to what is bundled, and one name it relies on, each checked here so that an upgrade that changes
// them fails loudly:
// * No CDN in any code path. The npm build bundles everything the CDN build fetches, but keeps the CDN addresses
//   as fallbacks (a chunk that fails to load is retried from unpkg.com). They are pointed at the site itself, as
//   sitebuild/site_plugin.py does for Material's bundle: offline, a failed load stays a failed load.
// * Zoom. Sveltia's app shell writes its own viewport tag with maximum-scale=1, which stops editors from zooming
//   on a phone (WCAG 1.4.4, axe's meta-viewport rule); that one term is dropped.
// * Syntax grammars. Sveltia's editor can highlight code in 240 languages, each a lazily loaded chunk (11 MB in all).
//   Our fields edit Markdown in a plain text area (`modes: [raw]`) and no field is a code editor, so no grammar is
//   ever loaded (the e2e test records every request); keep the few that could matter and stub the others, which
//   cuts the admin from about 18 MB to about 5 MB. A stubbed language is shown unhighlighted.
// * The sandbox's folder. cms/sandbox.js writes the site's sources where Sveltia's test backend reads its files, the
//   origin-private folder its code names `sveltia-cms-test` (an internal name, not an option): the bundled CMS
//   must still name the folder sandbox.js writes.
import { build } from "esbuild";
import { copyFileSync, cpSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const outdir = process.argv[2];
if (!outdir) {
  console.error("usage: node cms/build.mjs <outdir>");
  process.exit(2);
}
const require = createRequire(import.meta.url);
const cmsEntry = require.resolve("@sveltia/cms");  // node_modules/@sveltia/cms/npm/index.js
const cmsNpmDir = dirname(cmsEntry);

const KEPT_GRAMMARS = new Set([
  "markdown", "yaml", "json", "toml", "html", "css", "javascript", "python", "shellscript",
]);
const CDN = /https:\/\/(unpkg\.com|cdn\.jsdelivr\.net)\//g;
const NO_ZOOM = "`maximum-scale=1`,";

const stubGrammars = {
  name: "stub-unused-grammars",
  setup(b) {
    b.onResolve({ filter: /^@shikijs\/langs\/[a-z0-9-]+$/ }, (args) => {
      const lang = args.path.slice("@shikijs/langs/".length);  // every stubbed language shares one empty chunk
      return KEPT_GRAMMARS.has(lang) ? undefined : { path: "stub", namespace: "stubbed-grammar" };
    });
    b.onLoad({ filter: /.*/, namespace: "stubbed-grammar" }, () => ({ contents: "export default [];", loader: "js" }));
  },
};

let cdnEdits = 0;
let zoomEdits = 0;
let sandboxFolderNamed = false;
const sandboxFolder = readFileSync(join(here, "sandbox.js"), "utf8").match(/^export const FOLDER = "([^"]+)";/m)?.[1];
const edits = {
  name: "no-cdn-and-zoom",
  setup(b) {
    b.onLoad({ filter: /\.js$/ }, (args) => {
      if (!args.path.startsWith(cmsNpmDir)) return undefined;
      const text = readFileSync(args.path, "utf8");
      if (sandboxFolder && text.includes(`\`${sandboxFolder}\``)) sandboxFolderNamed = true;
      const edited = text
        .replace(CDN, () => {
          cdnEdits += 1;
          return "./offline-unavailable/";
        })
        .replaceAll(NO_ZOOM, () => {
          zoomEdits += 1;
          return "";
        });
      return { contents: edited, loader: "js" };
    });
  },
};

await build({
  entryPoints: { cms: join(here, "main.js"), sandbox: join(here, "sandbox.js") },
  bundle: true,
  splitting: true,
  format: "esm",
  target: "es2022",
  minify: true,
  legalComments: "eof",
  outdir,
  chunkNames: "cms-[hash]",
  plugins: [stubGrammars, edits],
  logLevel: "warning",
});

if (cdnEdits === 0 || zoomEdits !== 1) {
  console.error(`cms/build.mjs: @sveltia/cms changed (${cdnEdits} CDN addresses, ${zoomEdits} maximum-scale terms edited);`
    + " look at the edits again after the upgrade");
  process.exit(1);
}
if (!sandboxFolderNamed) {
  console.error(`cms/build.mjs: the bundled @sveltia/cms no longer names its test backend's folder "${sandboxFolder}"`
    + " (cms/sandbox.js FOLDER); find the new name in its src/lib/services/backends/fs/test.js");
  process.exit(1);
}

// The fonts, icons and wasm the CMS finds next to its script (source maps left out).
cpSync(join(cmsNpmDir, "assets"), join(outdir, "assets"), {
  recursive: true,
  filter: (src) => !src.endsWith(".map"),
});
copyFileSync(join(here, "admin.html"), join(outdir, "index.html"));
copyFileSync(join(cmsNpmDir, "..", "LICENSE.txt"), join(outdir, "LICENSE.txt"));
