"""The site build, as small modules with one job each. The MkDocs hook files (``hooks/site.py``,
``hooks/widgets.py``) only route MkDocs events here.

* ``strings``  the page strings, one table per language (``overrides/strings/<lang>.json``)
* ``markers``  finding and parsing the ``<!-- calc:… -->`` markers of a page
* ``compute``  the estimator at build time: cached API calls that fail the build on a rejected request
* ``articles`` what the build alone computes into an article: tables, inline figures, the assumptions sentence
* ``wheel``    the ``calculator`` wheel the page loads into Pyodide
* ``runtime``  the bundled Pyodide runtime copied from ``node_modules``
* ``serve``    the static server of ``make serve`` and the browser tests
* ``hosting``  relative URLs under any sub-path: the language links, the 404 page that finds the site root
* ``search_index``  one search index per language, each page loading its own
* ``a11y``     accessibility fixes to the theme's own markup (what axe-core reports there)

The estimator itself (``calculator``) never imports anything from here; this package imports it.
"""
