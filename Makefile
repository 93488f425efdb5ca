# rudp: one entry point for setting up, building, testing and running.
#   make demo   set up what the demo needs, then run the headline scenario into
#               results/: the simulator and the plotting stack into .venv, the
#               module and the one program it runs into build/
#   make setup  everything a user builds on: the module, its examples, test
#               suites and scratch programs, and ns-3's Python bindings (cppyy)
#   make test   set up, then run every C++ suite, example test, fuzz corpus
#               replay and pytest test (the fault campaign's sample among them);
#               the test tools (pytest, ruff, mypy) come with it
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
#   make bench-peer   rudp-cmt's and RUDP's CPU time beside ns-2.35's (needs ns2)
#   make bench-flows   RUDP and ns-3 TCP with 1 000 to 20 000 connections at once
#   make bench-coupling   RFC 6356's goal 2: LIA, OLIA, Balia beside TCP behind each queue
#   make bench-phone   a phone's Wi-Fi and cellular paths through an outage (the figure)
# Everything it installs goes into .venv and build/ inside this folder.

PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
BUILD := build
# What each command installs into .venv, each a stamp of its own: the demo's
# packages (STAMP), ns-3's Python bindings (BINDINGS_STAMP, make setup), the
# test tools (DEV_STAMP, make test), Sphinx (make doc), sem and dask-jobqueue
# (make test).
STAMP := $(VENV)/.installed
BINDINGS_STAMP := $(VENV)/.bindings-installed
DEV_STAMP := $(VENV)/.dev-installed
DOC_STAMP := $(VENV)/.doc-installed
SEM_STAMP := $(VENV)/.sem-installed
CLUSTER_STAMP := $(VENV)/.cluster-installed
JOBS ?= $(shell nproc)
FUZZ_SECONDS ?= 30
# The one program make demo runs (with the module and its scenario library).
DEMO_PROGRAM := rudp-file-transfer

.PHONY: setup setup-demo build test test-cpp test-python lint format demo run-demo doc run-doc \
	check-ns3-tree ns3-optimized check-ns3-patches bench bench-window bench-multipath clean test-sanitize fuzz fuzz-smoke fuzz-replay fuzz-corpus \
	campaign

setup: $(STAMP) $(BINDINGS_STAMP) $(BUILD)/build.ninja
	cmake --build $(BUILD) -j $(JOBS)

# The demo's build: the module, its scenario library and DEMO_PROGRAM alone
# (make test builds the rest).
setup-demo: $(STAMP) $(BUILD)/build.ninja
	@echo "== building the module and $(DEMO_PROGRAM) ([n/m]: steps done of those it needs)"
	cmake --build $(BUILD) -j $(JOBS) --target $(DEMO_PROGRAM)

# The simulator (the ns-3 wheel's headers and libraries, installed without
# its one dependency, cppyy: the demo runs compiled programs only) and the
# packages the sweeps and their figures use.
$(STAMP): requirements.txt requirements-ns3.txt pyproject.toml
	@scripts/install-system-deps.sh build
	@echo "== installing the Python packages the module needs into $(VENV) (pip: the ns-3 wheel, numpy, pandas, matplotlib, dask)"
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip==26.3
	$(PY) -m pip install --progress-bar on -r requirements.txt
	$(PY) -m pip install --progress-bar on --no-deps -r requirements-ns3.txt
	$(PY) -m pip install -q --no-deps -e .
	touch $@

# ns-3's Python bindings (cppyy, built from source on first install): for
# Python scenarios (rudp.bindings) and their tests.
$(BINDINGS_STAMP): requirements-bindings.txt $(STAMP)
	@echo "== installing ns-3's Python bindings (cppyy; its first install compiles for a minute or two)"
	$(PY) -m pip install -q -r requirements-bindings.txt
	touch $@

# The test tools: pytest, ruff, mypy.
$(DEV_STAMP): requirements-dev.txt $(STAMP)
	$(PY) -m pip install -q -r requirements-dev.txt
	touch $@

$(BUILD)/build.ninja: $(STAMP)
	cmake -S . -B $(BUILD) -G Ninja -DPython3_EXECUTABLE=$(abspath $(PY))

build: setup

test:
	@scripts/timed.sh "make test" $(MAKE) --no-print-directory setup test-cpp test-python lint

test-cpp: setup
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

test-python: setup $(DEV_STAMP) $(SEM_STAMP) $(CLUSTER_STAMP)
	@scripts/install-system-deps.sh slurm
	$(PY) -m pytest -q

# sem (ns-3's simulation execution manager), for the test that runs the
# scenarios through its CampaignManager (python/tests/test_sem_campaign.py).
$(SEM_STAMP): requirements-sem.txt $(DEV_STAMP)
	$(PY) -m pip install -q -r requirements-sem.txt
	touch $@

# dask-jobqueue, for the sweep's Slurm test (python/tests/test_sweep_cluster.py,
# on the one-node cluster of scripts/slurm-cluster.sh).
$(CLUSTER_STAMP): requirements-cluster.txt $(STAMP)
	$(PY) -m pip install -q -r requirements-cluster.txt
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

# The fault campaign: make campaign TRANSFERS=2000 SEED=1 [CHECKSUM=crc32c] [MULTIPATH=0.5]
TRANSFERS ?= 200
SEED ?= 1
campaign: setup
	$(PY) bench/fault_campaign.py --transfers $(TRANSFERS) --seed $(SEED) --jobs $(JOBS) \
	  $(if $(CHECKSUM),--checksum $(CHECKSUM)) $(if $(MULTIPATH),--multipath $(MULTIPATH))

# clang-format and git are installed here, not by setup: make demo needs
# neither. ruff and mypy come with the test tools ($(DEV_STAMP)), so make
# lint works in a fresh clone too.
lint: $(DEV_STAMP)
	@scripts/install-system-deps.sh lint
	$(VENV)/bin/ruff check python bench doc/*.py
	$(VENV)/bin/ruff format --check python bench doc/*.py
	$(VENV)/bin/mypy
	clang-format --dry-run -Werror $$(git ls-files '*.cc' '*.h')

format: $(DEV_STAMP)
	@scripts/install-system-deps.sh lint
	$(VENV)/bin/ruff format python bench doc/*.py
	clang-format -i $$(git ls-files '*.cc' '*.h')

demo:
	@echo "== make demo: installs what it needs, builds $(DEMO_PROGRAM), runs seed 000's experiments"
	@scripts/timed.sh "make demo" $(MAKE) --no-print-directory setup-demo run-demo

run-demo:
	@echo "== running seed 000's experiments (quick size) into results/seed000"
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

.PHONY: bench-peer
bench-peer: setup
	scripts/install-ns2.sh
	$(PY) bench/peer_speed.py

.PHONY: bench-flows
bench-flows: setup
	$(PY) bench/many_flows.py

.PHONY: bench-coupling
bench-coupling: setup
	$(PY) bench/rfc6356_goals.py

.PHONY: bench-phone
bench-phone: setup
	$(PY) bench/phone_failover.py

clean:
	rm -rf $(BUILD) build-sanitize build-fuzz build-doc results
