#!/usr/bin/env bash
# Usage: fuzz.sh [SECONDS [TARGET...]]  (make fuzz FUZZ_SECONDS=N)
# Builds the libFuzzer targets of test/fuzz with clang in $FUZZ_BUILD
# (default build-fuzz: the module compiled with
# -fsanitize=fuzzer-no-link,address,undefined, the targets linked with
# -fsanitize=fuzzer, against the wheel's libraries) and runs each target
# SECONDS seconds (default 30) from the committed corpus, then prints the
# executions and coverage of each. New inputs go to $FUZZ_BUILD/corpus/TARGET,
# crashes to $FUZZ_BUILD/artifacts/TARGET/. Exit status 1 if a target failed.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-30}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(rudp-header rudp-socket rudp-cmt-receiver)
build=${FUZZ_BUILD:-build-fuzz}
jobs=${JOBS:-$(nproc)}
python=${PYTHON_EXE:-$PWD/.venv/bin/python}
[[ $seconds =~ ^[1-9][0-9]*$ ]] || { echo "error: FUZZ_SECONDS: a positive number of seconds, got '$seconds'" >&2; exit 2; }

scripts/install-tool-deps.sh fuzz
if [ ! -f "$build/build.ninja" ]; then
  launcher=()
  command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  CXX=clang++ cmake -S . -B "$build" -G Ninja -DPython3_EXECUTABLE="$python" -DRUDP_FUZZ=ON \
    -DRUDP_ENABLE_TESTS=OFF -DRUDP_ENABLE_EXAMPLES=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo "${launcher[@]}"
fi
cmake --build "$build" -j "$jobs"

# Leaks are checked by make test-sanitize; here a leak would stop a target at
# its first input, so libFuzzer's own leak check stays on.
export ASAN_OPTIONS=${ASAN_OPTIONS:-halt_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
summary=()
failed=0
for target in "${targets[@]}"; do
  work=$build/corpus/$target
  artifacts=$build/artifacts/$target
  log=$build/fuzz-$target.log
  mkdir -p "$work" "$artifacts"
  inputs=("$work" "test/fuzz/corpus/$target")
  [ -d "test/fuzz/regressions/$target" ] && inputs+=("test/fuzz/regressions/$target")
  echo "== $target: $seconds s (log: $log)"
  status=0
  "$build/bin/$target-fuzzer" -max_total_time="$seconds" -timeout=20 -rss_limit_mb=4096 \
    -max_len=4096 -print_final_stats=1 -artifact_prefix="$artifacts/" "${inputs[@]}" >"$log" 2>&1 ||
    status=$?
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  last=$(grep -E '^#[0-9]+' "$log" | tail -1 || true)
  cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$last")
  ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$last")
  rate=$(sed -n 's/.* exec\/s: \([0-9]*\).*/\1/p' <<<"$last")
  verdict=ok
  if [ $status -ne 0 ]; then
    verdict="FAILED (exit $status): $(ls "$artifacts" | head -3 | tr '\n' ' ')"
    failed=1
    grep -E 'ERROR|SUMMARY|invariant broken|NS_ASSERT|NS_FATAL|msg=' "$log" | head -5 || true
  fi
  summary+=("$(printf '%-20s %6ss %12s runs %8s exec/s  cov %-6s ft %-7s %s' \
    "$target" "$seconds" "${runs:-?}" "${rate:-?}" "${cov:-?}" "${ft:-?}" "$verdict")")
done
echo
printf '%s\n' "${summary[@]}"
if [ $failed -ne 0 ]; then
  cat <<EOF

A crash input is in $build/artifacts/TARGET/. Minimise it, then keep it as a
regression input that make test replays:
  $build/bin/TARGET-fuzzer -minimize_crash=1 -max_total_time=60 -exact_artifact_path=min CRASH
  mkdir -p test/fuzz/regressions/TARGET && cp min test/fuzz/regressions/TARGET/<what-it-found>
EOF
fi
exit $failed
