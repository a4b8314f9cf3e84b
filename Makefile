# The two commands of the README: `make run` and `make test`. Both set up what they need.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-stamp
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
CHROMIUM := /usr/bin/chromium
PG_URL ?= postgres://postgres@127.0.0.1:5432/evaltool

## Python keeps the modules it compiles (__pycache__/, ignored by git), whatever the
## machine says: where PYTHONDONTWRITEBYTECODE=1 is set for every process, each test
## process compiled the suite again (collecting it: 16 s of CPU, 8 s with the files kept),
## as did every server, worker and command a test starts. Empty is unset to Python.
export PYTHONDONTWRITEBYTECODE :=

WORDNET_DIR := /usr/share/wordnet
WORDNET := $(WORDNET_DIR)/index.noun

.PHONY: run serve deploy worker test test-fast test-postgres venv runtime browser wordnet wordnet-check mteval comet redis latex migrations-check lint bench demo

## The developers' install: the project with its test and development tools (a superset
## of the production install below, whose stamp it leaves too).
$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check --upgrade pip
	$(PY) -m pip install --quiet --disable-pip-version-check -e '.[test,dev]'
	touch $(STAMP) $(RUNTIME_STAMP)

venv: $(STAMP)

## The production install (make deploy, make serve): the project and what it needs to
## run, PostgreSQL's driver included; no test or development tool, no Debian package.
## Servers started at once take turns (flock), the second finding the install done.
RUNTIME_STAMP := $(VENV)/.runtime-stamp

$(RUNTIME_STAMP): pyproject.toml
	@mkdir -p $(VENV)
	@flock $(VENV)/.install.lock bash -c '\
	  test $@ -nt pyproject.toml && exit 0; \
	  test -x $(PY) || $(PYTHON) -m venv $(VENV); \
	  $(PY) -m pip install --quiet --disable-pip-version-check -e ".[postgres]" && touch $@'

runtime: $(RUNTIME_STAMP)

## Debian's Chromium, driven by Playwright in the browser tests (no browser download).
browser:
	@test -x $(CHROMIUM) || { \
	  echo "Installing Debian's chromium for the browser tests..."; \
	  $(SUDO) apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq chromium >/dev/null; }

## Debian's WordNet 3.0 dictionary files, which METEOR's synonym stage reads (no download
## at run time; metrics/wordnet.py).
wordnet:
	@test -f $(WORDNET) || { \
	  echo "Installing Debian's wordnet-base for METEOR..."; \
	  $(SUDO) apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq wordnet-base >/dev/null; }

## Debian's pdflatex and booktabs: the tests compile the dashboard's LaTeX table with them
## (a production host needs neither: the table is text the lead's own LaTeX compiles).
latex:
	@command -v pdflatex >/dev/null && kpsewhich booktabs.sty >/dev/null || { \
	  echo "Installing Debian's pdflatex and booktabs for the tests..."; \
	  $(SUDO) apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends \
	    texlive-latex-base texlive-latex-recommended >/dev/null; }

## What a production host needs of Debian, checked, never installed (make serve and make
## deploy run no apt-get): WordNet's files, which METEOR's signature on the dashboard reads.
wordnet-check:
	@test -f "$${WNSEARCHDIR:-$(WORDNET_DIR)}/index.noun" || { \
	  echo "METEOR needs WordNet: install Debian's wordnet-base package (make wordnet does)" >&2; \
	  exit 1; }

## Redis on 127.0.0.1:6379, started if it is down, and Debian's redis-server installed if it
## is missing: the suite shares the figures through it (as through the database's table),
## and starts a Redis server of its own where a test stops it (annotation/tests/statistics/
## test_shared.py).
REDIS_PING := redis-cli -h 127.0.0.1 -p 6379 ping
redis:
	@command -v redis-server >/dev/null || { \
	  echo "Installing Debian's redis-server for the shared figures' tests..."; \
	  $(SUDO) apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq redis-server >/dev/null; }
	@$(REDIS_PING) >/dev/null 2>&1 || $(SUDO) service redis-server start >/dev/null
	@for i in $$(seq 30); do $(REDIS_PING) >/dev/null 2>&1 && break; sleep 1; done
	@$(REDIS_PING) >/dev/null

