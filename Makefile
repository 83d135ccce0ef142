# Two commands for a newcomer (see README.md):
#   make serve   install what is missing, build the site, serve it at a printed local address
#   make test    install what is missing, run every test (unit, property, accuracy, docs, e2e, frameworks)
#   make check   the fast tiers only (unit, property), for contributors: seconds, needs no browser or site (the doc
#                blocks read the CMS locales under node_modules, so it installs those too)
# Both are idempotent: a second run only redoes what changed.

PYTHON  ?= python3
VENV    := .venv
PY      := $(VENV)/bin/python
HOST    ?= 127.0.0.1
PORT    ?= 8000
CHROMIUM ?= /usr/bin/chromium

# mkdocs-material 9.7 prints a banner about MkDocs 2.0 on every build; we pin MkDocs 1.6 (see README).
export NO_MKDOCS_2_WARNING := 1

.PHONY: serve test check build install chromium clean snapshots

install: $(VENV)/.installed node_modules/.installed

# Two editable installs: the estimator (pyproject.toml, `llm-vram-estimator`, with its export extra) and the checkout's
# own distribution (dev/pyproject.toml: sitebuild with the MkDocs plugins, benchmarks, frameworks, the site's and the
# tests' pins). The estimator's distribution was called `calculator` before: its old editable install goes first.
$(VENV)/.installed: pyproject.toml dev/pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip uninstall --quiet --yes calculator 2>/dev/null || true
	$(PY) -m pip install --quiet --disable-pip-version-check -e '.[export]' -e './dev[docs,test]'
	touch $@

node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	touch $@

chromium:
	@test -x $(CHROMIUM) || { \
	  echo "Installing Debian's chromium (Playwright cannot download its own browser here)"; \
	  apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium; }

build: install
	$(VENV)/bin/mkdocs build --strict --quiet

serve: build
	$(PY) -m sitebuild.serve site --host $(HOST) --port $(PORT)

# Rewrite every generated block of the documents (tools/docs.py; CONTRIBUTING.md, "Generated blocks").
.PHONY: docs
docs: install
	$(PY) -m tools.docs

test: install chromium
	$(PY) -m pytest --durations=15

# One worker per core (pytest-xdist): the fast tiers are ~1,550 independent, CPU-bound tests. Python's bytecode cache
# stays on even where the environment turns it off (PYTHONDONTWRITEBYTECODE): each worker imports every test module.
check: install
	PYTHONDONTWRITEBYTECODE= $(PY) -m pytest -n auto -m "(unit or property) and not slow" -q

# Copies of 6 lines or more between two files (pylint's duplicate-code; comments, docstrings, imports and signatures
# ignored): CONTRIBUTING.md, "Copies", names the pairs that stay.
.PHONY: duplicates
duplicates: install
	$(PY) -m pylint --disable=all --enable=duplicate-code --min-similarity-lines=6 --score=no \
	  calculator sitebuild benchmarks frameworks

# One sha256 of what the deterministic benchmarks print (benchmarks/digest.py): equal before and after a change that
# must move no figure.
.PHONY: digest
digest: install
	$(PY) -m benchmarks.digest

# The frameworks' field lists the export checks diff against (frameworks/<target>/snapshot.json, committed); run
# after bumping a pin in frameworks/<target>/requirements.txt.
snapshots: install
	$(PY) -m frameworks.snapshots

clean:
	rm -rf site .pytest_cache build dist *.egg-info dev/*.egg-info
