#!/usr/bin/env bash
# Usage: fuzz.sh [--seed N] [--smoke] [--runs N] [--parallel N] [--jobs N] [--list] [SECONDS [TARGET...]]
#   (make fuzz FUZZ_SECONDS=N; make fuzz-smoke)
# Builds the libFuzzer targets of test/fuzz with clang in $FUZZ_BUILD
# (default build-fuzz: the module compiled with
# -fsanitize=fuzzer-no-link,address,undefined, the targets linked with
# -fsanitize=fuzzer, against the wheel's libraries) and runs each target
# SECONDS seconds (default 30) from the committed corpus, then prints the
# executions and coverage of each. New inputs go to $FUZZ_BUILD/corpus/TARGET,
# crashes to $FUZZ_BUILD/artifacts/TARGET/. Exit status 1 if a target failed.
#   --seed N   libFuzzer's -seed=N: the same mutations of the same corpus
#   --runs N   stop a target after N executions (or SECONDS, whichever first)
#   --parallel N  N fuzzing processes a target (one a core), seeds S..S+N-1,
#              sharing one corpus folder (each rereads what the others add);
#              --runs counts the executions of all of them. (libFuzzer's
#              -fork mode restarts its jobs and replays their corpus each
#              time: half the executions of the network targets.)
#   --jobs N   N targets at a time (default 1; with --smoke, one a core):
#              each target is one process unless --parallel, so that on
#              two cores two targets take the time of one
#   --list     print the targets it would run (every test/fuzz/NAME-fuzzer.cc
#              unless named) and exit
#   --smoke    CI's smoke run: seed 1 unless --seed, 60 s unless SECONDS, --jobs
#              one a core unless given,
#              from the committed corpus and regression inputs only (new
#              inputs go to a fresh directory, so that one run does not
#              change the next)
set -euo pipefail
cd "$(dirname "$0")/.."
seed=""
runs=""
parallel=1
target_jobs=""
smoke=0
list=0
while [ $# -gt 0 ]; do
  case $1 in
    --seed) seed=${2:-}; shift 2 || { echo "error: --seed needs a number" >&2; exit 2; } ;;
    --runs) runs=${2:-}; shift 2 || { echo "error: --runs needs a number" >&2; exit 2; } ;;
    --parallel) parallel=${2:-}; shift 2 || { echo "error: --parallel needs a number" >&2; exit 2; } ;;
    --jobs) target_jobs=${2:-}; shift 2 || { echo "error: --jobs needs a number" >&2; exit 2; } ;;
    --smoke) smoke=1; shift ;;
    --list) list=1; shift ;;
    --) shift; break ;;
    -*) echo "error: unknown option '$1' (--seed N, --runs N, --parallel N, --jobs N, --smoke, --list)" >&2; exit 2 ;;
    *) break ;;
  esac
done
if [ $smoke -eq 1 ]; then
  seed=${seed:-1}
  seconds=${1:-60}
  target_jobs=${target_jobs:-$(nproc)}
else
  seconds=${1:-30}
fi
shift || true
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  # Every target there is: test/fuzz/NAME-fuzzer.cc.
  for source in test/fuzz/*-fuzzer.cc; do
    name=${source##*/}
    targets+=("${name%-fuzzer.cc}")
  done
fi
[ -z "$seed" ] || [[ $seed =~ ^[1-9][0-9]*$ ]] ||
  { echo "error: --seed: a positive number (libFuzzer's -seed; 0 would draw one), got '$seed'" >&2; exit 2; }
[ -z "$runs" ] || [[ $runs =~ ^[1-9][0-9]*$ ]] ||
  { echo "error: --runs: a positive number of executions, got '$runs'" >&2; exit 2; }
{ [[ $parallel =~ ^[1-9][0-9]*$ ]] && [ "$parallel" -le 64 ]; } ||
  { echo "error: --parallel: a number of processes in [1, 64], got '$parallel'" >&2; exit 2; }
target_jobs=${target_jobs:-1}
{ [[ $target_jobs =~ ^[1-9][0-9]*$ ]] && [ "$target_jobs" -le 64 ]; } ||
  { echo "error: --jobs: a number of targets at a time in [1, 64], got '$target_jobs'" >&2; exit 2; }
for target in "${targets[@]}"; do
  [ -f "test/fuzz/$target-fuzzer.cc" ] ||
    { echo "error: no fuzz target '$target' (test/fuzz/*-fuzzer.cc)" >&2; exit 2; }
done
if [ $list -eq 1 ]; then
  printf '%s\n' "${targets[@]}"
  exit 0
fi
build=${FUZZ_BUILD:-build-fuzz}
jobs=${JOBS:-$(nproc)}
python=${PYTHON_EXE:-$PWD/.venv/bin/python}
[[ $seconds =~ ^[1-9][0-9]*$ ]] || { echo "error: FUZZ_SECONDS: a positive number of seconds, got '$seconds'" >&2; exit 2; }

scripts/install-tool-deps.sh fuzz
if [ ! -f "$build/build.ninja" ]; then
  # ccache, when the machine has it, comes with the build (RUDP_CCACHE).
  # Line tables only (-g1): a crash report's file:line, for a third less
  # compile time than -g.
  CXX=clang++ cmake -S . -B "$build" -G Ninja -DPython3_EXECUTABLE="$python" -DRUDP_FUZZ=ON \
    -DRUDP_ENABLE_TESTS=OFF -DRUDP_ENABLE_EXAMPLES=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG"
fi
# The targets it runs, and what they link: nothing else of the project.
cmake --build "$build" -j "$jobs" --target "${targets[@]/%/-fuzzer}"

