#!/usr/bin/env bash
# Checks that the module's patches to ns-3 (patches/) change no result, in
# the tree make check-ns3-tree builds for NS3_SOURCE (ns-3's debug build
# profile; configured and built first if it is not): keeps its internet
# library as released, applies the patches, rebuilds the library, then runs a
# set of TCP scenarios (SACK and not, fast recovery, timeouts, several
# congestion controls, one flow and two) on both libraries, the released one
# put first with LD_LIBRARY_PATH, and requires every JSON record to be
# byte-identical. Prints each pair's CPU time. The patches come out of the
# tree again at the end, whatever happens: check-ns3-tree tests the module
# against ns-3 as released (make ns3-optimized's tree, for long sweeps, is
# the one that keeps them). Exit 1 if a record differs, a patch fits no form
# of this ns-3, or the set did not reach recovery and timeouts.
#
# Usage: NS3_SOURCE=ns-3.48.tar.bz2 scripts/check-ns3-patches.sh   (make check-ns3-patches)
set -euo pipefail
module_dir=$(cd "$(dirname "$0")/.." && pwd)
[ $# -eq 0 ] || { echo "error: no arguments; set NS3_SOURCE" >&2; exit 2; }
[ -n "${NS3_SOURCE:-}" ] || {
  echo "error: NS3_SOURCE: not set; allowed: an ns-3 release tarball or an ns-3 tree (3.36 or later)" >&2
  exit 2
}
cache=${RUDP_NS3_CACHE:-$HOME/.cache/rudp-ns3}
jobs=${JOBS:-$(nproc)}
export CCACHE_DIR=$cache/ccache
export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-8G}
export CCACHE_BASEDIR=$cache
step() { printf '\n== %s (%ds)\n' "$*" "$SECONDS" >&2; }
# shellcheck source=scripts/ns3-source.sh
. "$module_dir/scripts/ns3-source.sh"

step "the in-tree check's tree of $NS3_SOURCE, built as released"
"$module_dir/scripts/check-ns3-tree.sh" --build-only >&2
ns3_source_tree "$NS3_SOURCE" "" # sets $tree: the tree check-ns3-tree built
[ -x "$tree/ns3" ] || {
  echo "error: NS3_SOURCE: $NS3_SOURCE is a waf tree (no ./ns3); allowed: ns-3.36 or later" >&2
  exit 2
}
# The internet module's library (libns3.48-internet-debug.so; not internet-apps').
internet=$(ns3_newest_build_file "$tree/build/lib" -maxdepth 1 -regextype posix-extended \
  -regex '.*/libns3[.0-9a-z]*-internet(-(debug|default|release|optimized|minsizerel))?\.so')
