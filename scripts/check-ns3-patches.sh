#!/usr/bin/env bash
# Checks that the module's patches to ns-3 (patches/) change no result: builds
# make ns3-optimized's tree of NS3_SOURCE without them (RUDP_NS3_PATCHES=off)
# and keeps its internet library, builds it again with them, then runs a set
# of TCP scenarios (SACK and not, fast recovery, timeouts, several congestion
# controls, one flow and two) on both libraries, the unpatched one put first
# with LD_LIBRARY_PATH, and requires every JSON record to be byte-identical.
# Prints each pair's CPU time. Exit 1 if a record differs, a patch fits no
# form of this ns-3, or the set did not reach recovery and timeouts.
#
# Usage: NS3_SOURCE=ns-3.48.tar.bz2 scripts/check-ns3-patches.sh   (make check-ns3-patches)
set -euo pipefail
module_dir=$(cd "$(dirname "$0")/.." && pwd)
[ $# -eq 0 ] || { echo "error: no arguments; set NS3_SOURCE" >&2; exit 2; }
[ -n "${NS3_SOURCE:-}" ] || {
  echo "error: NS3_SOURCE: not set; allowed: an ns-3 release tarball or an ns-3 tree (3.36 or later)" >&2
  exit 2
}
step() { printf '\n== %s (%ds)\n' "$*" "$SECONDS" >&2; }

step "building without the patches (RUDP_NS3_PATCHES=off)"
tree=$(RUDP_NS3_PATCHES=off "$module_dir/scripts/build-ns3-optimized.sh" | tail -1)
unpatched=$(dirname "$tree")/unpatched-lib
rm -rf "$unpatched" && mkdir -p "$unpatched"
cp -a "$tree"/build/lib/libns3*-internet-*.so "$unpatched/"
step "building with the patches"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
RUDP_NS3_PATCHES=on "$module_dir/scripts/build-ns3-optimized.sh" 2>"$log" >/dev/null ||
  { cat "$log" >&2; exit 1; }
if grep -q "no form fits" "$log"; then
  grep "no form fits" "$log" >&2
  echo "FAILED: a patch fits no form of this ns-3: nothing to compare" >&2
  exit 1
fi
program=$(find "$tree/build" -name 'ns3*-rudp-cc-comparison-*' -type f -perm -u+x -print -quit)
[ -x "$program" ] || { echo "error: no rudp-cc-comparison in $tree/build" >&2; exit 1; }
internet=$(basename "$unpatched"/libns3*-internet-*.so)
# ldd's whole output is read before grep: grep -q leaving a pipe early kills
# the writer with SIGPIPE, which pipefail reports as a failure.
libraries=$(LD_LIBRARY_PATH=$unpatched ldd "$program")
grep -q -F "$unpatched/$internet" <<<"$libraries" ||
  { echo "error: LD_LIBRARY_PATH does not put $unpatched/$internet first" >&2; exit 1; }

runs=(
  "high-bdp-cubic --rate=100Mbps --flows=cubic@200ms --duration=30s"
  "high-bdp-newreno --rate=100Mbps --flows=newreno@400ms --duration=30s"
  "lossy-sack --rate=10Mbps --loss=0.01 --flows=newreno@50ms,cubic@100ms --duration=60s"
  "lossy-no-sack --rate=10Mbps --loss=0.02 --sack=0 --flows=htcp@50ms,westwood@100ms --duration=60s"
  "timeouts --rate=10Mbps --loss=0.1 --flows=veno@100ms,cvtcp@50ms --duration=60s"
  "small-queue --rate=100Mbps --queue=pfifo --queue-size=20 --flows=hybla@300ms,reno@50ms+2s --duration=30s"
)
work=$(mktemp -d)
trap 'rm -rf "$work" "$log"' EXIT
cpu() { # cpu OUT ARGS...: runs the program, prints its CPU seconds
  local out=$1 TIMEFORMAT='%U %S'
  shift
  { time "$@" --transport=tcp --output="$out" >/dev/null 2>"$out.err"; } 2>"$out.time" ||
    { echo "error: $* failed:" >&2; cat "$out.err" >&2; exit 1; }
  awk '{ printf "%.1f", $1 + $2 }' "$out.time"
}
failed=0
printf '\n%-18s %10s %10s  %s\n' run unpatched patched record >&2
for run in "${runs[@]}"; do
  read -r name options <<<"$run"
  # shellcheck disable=SC2086 # one option a word
  before=$(LD_LIBRARY_PATH=$unpatched cpu "$work/$name.unpatched.json" "$program" $options)
  # shellcheck disable=SC2086
  after=$(cpu "$work/$name.patched.json" "$program" $options)
  verdict=identical
  cmp -s "$work/$name.unpatched.json" "$work/$name.patched.json" || { verdict=DIFFERENT; failed=1; }
  printf '%-18s %9ss %9ss  %s\n' "$name" "$before" "$after" "$verdict" >&2
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
echo "ok: the patched library writes every record byte for byte as the unpatched one" >&2
