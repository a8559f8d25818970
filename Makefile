# Single entry points: make run, make test, make test-fast, make bench, make lint.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-stamp

.PHONY: run test test-fast bench lint browser-deps services-deps clean

# constraints.txt pins the tested versions of every dependency (pyproject.toml keeps the ranges).
$(STAMP): pyproject.toml constraints.txt
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -c constraints.txt -e '.[test]'
	@touch $(STAMP)

# Listens on every interface so phones on the same Wi-Fi can join; TRUCO_HOST=127.0.0.1 keeps it local.
TRUCO_HOST ?= 0.0.0.0

run: $(STAMP)
	TRUCO_HOST=$(TRUCO_HOST) $(VENV)/bin/truco serve

# Chromium for the browser tests: Debian's package, never a downloaded browser build. The colour emoji
# font lets the screenshots show the 🤖 on bot chips as a phone does (without it, an empty box).
browser-deps:
	@if { [ ! -x /usr/bin/chromium ] || [ ! -e /usr/share/fonts/truetype/noto/NotoColorEmoji.ttf ]; } \
		&& [ "$$(id -u)" = "0" ] && command -v apt-get >/dev/null; then \
		(apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-noto-color-emoji >/dev/null) \
		|| echo "warning: could not install chromium; browser tests will be skipped"; \
	fi

# Services the backend contract and cluster tests start for themselves (on free ports): PostgreSQL's
# binaries from Debian's package when no /usr/lib/postgresql/N/bin is there, redis-server, and HAProxy
# (the load balancer of `truco bench server --nodes`). Without them those tests skip, or fail under
# TRUCO_REQUIRE_SERVICES=1 (CI).
services-deps:
	@if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 && [ "$$(id -u)" = "0" ] && command -v apt-get >/dev/null; then \
		(apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null) \
		|| echo "warning: could not install postgresql; PostgreSQL tests will be skipped"; \
	fi
	@if ! command -v redis-server >/dev/null && [ "$$(id -u)" = "0" ] && command -v apt-get >/dev/null; then \
		(apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server >/dev/null) \
		|| echo "warning: could not install redis-server; cluster tests will be skipped"; \
	fi
	@if ! command -v haproxy >/dev/null && [ ! -x /usr/sbin/haproxy ] && [ "$$(id -u)" = "0" ] && command -v apt-get >/dev/null; then \
		(apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq haproxy >/dev/null) \
		|| echo "warning: could not install haproxy; truco bench server --nodes will not run"; \
	fi

lint: $(STAMP)
	$(VENV)/bin/ruff check src tests examples
	$(VENV)/bin/mypy --strict src

test: $(STAMP) browser-deps services-deps lint
	$(VENV)/bin/pytest

# The inner loop: everything but the browser and the slow property, fuzz and playout tests.
test-fast: $(STAMP)
	$(VENV)/bin/pytest -m "not slow and not browser"

bench: $(STAMP)
	$(VENV)/bin/truco bench engine
	$(VENV)/bin/truco bench engine --players 2
	$(VENV)/bin/truco bench bots
	$(VENV)/bin/truco bench bots --workers 2
	$(VENV)/bin/truco bench server --tables 1000

clean:
	rm -rf $(VENV) build dist src/*.egg-info
