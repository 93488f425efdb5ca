# rudp: one entry point for setting up, building, testing and running.
#   make demo   set up, then run the headline scenario into results/
#   make test   set up, then run every C++ suite, example test and pytest test
# Everything it installs goes into .venv and build/ inside this folder.

PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
BUILD := build
STAMP := $(VENV)/.installed
JOBS ?= $(shell nproc)

.PHONY: setup build test test-cpp test-python lint format demo check-ns3-tree bench clean

setup: $(STAMP) $(BUILD)/build.ninja
	cmake --build $(BUILD) -j $(JOBS)

$(STAMP): requirements.txt pyproject.toml
	@scripts/install-system-deps.sh
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip==26.3
	$(PY) -m pip install -q -r requirements.txt
	$(PY) -m pip install -q --no-deps -e .
	touch $@

$(BUILD)/build.ninja: $(STAMP)
	cmake -S . -B $(BUILD) -G Ninja -DPython3_EXECUTABLE=$(abspath $(PY))

build: setup

test:
	@scripts/timed.sh "make test" $(MAKE) --no-print-directory setup test-cpp test-python lint

test-cpp:
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

test-python:
	$(PY) -m pytest -q

lint:
	$(VENV)/bin/ruff check python bench
	$(VENV)/bin/ruff format --check python bench
	$(VENV)/bin/mypy
	@if command -v clang-format >/dev/null; then \
	  clang-format --dry-run -Werror $$(git ls-files '*.cc' '*.h'); \
	else echo "clang-format not installed: C++ format not checked"; fi

format:
	$(VENV)/bin/ruff format python bench
	clang-format -i $$(git ls-files '*.cc' '*.h')

demo:
	@scripts/timed.sh "make demo" $(MAKE) --no-print-directory setup run-demo

run-demo:
	$(PY) -m rudp.sweep seed000 --quick --out results/seed000

check-ns3-tree:
	@scripts/timed.sh "make check-ns3-tree" scripts/check-ns3-tree.sh

bench: setup
	$(PY) bench/transport_cost.py

clean:
	rm -rf $(BUILD) results
