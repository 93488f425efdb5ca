#!/usr/bin/env bash
# Builds the module's scenario programs in an ns-3 tree configured with ns-3's
# optimized build profile (--build-profile=optimized: -O3 and the host's own
# instruction set, NS_ASSERT and NS_LOG compiled out), for long sweeps:
#
#   NS3_SOURCE=../ns-3.48.tar.bz2 scripts/build-ns3-optimized.sh
#   python -m rudp.sweep seed003 --ns3-build ~/.cache/rudp-ns3/ns-3.48-optimized/ns-3.48
#
# NS3_SOURCE is an ns-3 release tarball or an ns-3 tree (ns-3.36 or later:
# a CMake tree). Like scripts/check-ns3-tree.sh it never builds in your tree
# nor in the trees check-ns3-tree builds: the source is unpacked (a tarball)
# or copied without its build products (a tree) into its own directory,
# $RUDP_NS3_CACHE/<name>-optimized (default cache ~/.cache/rudp-ns3), which
# is reused between runs; ccache is shared with check-ns3-tree. Only rudp and
# the modules its scenarios use are enabled, without ns-3's tests, and only
# the module's example programs are built, those the configuration defines
# (not rudp-phone, whose radios are not enabled; TARGETS overrides the list).
# The copy carries the module's patches to ns-3 (patches/: NextSeg's walk,
# see doc/cc-comparison.rst) unless RUDP_NS3_PATCHES=off; a patch that fits
# none of its forms is reported and left out.
# The last line printed is the tree to give --ns3-build.
#
# Usage: build-ns3-optimized.sh [--configure-only]
#   --configure-only  stop once the tree is prepared and configured (what
#                     make test runs on a stub tree that was never configured).
set -euo pipefail


module_dir=$(cd "$(dirname "$0")/.." && pwd)
cache=${RUDP_NS3_CACHE:-$HOME/.cache/rudp-ns3}
jobs=${JOBS:-$(nproc)}
source_spec=${NS3_SOURCE:-}
targets=${TARGETS:-$(sed -n 's/^ *NAME \(rudp-[a-z0-9-]*\)$/\1/p' "$module_dir/examples/CMakeLists.txt")}
export CCACHE_DIR=$cache/ccache
export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-8G}
export CCACHE_BASEDIR=$cache

step() { printf '\n== %s (%ds)\n' "$*" "$SECONDS" >&2; }
# shellcheck source=scripts/ns3-source.sh
. "$module_dir/scripts/ns3-source.sh"
ns3_until_stage "$@" # sets $until_stage: all, or configure

[ -n "$source_spec" ] || {
  echo "error: NS3_SOURCE: not set; allowed: an ns-3 release tarball or an ns-3 tree (3.36 or later)" >&2
  exit 2
}
"$module_dir/scripts/install-system-deps.sh" ns3-tree >&2

ns3_source_tree "$source_spec" -optimized
[ -x "$tree/ns3" ] || {
  echo "error: NS3_SOURCE: $source_spec is a waf tree (no ./ns3); allowed: ns-3.36 or later" >&2
  exit 2
}
version=$(cat "$tree/VERSION" 2>/dev/null || basename "$tree")
# The module's patches to ns-3 (patches/, doc/cc-comparison.rst): on unless
# RUDP_NS3_PATCHES=off; they change no result, only the time.
ns3_apply_patches "$tree"

# Objects built from another checkout of the module are newer than this
# checkout's sources, so ninja would keep them: a new link target rebuilds the
# module (ccache makes that cheap).
previous=$(readlink "$tree/contrib/rudp" 2>/dev/null || true)
if [ -n "$previous" ] && [ "$previous" != "$module_dir" ]; then
  step "contrib/rudp pointed to $previous: the module's objects are rebuilt"
  rm -rf "$tree/cmake-cache/contrib/rudp"
fi
ln -sfn "$module_dir" "$tree/contrib/rudp"
step "configuring ns-$version (optimized profile) with contrib/rudp -> $module_dir"
ns3_remove_module_headers "$tree"
(cd "$tree" && ./ns3 configure -G Ninja --build-profile=optimized \
  --enable-modules="rudp;csma;point-to-point;flow-monitor;traffic-control" \
  --enable-examples --disable-tests --disable-werror >"$work/configure.log" 2>&1) ||
  { tail -40 "$work/configure.log" >&2; exit 1; }

if [ $until_stage = configure ]; then
  step "configured; stopping before the build (--configure-only)"
  exit 0
fi
if [ -z "${TARGETS:-}" ]; then
  # The module's examples this configuration defines (rudp-phone needs wifi
  # and mobility, which this tree leaves out).
  # shellcheck disable=SC2086 # one target a word
  targets=$(ns3_configured_programs "$tree" $targets)
  [ -n "$targets" ] || { echo "error: $tree's configuration builds none of the module's examples" >&2; exit 1; }
fi
step "building $(echo $targets) with $jobs jobs"
# shellcheck disable=SC2086 # one target a word
cmake --build "$tree/cmake-cache" -j "$jobs" --target $targets >"$work/build.log" 2>&1 ||
  { grep -B2 -A20 -m3 'error' "$work/build.log" >&2 || tail -60 "$work/build.log" >&2; exit 1; }
ccache --show-stats 2>/dev/null | grep -E 'Hits|Misses' >&2 || true
step "built (patches: $applied_patches); run the sweeps with --ns3-build $tree"
echo "$tree"