## Perl's XML::Twig (Debian's libxml-twig-perl), which NIST's own mteval-v13a.pl loads:
## the NIST tests run the script itself (metrics/tests/data/README.md).
mteval:
	@perl -MXML::Twig -e 1 2>/dev/null || { \
	  echo "Installing Debian's libxml-twig-perl for the mteval tests..."; \
	  $(SUDO) apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq perl libxml-twig-perl >/dev/null; }

## The COMET environment (`manage.py comet`, annotation/comet/): a virtual environment of
## its own, as unbabel-comet pins numpy<2 and the project runs numpy 2. It lives outside
## the checkout, shared by every clone of the machine (a clean clone, CI's too, finds it
## made), and is made again only when annotation/comet/requirements.txt changes: the
## stamp's name is the list's checksum. flock keeps two clones from building it at once.
## The app finds its python there (EVALTOOL_COMET_PYTHON's default); a COMET_VENV given
## here needs EVALTOOL_COMET_PYTHON set to match.
COMET_VENV ?= $(or $(XDG_CACHE_HOME),$(HOME)/.cache)/evaltool/comet-venv
COMET_REQUIREMENTS := annotation/comet/requirements.txt
COMET_STAMP = $(COMET_VENV)/.installed-$(shell sha256sum < $(COMET_REQUIREMENTS) | cut -c1-16)

$(COMET_STAMP):
	@mkdir -p $(dir $(COMET_VENV))
	@flock $(COMET_VENV).lock bash -c '\
	  test -f $@ && exit 0; \
	  echo "Making the COMET environment in $(COMET_VENV) (minutes, once)..."; \
	  rm -rf $(COMET_VENV) && $(PYTHON) -m venv $(COMET_VENV) && \
	  $(COMET_VENV)/bin/python -m pip install --quiet --disable-pip-version-check \
	    -r $(COMET_REQUIREMENTS) && \
	  $(COMET_VENV)/bin/python -W ignore -c "import comet" && touch $@'

comet: $(COMET_STAMP)

migrations-check: venv
	$(PY) manage.py makemigrations --check --dry-run

## The demo runs with DEBUG on (Django's development server serves the static files, and
## errors show their traceback); everything else has it off unless set.
demo: export DEBUG ?= true
demo: venv wordnet
	$(PY) manage.py migrate --noinput
	$(PY) manage.py demo_setup

## The demo server and one worker beside it (the queue's jobs: scoring, imports); Ctrl-C
## stops both.
run: export DEBUG ?= true
run: demo
	@$(PY) manage.py worker & worker=$$!; \
	  trap 'kill $$worker 2>/dev/null; wait $$worker' EXIT; \
	  $(PY) manage.py runserver 127.0.0.1:8000

## gunicorn believes a proxy's X-Forwarded-Proto only with EVALTOOL_BEHIND_PROXY on
## (then from FORWARDED_ALLOW_IPS, default 127.0.0.1,::1); otherwise from no one, where
## its own default would believe any local process (evaltool.env.forwarded_allow_ips).
FORWARDED_ALLOW_IPS_FLAG = --forwarded-allow-ips '$(shell $(PY) -c 'from evaltool.env import forwarded_allow_ips as f; print(f())')'

## A release on a production host: the production install, then the migrations applied
## and the static files collected (hashed names, served by the app) and published at
## once (manage.py deploy): collected once per change, one process at a time, so servers
## started together from one checkout, or against one database, all come up.
deploy: runtime wordnet-check
	@DEBUG=$${DEBUG:-false} $(PY) manage.py deploy

