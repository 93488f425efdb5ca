#!/usr/bin/env bash
# make test-sanitize: builds the module, its test suites, examples and fuzz
# replay drivers with AddressSanitizer and UndefinedBehaviorSanitizer (g++,
# -DRUDP_SANITIZE=ON) in $SANITIZE_BUILD (default build-sanitize), then runs
# every CTest test there: the C++ suites (their QUICK cases: the EXTENSIVE
# ones are long statistical runs, ten times slower under the sanitizers, of
# code the QUICK ones already run; SANITIZE_FULLNESS=EXTENSIVE runs them
# too), the examples of test/examples-to-run.py and the fuzz corpus replays.
# The first report of either sanitizer fails the test that caused it. The
# ns-3 wheel's libraries are not instrumented.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${SANITIZE_BUILD:-build-sanitize}
jobs=${JOBS:-$(nproc)}
python=${PYTHON_EXE:-$PWD/.venv/bin/python}
fullness=${SANITIZE_FULLNESS:-QUICK}

scripts/install-tool-deps.sh sanitize

# ASan: stop at the first error, leaks included. UBSan: the build already
# makes every check fatal (-fno-sanitize-recover=all); print where.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:halt_on_error=1:detect_stack_use_after_return=1:check_initialization_order=1:strict_init_order=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$PWD/scripts/lsan-suppressions.txt:print_suppressions=0}

# Configured each time (cheap when nothing changed): SANITIZE_FULLNESS may.
# ccache, when the machine has it, comes with the build (RUDP_CCACHE).
# -O1 -g1: what AddressSanitizer's documentation advises (-O1), with line
# tables (-g1) for the reports' file:line; half the compile time of -O2 -g.
cmake -S . -B "$build" -G Ninja -DPython3_EXECUTABLE="$python" -DRUDP_SANITIZE=ON \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG" \
  -DRUDP_TEST_FULLNESS="$fullness" >/dev/null
cmake --build "$build" -j "$jobs"
cd "$build"
ctest --output-on-failure -j "$jobs"
