#!/usr/bin/env bash
# Verifies the in-tree host: builds this module as ns-3.37's contrib/rudp, runs
# every rudp-* suite under test.py and every example of test/examples-to-run.py
# under ./ns3 run.
#
# ns-3.37 comes from Debian bookworm's source package, the only ns-3 source
# reachable from these machines. The tree, its build and ccache live under
# $RUDP_NS3_CACHE (default ~/.cache/rudp-ns3) and are reused between runs.
set -euo pipefail

module_dir=$(cd "$(dirname "$0")/.." && pwd)
cache=${RUDP_NS3_CACHE:-$HOME/.cache/rudp-ns3}
tree=$cache/ns-allinone-3.37/ns-3.37
jobs=${JOBS:-$(nproc)}
modules="rudp;csma;point-to-point;flow-monitor;traffic-control"
export CCACHE_DIR=$cache/ccache
export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-5G}

step() { printf '\n== %s (%ds)\n' "$*" "$SECONDS"; }

as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }

install_tools() {
  local missing=()
  for tool in ccache ninja cmake g++ bzip2; do
    command -v "$tool" >/dev/null || missing+=("$tool")
  done
  [ ${#missing[@]} -eq 0 ] && return
  step "installing ${missing[*]}"
  missing=("${missing[@]/ninja/ninja-build}")
  as_root apt-get update -qq
  as_root apt-get install -y -qq "${missing[@]}"
}

fetch_source() {
  [ -f "$tree/ns3" ] && return
  step "fetching ns-3.37 from Debian's source package"
  local list=/etc/apt/sources.list.d/rudp-bookworm-src.sources
  if ! grep -rqs '^Types:.*deb-src' /etc/apt/sources.list.d/ && ! grep -qs '^deb-src' /etc/apt/sources.list; then
    as_root tee "$list" >/dev/null <<'EOF'
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
    as_root apt-get update -qq
  fi
  mkdir -p "$cache"
  (cd "$cache" && apt-get source --download-only ns3=3.37-2 && tar xjf ns3_3.37.orig.tar.bz2)
}

configure_tree() {
  ln -sfn "$module_dir" "$tree/contrib/rudp"
  step "configuring ns-3.37 with contrib/rudp"
  # rudp and what its examples use besides its own dependencies.
  (cd "$tree" && ./ns3 configure -G Ninja --enable-modules="$modules" --enable-examples --enable-tests \
    --disable-werror >"$cache/configure.log" 2>&1) || { tail -40 "$cache/configure.log"; exit 1; }
}

build_tree() {
  # 3.37's ./ns3 caps its jobs at nproc-1; drive the build directly.
  step "building with $jobs jobs"
  cmake --build "$tree/cmake-cache" -j "$jobs" >"$cache/build.log" 2>&1 || { grep -B2 -A20 -m3 'error' "$cache/build.log" || tail -60 "$cache/build.log"; exit 1; }
  ccache --show-stats 2>/dev/null | grep -E 'Hits|Misses|hit rate' || true
}

run_suites() {
  local runner suites failed=0
  runner=$(ls "$tree"/build/utils/ns3.37-test-runner-* | head -1)
  suites=$("$runner" --list | grep '^rudp-' || true)
  [ -n "$suites" ] || { echo "no rudp-* suites are registered in $runner"; exit 1; }
  for suite in $suites; do
    step "test.py -s $suite"
    (cd "$tree" && ./test.py --no-build --suite="$suite") || failed=1
  done
  return $failed
}

run_examples() {
  local failed=0 entries
  entries=$(python3 - "$module_dir/test/examples-to-run.py" <<'EOF'
import runpy, sys
for command, run, *_ in runpy.run_path(sys.argv[1])["cpp_examples"]:
    if eval(run):
        print(command)
EOF
  )
  while IFS= read -r command; do
    [ -n "$command" ] || continue
    step "./ns3 run \"$command\""
    (cd "$tree" && timeout 600 ./ns3 run --no-build "$command") || { echo "FAILED: $command"; failed=1; }
  done <<<"$entries"
  return $failed
}

install_tools
fetch_source
configure_tree
build_tree
status=0
run_suites || status=1
run_examples || status=1
step "check-ns3-tree done, status $status"
exit $status
