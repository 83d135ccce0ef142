"""The site build, as small modules with one job each. The two MkDocs plugins (``site_plugin``, ``plugin``) and the
hook file ``hooks/search.py`` only route MkDocs events here, and keep a build's state on the plugin instance.

* ``site_plugin``  the site's MkDocs plugin: the draft flag, the string tables, the CMS admin, fonts, offline fixes
* ``plugin``   the calculator's MkDocs plugin: markers -> figures and widgets, the runtime and the wheel into the site
* ``publish``  the one publish switch: which articles are unpublished drafts
* ``cms``      the CMS configuration and the admin bundle copied into ``site/admin/``
* ``strings``  the page strings, one table per language (``calculator/strings/<lang>.json``)
* ``markers``  finding and parsing the ``<!-- calc:… -->`` markers of a page
* ``compute``  the estimator at build time: cached API calls that fail the build on a rejected request
* ``articles`` the article markers (tables, inline figures, the assumptions sentence, ready configs) routed to
  ``calculator.page``, which draws them from ``compute``'s answers
* ``wheel``    the ``calculator`` wheel the page loads into Pyodide
* ``runtime``  the bundled Pyodide runtime copied from ``node_modules``
* ``serve``    the static server of ``make serve`` and the browser tests
* ``hosting``  relative URLs under any sub-path: the language links, the 404 page that finds the site root
* ``search_index``  one search index per language, each page loading its own
* ``a11y``     accessibility fixes to the theme's own markup (what axe-core reports there)
* ``fonts``    the self-hosted fonts copied from ``node_modules``, with their stylesheet
* ``minify``   the site's own scripts and stylesheets, minified into the built site (esbuild)
* ``calc_assets``  what calc.css and protocol.mjs must carry for the estimator's vocabularies

The estimator itself (``calculator``) never imports anything from here; this package imports it, and draws no markup
and computes no figure of its own (``tests/unit/test_rooms.py``). The benchmarks and ``tools`` import this package,
never the other way round.
"""
