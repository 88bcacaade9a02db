# jiyi — the two commands a newcomer needs: `make demo` and `make test`.
# Both create .venv and install everything on a fresh machine (Python >= 3.11).

PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed-$(shell cat pyproject.toml | sha1sum | cut -c1-12)

.PHONY: install demo test lint typecheck unit bench bench-retrieval bench-latency \
        services-up services-down llm-model llm-stop clean

$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; assert sys.version_info >= (3, 11), "jiyi needs Python >= 3.11"'
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[dev,server]'
	rm -f $(VENV)/.installed-* && touch $@

install: $(STAMP)

demo: install
	$(VENV)/bin/jiyi demo

lint: install
	$(VENV)/bin/ruff check src tests bench
	$(VENV)/bin/ruff format --check src tests bench

typecheck: install
	$(VENV)/bin/mypy

# pytest exits 5 when it collected nothing; that is a failure here, never a pass.
unit: install
	$(PY) -m pytest -q -p no:cacheprovider; rc=$$?; \
	if [ $$rc -eq 5 ]; then echo "error: pytest collected no tests" >&2; exit 1; fi; exit $$rc

test: lint typecheck unit

bench: bench-retrieval bench-latency

bench-retrieval: install
	$(VENV)/bin/jiyi bench retrieval --dataset locomo ../shared/data/locomo/locomo_dev.json
	$(VENV)/bin/jiyi bench retrieval --dataset dulemon ../shared/data/dulemon/samples.jsonl

bench-latency: install
	$(PY) bench/latency.py

services-up:
	bash scripts/services.sh up

services-down:
	bash scripts/services.sh down

# Build/assemble the real local LLM (cached in ~/.cache/jiyi) and serve it on 127.0.0.1;
# the endpoint is written to $${JIYI_LLM_DIR:-/tmp/jiyi-llm}/env. `make llm-stop` stops it.
llm-model: install
	PYTHON=$(PY) bash scripts/llm_model.sh install
	PYTHON=$(PY) bash scripts/llm_model.sh serve

llm-stop:
	bash scripts/llm_model.sh stop

clean:
	rm -rf $(VENV) .jiyi .mypy_cache .ruff_cache .pytest_cache
