// The admin app's entry: Sveltia CMS's npm build (every asset it needs is bundled with it, nothing from a CDN).
// It is loaded as a module, so the CMS does not start by itself: start it here. It reads the configuration from
// the <link rel="cms-config-url"> of the admin page (admin/config.yml, written by the build from cms/config.yml).
import CMS from "@sveltia/cms";

CMS.init();