# Leaks are checked by make test-sanitize; here a leak would stop a target at
# its first input, so libFuzzer's own leak check stays on. No allocation
# stacks (malloc_context_size=0): recording one per allocation costs a tenth
# of a network target's time; a finding is replayed with them by make
# test-sanitize, or by the target with ASAN_OPTIONS=malloc_context_size=30.
export ASAN_OPTIONS=${ASAN_OPTIONS:-halt_on_error=1:malloc_context_size=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
# fuzz_target TARGET: runs TARGET as the options say; writes its summary line
# to $build/summary-TARGET; returns its status.
fuzz_target() {
  local target=$1 work artifacts log options process pids started status running finished left
  local pid elapsed executed cov ft corpus i one n last c f k rate verdict found
  work=$build/corpus/$target
  artifacts=$build/artifacts/$target
  log=$build/fuzz-$target.log
  if [ $smoke -eq 1 ]; then
    # A fresh directory for what the run finds: the next smoke run starts
    # from the committed inputs again.
    work=$build/smoke/$target
    log=$build/fuzz-smoke-$target.log
    rm -rf "$work"
  fi
  mkdir -p "$work" "$artifacts"
  inputs=("$work" "test/fuzz/corpus/$target")
  [ -d "test/fuzz/regressions/$target" ] && inputs+=("test/fuzz/regressions/$target")
  options=(-max_total_time="$seconds" -timeout=20 -rss_limit_mb=4096 -max_len=4096
    -print_final_stats=1 -artifact_prefix="$artifacts/")
  # The network targets touch thousands of edges a run, and libFuzzer's
  # entropic schedule looks each one up in its list of rare features: 43 %
  # of rudp-socket's time (perf, clang 14). Without it they run 1.7 times
  # as fast; the header target keeps it.
  [ "$target" = rudp-header ] || options+=(-entropic=0)
  echo "== $target: $seconds s${seed:+, seed $seed}${runs:+, at most $runs runs}, $parallel process(es) (log: $log)"
  # Process i: seed S+i (libFuzzer draws one if no --seed), its share of
  # --runs, its own log; the first to fail stops the others.
  pids=()
  started=$SECONDS
  for ((i = 0; i < parallel; i++)); do
    process=("${options[@]}")
    [ -z "$seed" ] || process+=(-seed=$((seed + i)))
    [ -z "$runs" ] || process+=(-runs=$(((runs + parallel - 1) / parallel)))
    "$build/bin/$target-fuzzer" "${process[@]}" "${inputs[@]}" >"$log.$i" 2>&1 &
    pids+=($!)
  done
  status=0
  running=("${pids[@]}")
  while [ ${#running[@]} -gt 0 ]; do
    finished=""
    wait -n -p finished "${running[@]}" || {
      status=$?
      kill "${running[@]}" 2>/dev/null || true
      wait "${running[@]}" 2>/dev/null || true
      break
    }
    left=()
    for pid in "${running[@]}"; do [ "$pid" = "$finished" ] || left+=("$pid"); done
    running=("${left[@]}")
  done
  elapsed=$((SECONDS - started))
  if [ "$parallel" -eq 1 ]; then mv "$log.0" "$log"; else cat "$log".* >"$log"; fi
  # Each process's last status line: "#N <event> cov: C ft: F corp: K/...";
  # coverage and corpus are the largest a process reached (they share the
  # corpus), executions the sum, the rate theirs over the wall time.
  executed=0 cov=0 ft=0 corpus=0
  for ((i = 0; i < parallel; i++)); do
    one=$log.$i
    [ "$parallel" -eq 1 ] && one=$log
    n=$(sed -n 's/^stat::number_of_executed_units: *//p' "$one" | tail -1)
    last=$(grep -E '^#[0-9]+' "$one" | tail -1 || true)
    [ -n "$n" ] || n=$(sed -n 's/^#\([0-9]*\).*/\1/p' <<<"$last")
    executed=$((executed + ${n:-0}))
    c=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$last")
    f=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$last")
    k=$(sed -n 's/.* corp: \([0-9]*\).*/\1/p' <<<"$last")
    [ "${c:-0}" -le "$cov" ] || cov=$c
    [ "${f:-0}" -le "$ft" ] || ft=$f
    [ "${k:-0}" -le "$corpus" ] || corpus=$k
  done
  rate=$((executed / (elapsed > 0 ? elapsed : 1)))
  [ "$parallel" -eq 1 ] || rm -f "$log".*
  verdict=ok
  if [ $status -ne 0 ]; then
    found=("$artifacts"/*)
    found=("${found[@]##*/}")
    verdict="FAILED (exit $status): ${found[*]:0:3}"
    grep -m5 -E 'ERROR|SUMMARY|invariant broken|NS_ASSERT|NS_FATAL|msg=' "$log" || true
  fi
  printf '%-20s %6ss %12s runs %8s exec/s  cov %-6s ft %-7s corpus %-5s %s\n' \
    "$target" "$seconds" "${executed:-?}" "${rate:-?}" "${cov:-?}" "${ft:-?}" "${corpus:-?}" "$verdict" \
    >"$build/summary-$target"
  return $status
}

# --jobs targets at a time; a failed one does not stop the others.
failed=0
running=()
for target in "${targets[@]}"; do
  rm -f "$build/summary-$target"
  if [ ${#running[@]} -ge "$target_jobs" ]; then
    wait -n "${running[@]}" || failed=1
    left=()
    for pid in "${running[@]}"; do kill -0 "$pid" 2>/dev/null && left+=("$pid"); done
    running=("${left[@]}")
  fi
  fuzz_target "$target" &
  running+=($!)
done
for pid in "${running[@]}"; do wait "$pid" || failed=1; done
summary=()
for target in "${targets[@]}"; do
  summary+=("$(cat "$build/summary-$target" 2>/dev/null || echo "$target: no summary (the run was killed)")")
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