internet=${internet##*/}
[ -n "$internet" ] || { echo "error: no internet library in $tree/build/lib" >&2; exit 1; }
internet_target=$(ns3_internet_target "$tree")
released=$(dirname "$tree")/released-lib
rm -rf "$released" && mkdir -p "$released"
cp -a "$tree/build/lib/$internet" "$released/"

work=$(mktemp -d)
log=$work/patches.log
# shellcheck disable=SC2317 # called by the trap
restore() {
  RUDP_NS3_PATCHES=off ns3_apply_patches "$tree" >/dev/null 2>&1 || true
  # The library as released again (ccache has it), so that the tree's build
  # matches its source.
  cmake --build "$tree/cmake-cache" -j "$jobs" --target "$internet_target" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap restore EXIT
ns3_apply_patches "$tree" 2>"$log"
if grep -q "no form fits" "$log"; then
  grep "no form fits" "$log" >&2
  echo "FAILED: a patch fits no form of this ns-3: nothing to compare" >&2
  exit 1
fi
step "rebuilding the internet library with the patches ($applied_patches)"
cmake --build "$tree/cmake-cache" -j "$jobs" --target "$internet_target" rudp-cc-comparison >"$work/build.log" 2>&1 ||
  { grep -B2 -A20 -m3 'error' "$work/build.log" >&2 || tail -60 "$work/build.log" >&2; exit 1; }

program=$(ns3_newest_build_file "$tree/build" -name 'ns3*-rudp-cc-comparison*' -perm -u+x)
[ -x "$program" ] || { echo "error: no rudp-cc-comparison in $tree/build" >&2; exit 1; }
# ldd's whole output is read before grep: grep -q leaving a pipe early kills
# the writer with SIGPIPE, which pipefail reports as a failure.
libraries=$(LD_LIBRARY_PATH=$released ldd "$program")
grep -q -F "$released/$internet" <<<"$libraries" ||
  { echo "error: LD_LIBRARY_PATH does not put $released/$internet first" >&2; exit 1; }
cmp -s "$released/$internet" "$tree/build/lib/$internet" &&
  { echo "error: the patched internet library is the released one: the patches changed nothing" >&2; exit 1; }

runs=(
  "high-bdp-cubic --rate=100Mbps --flows=cubic@200ms --duration=30s"
  "high-bdp-newreno --rate=100Mbps --flows=newreno@400ms --duration=30s"
  "lossy-sack --rate=10Mbps --loss=0.01 --flows=newreno@50ms,cubic@100ms --duration=60s"
  "lossy-no-sack --rate=10Mbps --loss=0.02 --sack=0 --flows=htcp@50ms,westwood@100ms --duration=60s"
  "timeouts --rate=10Mbps --loss=0.1 --flows=veno@100ms,cvtcp@50ms --duration=60s"
  "small-queue --rate=100Mbps --queue=pfifo --queue-size=20 --flows=hybla@300ms,reno@50ms+2s --duration=30s"
)
cpu() { # cpu OUT ARGS...: runs the program, writes its CPU seconds to OUT.cpu
  local out=$1 TIMEFORMAT='%U %S'
  shift
  { time "$@" --transport=tcp --output="$out" >/dev/null 2>"$out.err"; } 2>"$out.time" ||
    { echo "error: $* failed:" >&2; cat "$out.err" >&2; return 1; }
  awk '{ printf "%.1f", $1 + $2 }' "$out.time" >"$out.cpu"
}
# Each pair's two runs side by side, one a core.
step "running ${#runs[@]} TCP scenarios on the released and the patched library"
for run in "${runs[@]}"; do
  read -r name options <<<"$run"
  # shellcheck disable=SC2086 # one option a word
  LD_LIBRARY_PATH=$released cpu "$work/$name.released.json" "$program" $options &
  released_run=$!
  # shellcheck disable=SC2086
  cpu "$work/$name.patched.json" "$program" $options &
  patched_run=$!
  wait $released_run && wait $patched_run || exit 1
done
failed=0
printf '\n%-18s %10s %10s  %s\n' run released patched record >&2
for run in "${runs[@]}"; do
  read -r name _ <<<"$run"
  verdict=identical
  cmp -s "$work/$name.released.json" "$work/$name.patched.json" || { verdict=DIFFERENT; failed=1; }
  printf '%-18s %9ss %9ss  %s\n' "$name" "$(cat "$work/$name.released.json.cpu")" \
    "$(cat "$work/$name.patched.json.cpu")" "$verdict" >&2
done
# The set must reach what the patch changes: recovery with and without SACK,
# and timeouts.
python3 - "$work" <<'EOF' || failed=1
import json, pathlib, sys
records = {p.name.split(".")[0]: json.loads(p.read_text())
           for p in pathlib.Path(sys.argv[1]).glob("*.patched.json")}
def total(name, key):
    return sum(flow[key] for flow in records[name]["flows"])
needs = {
    "fast retransmits with SACK": total("lossy-sack", "fast_retransmits") > 0,
    "fast retransmits without SACK": total("lossy-no-sack", "fast_retransmits") > 0,
    "timeouts": total("timeouts", "timeouts") > 0,
    "recovery at a large window": total("high-bdp-cubic", "fast_retransmits") > 0,
}
for need, met in needs.items():
    print(f"{'reached' if met else 'NOT REACHED':>12}  {need}", file=sys.stderr)
sys.exit(0 if all(needs.values()) else 1)
EOF
[ $failed -eq 0 ] || { echo "FAILED: see above" >&2; exit 1; }
echo "ok: the patched library writes every record byte for byte as the released one" >&2
