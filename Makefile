# rudp: one entry point for setting up, building, testing and running.
#   make demo   set up, then run the headline scenario into results/
#   make test   set up, then run every C++ suite, example test, fuzz corpus
#               replay and pytest test (the fault campaign's sample among them)
#   make test-sanitize   the C++ suites, examples and replays under ASan+UBSan
#   make fuzz FUZZ_SECONDS=N   each libFuzzer target N seconds (clang)
#   make fuzz-smoke   each libFuzzer target 60 s from seed 1 (CI, after make test)
#   make doc    the model documentation (doc/*.rst) as HTML in build-doc/html
#   make ns3-optimized NS3_SOURCE=ns-3.48.tar.bz2   the scenario programs in an
#               ns-3 tree of ns-3's optimized profile, for long sweeps (--ns3-build),
#               with the module's patches to ns-3 (patches/; RUDP_NS3_PATCHES=off)
#   make check-ns3-patches NS3_SOURCE=...   the patches change no TCP record
#   make bench-window   RUDP's CPU time per packet at windows of 417 to 66 667
#   make bench-multipath   rudp-cmt's CPU time per packet with 1 to 4 paths
#   make bench-flows   RUDP and ns-3 TCP with 1 000 to 20 000 connections at once
# Everything it installs goes into .venv and build/ inside this folder.

PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
BUILD := build
STAMP := $(VENV)/.installed
DOC_STAMP := $(VENV)/.doc-installed
SEM_STAMP := $(VENV)/.sem-installed
JOBS ?= $(shell nproc)
FUZZ_SECONDS ?= 30

.PHONY: setup build test test-cpp test-python lint format demo run-demo doc run-doc \
	check-ns3-tree ns3-optimized check-ns3-patches bench bench-window bench-multipath clean test-sanitize fuzz fuzz-smoke fuzz-replay fuzz-corpus \
	campaign

setup: $(STAMP) $(BUILD)/build.ninja
	cmake --build $(BUILD) -j $(JOBS)

$(STAMP): requirements.txt pyproject.toml
	@scripts/install-system-deps.sh build
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

test-cpp: setup
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

test-python: setup $(SEM_STAMP)
	$(PY) -m pytest -q

# sem (ns-3's simulation execution manager), for the test that runs the
# scenarios through its CampaignManager (python/tests/test_sem_campaign.py).
$(SEM_STAMP): requirements-sem.txt $(STAMP)
	$(PY) -m pip install -q -r requirements-sem.txt
	touch $@

# Module, tests and examples built with -fsanitize=address,undefined in
# build-sanitize/; every CTest test run there.
test-sanitize: $(STAMP)
	@scripts/timed.sh "make test-sanitize" scripts/test-sanitize.sh

# libFuzzer targets (test/fuzz) built with clang in build-fuzz/, each run
# FUZZ_SECONDS seconds; prints executions and coverage.
fuzz: $(STAMP)
	@scripts/timed.sh "make fuzz" scripts/fuzz.sh $(FUZZ_SECONDS)

# CI's smoke run: each target FUZZ_SMOKE_SECONDS (60) from the committed
# corpus with libFuzzer's -seed=1, so that a change that breaks an invariant
# on the first few thousand inputs fails.
FUZZ_SMOKE_SECONDS ?= 60
fuzz-smoke: $(STAMP)
	@scripts/timed.sh "make fuzz-smoke" scripts/fuzz.sh --smoke $(FUZZ_SMOKE_SECONDS)

# The committed fuzz corpus replayed (also part of make test).
fuzz-replay: setup
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS) -L fuzz

# Rewrites the seed corpus test/fuzz/corpus from its generator.
fuzz-corpus: setup
	$(BUILD)/bin/rudp-fuzz-make-corpus test/fuzz/corpus

# The fault campaign: make campaign TRANSFERS=2000 SEED=1 [CHECKSUM=crc32c]
TRANSFERS ?= 200
SEED ?= 1
campaign: setup
	$(PY) bench/fault_campaign.py --transfers $(TRANSFERS) --seed $(SEED) --jobs $(JOBS) \
	  $(if $(CHECKSUM),--checksum $(CHECKSUM))

# clang-format and git are installed here, not by setup: make demo needs
# neither. ruff and mypy come with the venv ($(STAMP)), so make lint works
# in a fresh clone too.
lint: $(STAMP)
	@scripts/install-system-deps.sh lint
	$(VENV)/bin/ruff check python bench doc/*.py
	$(VENV)/bin/ruff format --check python bench doc/*.py
	$(VENV)/bin/mypy
	clang-format --dry-run -Werror $$(git ls-files '*.cc' '*.h')

format: $(STAMP)
	@scripts/install-system-deps.sh lint
	$(VENV)/bin/ruff format python bench doc/*.py
	clang-format -i $$(git ls-files '*.cc' '*.h')

demo:
	@scripts/timed.sh "make demo" $(MAKE) --no-print-directory setup run-demo

run-demo:
	$(PY) -m rudp.sweep seed000 --quick --out results/seed000

# The model documentation: doc/*.rst as HTML in build-doc/html, warnings as
# errors. Needs only Python: Sphinx (requirements-doc.txt) goes into .venv,
# nothing is built.
doc:
	@scripts/timed.sh "make doc" $(MAKE) --no-print-directory run-doc

$(DOC_STAMP): requirements-doc.txt
	@scripts/install-system-deps.sh venv
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q -r requirements-doc.txt
	touch $@

run-doc: $(DOC_STAMP)
	$(PY) doc/check-doxygen-groups.py
	$(PY) doc/check-chapters.py
	rm -rf build-doc/html
	$(PY) -m sphinx -W --keep-going -q -b html doc build-doc/html
	@echo "wrote build-doc/html/index.html"

check-ns3-tree:
	@scripts/timed.sh "make check-ns3-tree" scripts/check-ns3-tree.sh

ns3-optimized:
	@JOBS=$(JOBS) scripts/timed.sh "make ns3-optimized" scripts/build-ns3-optimized.sh

# ns3-optimized's tree with and without the module's patches to ns-3
# (patches/): a set of TCP runs must write byte-identical records.
check-ns3-patches:
	@JOBS=$(JOBS) scripts/timed.sh "make check-ns3-patches" scripts/check-ns3-patches.sh

bench: setup
	$(PY) bench/transport_cost.py

bench-window: setup
	$(PY) bench/window_cost.py

bench-multipath: setup
	$(PY) bench/multipath_cost.py

.PHONY: bench-flows
bench-flows: setup
	$(PY) bench/many_flows.py

clean:
	rm -rf $(BUILD) build-sanitize build-fuzz build-doc results