## The production server: gunicorn on $${HOST:-127.0.0.1}:$${PORT:-8000} with $${WEB_CONCURRENCY:-3}
## workers, DEBUG off unless set, SECRET_KEY required, DATABASE_URL honoured; make deploy
## first (quick when nothing changed). Its error log (standard error) has every unhandled
## error's traceback (the settings' LOGGING); its access log (standard output) and error
## log cut a per-annotator link's token to its hint (evaltool/gunicorn_logging.py).
serve: deploy
	@export DEBUG=$${DEBUG:-false}; \
	  exec $(VENV)/bin/gunicorn evaltool.wsgi:application \
	    --bind "$${HOST:-127.0.0.1}:$${PORT:-8000}" \
	    --workers "$${WEB_CONCURRENCY:-3}" \
	    --timeout "$${GUNICORN_TIMEOUT:-300}" \
	    $(FORWARDED_ALLOW_IPS_FLAG) \
	    --no-control-socket \
	    --logger-class evaltool.gunicorn_logging.LinkRedactingLogger \
	    --access-logfile - --error-logfile -

## Workers for production: $${WORKERS:-2} processes computing the queue's jobs (one per
## core), on this machine or any other that reaches $${DATABASE_URL}; the same settings as
## `make serve` (DEBUG off unless set, SECRET_KEY required). SIGTERM lets each finish
## its job; a worker killed outright costs its job a retry by another; a database
## restart stops none (each waits for it and goes on). The production install, as make
## serve's: no test or development tool, no apt-get (WordNet's files checked).
worker: runtime wordnet-check
	@export DEBUG=$${DEBUG:-false}; \
	  pids=; for i in $$(seq $${WORKERS:-2}); do \
	    $(PY) manage.py worker & pids="$$pids $$!"; done; \
	  trap 'kill $$pids 2>/dev/null' INT TERM; wait

## The suite runs on every core (pytest-xdist), each worker with a test database of its
## own (pytest-django names it after the worker); the tests that share one make serve or
## one private PostgreSQL server per module run on one worker (their xdist_group). The
## run ends with its 20 slowest tests, so a test that grew shows in every log.
PYTEST_WORKERS ?= auto
PYTEST_PARALLEL = -n $(PYTEST_WORKERS) --dist loadgroup

test: venv browser wordnet mteval comet redis latex migrations-check
	$(PY) -m pytest $(PYTEST_PARALLEL) --durations=20

## The edit loop: every test but those marked browser (real Chromium) or slow (real-size
## parity, real processes: make serve, workers, a PostgreSQL server); make test runs all.
test-fast: venv wordnet mteval
	$(PY) -m pytest $(PYTEST_PARALLEL) -m "not browser and not slow"

## The suite's database tests against the PostgreSQL server on 127.0.0.1:5432 (started if
## it is down): annotation/ and evaltool/; metrics/ never touches a database, and
## `make test` runs it.
test-postgres: venv browser wordnet comet redis latex
	@pg_isready -q -h 127.0.0.1 -p 5432 || $(SUDO) pg_ctlcluster --skip-systemctl-redirect $$(ls /etc/postgresql) main start
	@for i in $$(seq 30); do pg_isready -q -h 127.0.0.1 -p 5432 && break; sleep 1; done
	@psql "$(PG_URL)" -c 'select 1' >/dev/null 2>&1 || createdb -h 127.0.0.1 -U postgres evaltool
	DATABASE_URL=$(PG_URL) $(PY) manage.py makemigrations --check --dry-run
	DATABASE_URL=$(PG_URL) $(PY) -m pytest $(PYTEST_PARALLEL) annotation evaltool

## The gates CI runs first: lint, formatting, types (metrics/, annotation/, evaltool/).
lint: venv
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy

## Speed figures of every issue that names a target (prints, never asserts).
## bench/pages.py builds its database anew unless told otherwise, e.g.
## make bench PAGES_ARGS="--reuse /path/to/dir" (see its docstring).
PAGES_ARGS ?=
bench: venv wordnet
	$(PY) bench/metrics.py
	$(PY) bench/import.py
	$(PY) bench/taskqueue.py
	$(PY) bench/annotate.py
	$(PY) bench/dashboard.py
	$(PY) bench/pages.py $(PAGES_ARGS)
