// The admin app's entry: Sveltia CMS's npm build (every asset it needs is bundled with it, nothing from a CDN).
// It is loaded as a module, so the CMS does not start by itself: start it here. It reads the configuration from
// the <link rel="cms-config-url"> of the admin page (admin/config.yml, written by the build from cms/config.yml),
// and mounts itself in the page's <div id="nc-root"> (Sveltia's custom mount element).
//
// While no backend is connected the build names the site's sources in the page (<meta name="cms-sandbox">): the
// sandbox module (cms/sandbox.js, its own file, loaded only then) copies them into the test backend's folder and
// says what the sandbox is, before the CMS starts and reads that folder. A connected admin page has no such name,
// and this file then only starts the CMS.
import CMS from "@sveltia/cms";

const sources = document.querySelector('meta[name="cms-sandbox"]')?.content;
if (sources) {
  const { prepareSandbox } = await import("./sandbox.js");
  await prepareSandbox(new URL(sources, document.baseURI)); // relative: the admin works under any sub-path
}
CMS.init();
