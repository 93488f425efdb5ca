#!/usr/bin/env bash
# Verifies the in-tree host: builds this module as an ns-3 tree's contrib/rudp,
# runs every rudp-* suite under test.py and every example of
# test/examples-to-run.py under ./ns3 run (CMake trees, ns-3.36 and later) or
# ./waf --run (waf trees, ns-3.35 and earlier).
#
# Which ns-3 source is checked comes from NS3_SOURCE:
#   unset            ns-3.37 from Debian bookworm's source package (apt-get source)
#   a tarball        e.g. ../shared/ns-3/ns-3.48-subset.tar.gz: unpacked into the cache
#   a directory      your own ns-3 tree. It is never configured or built in place:
#                    it is copied (without its build products) into the cache, and
#                    the copy is configured and built. Your tree stays as it was.
# Each source gets its own directory under $RUDP_NS3_CACHE (default
# ~/.cache/rudp-ns3), reused between runs; ccache is shared between them.
#
# Only rudp's own tests and examples are built (ns-3's
# --filter-module-examples-and-tests): ns-3's modules are built as libraries,
# without their hundreds of test and example programs. CMake trees are built
# in ns-3's debug profile (asserts and logs on, as ns-3 checks its own
# changes) at -Og -g1 instead of its -O0 -g: a unit of ns-3's compiles in half
# the time of the default profile's -O2 (or -Os) -g, and the simulations of
# the suites and examples do not crawl as they do at -O0.
#
# With OpenMPI there (install-system-deps.sh ns3-tree installs it) the tree is
# configured with --enable-mpi (RUDP_NS3_MPI=off: without), and the module's
# MPI suites run its examples split across ranks under mpiexec.
#
# RUDP_NS3_MODULES adds ns-3 modules to those enabled, ';'-separated: with
# "wifi;mobility" the tree builds rudp-phone (and with ";lte", where the
# source has it, its --cellular=lte) and runs its examples. CI leaves them
# out (ns-3's wifi alone compiles for longer than the rest of the check); an
# example whose program the tree did not build is skipped, as ns-3's test.py
# skips it.
#
# Usage: check-ns3-tree.sh [--configure-only | --build-only]
#   --configure-only  stop once the tree is prepared and configured, before the
#                     build: what make test runs on a stub tree that was never
#                     configured (python/tests/test_scripts.py), so that the
#                     first run on a new machine cannot break unseen.
#   --build-only      stop once it is built, before the suites and examples
#                     run (check-ns3-patches.sh builds the tree so).
set -euo pipefail


module_dir=$(cd "$(dirname "$0")/.." && pwd)
cache=${RUDP_NS3_CACHE:-$HOME/.cache/rudp-ns3}
jobs=${JOBS:-$(nproc)}
source_spec=${NS3_SOURCE:-}
export CCACHE_DIR=$cache/ccache
export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-8G}
export CCACHE_BASEDIR=$cache

step() { printf '\n== %s (%ds)\n' "$*" "$SECONDS"; }
# shellcheck source=scripts/ns3-source.sh
. "$module_dir/scripts/ns3-source.sh"
ns3_until_stage "$@" # sets $until_stage: all, or configure
# RUDP_NS3_MODULES, as ";wifi;mobility" for --enable-modules
if [[ ! ${RUDP_NS3_MODULES:-} =~ ^[a-z0-9\;-]*$ ]]; then
  echo "error: RUDP_NS3_MODULES: '$RUDP_NS3_MODULES'; allowed: ns-3 module names separated by ';' (e.g. wifi;mobility)" >&2
  exit 2
fi
extra_modules=${RUDP_NS3_MODULES:+;${RUDP_NS3_MODULES#;}}

as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }

# Sets $tree (the ns-3 directory to build in) and $work (its cache directory).
prepare_source() {
  if [ -z "$source_spec" ]; then
    work=$cache/debian-ns3-3.37
    tree=$work/ns-allinone-3.37/ns-3.37
    # Not "[ ... ] || fetch_debian_source": bash ignores set -e inside a
    # function called on the left of || or &&, so a failed download would go on.
    if [ ! -f "$work/.unpacked" ]; then
      fetch_debian_source
    fi
  else
    ns3_source_tree "$source_spec" ""
  fi
  version=$(cat "$tree/VERSION" 2>/dev/null || basename "$tree")
  ns3_restore_license "$tree"
  # The tree is ns-3 as released: patches a killed check-ns3-patches left
  # in it come out (none ever goes into a CMake tree but for that check).
  RUDP_NS3_PATCHES=off ns3_apply_patches "$tree"
}

fetch_debian_source() {
  step "fetching ns-3.37 from Debian's source package"
  # apt-get source needs a deb-src entry for bookworm and package lists read
  # with it; a new machine may have neither (or a deb-src entry of another
  # suite only).
  if ! apt-get source --print-uris ns3=3.37-2 >/dev/null 2>&1; then
    # Ours, whatever else is there: a second deb-src entry for the same
    # suite only makes apt warn.
    as_root tee /etc/apt/sources.list.d/rudp-bookworm-src.sources >/dev/null <<'EOF'
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
    as_root apt-get -o DPkg::Lock::Timeout=600 update -qq
    apt-get source --print-uris ns3=3.37-2 >/dev/null || {
      echo "error: apt-get source finds no ns3 3.37-2 (Debian bookworm's source package);" \
        "give another ns-3 with NS3_SOURCE (a release tarball or tree)" >&2
      exit 1
    }
  fi
  rm -rf "$work" && mkdir -p "$work"
  (cd "$work" && apt-get source --download-only ns3=3.37-2 && tar xjf ns3_3.37.orig.tar.bz2)
  touch "$work/.unpacked" # only once whole: an interrupted unpack starts again
}

link_module() {
  ln -sfn "$module_dir" "$tree/contrib/rudp"
}

# --- CMake trees (ns-3.36 and later) -----------------------------------------
cmake_configure() {
  step "configuring ns-$version with contrib/rudp"
  ns3_remove_module_headers "$tree"
  # rudp and what its examples use besides its own dependencies; ns-3's MPI
  # when OpenMPI is there (the module's distributed examples and their tests).
  ns3_mpi_options
  (cd "$tree" && ./ns3 configure -G Ninja --build-profile=debug \
    --enable-modules="rudp;csma;point-to-point;flow-monitor;traffic-control$mpi_module$extra_modules" \
    "${mpi_options[@]}" --enable-examples --enable-tests --filter-module-examples-and-tests=rudp \
    --disable-werror -- "-DCMAKE_CXX_FLAGS_DEBUG=-Og -g1" >"$work/configure.log" 2>&1) ||
    { tail -40 "$work/configure.log"; exit 1; }
}

cmake_build() {
  # 3.37's ./ns3 caps its jobs at nproc-1; drive the build directly.
  step "building ns-$version with $jobs jobs"
  cmake --build "$tree/cmake-cache" -j "$jobs" >"$work/build.log" 2>&1 ||
    { grep -B2 -A20 -m3 'error' "$work/build.log" || tail -60 "$work/build.log"; exit 1; }
  ccache --show-stats 2>/dev/null | grep -E 'Hits|Misses|hit rate' || true
}

cmake_run_example() { (cd "$tree" && timeout 600 ./ns3 run --no-build "$1"); }

# --- waf trees (ns-3.35 and earlier) -----------------------------------------
waf_configure() {
  step "configuring ns-$version (waf) with contrib/rudp"
  (cd "$tree" && CXX="ccache g++" ./waf configure --enable-examples --enable-tests --disable-werror \
    --disable-python --enable-modules="rudp,csma,point-to-point,flow-monitor,traffic-control${extra_modules//;/,}" \
    >"$work/configure.log" 2>&1) || { tail -40 "$work/configure.log"; exit 1; }
}

waf_build() {
  step "building ns-$version (waf) with $jobs jobs"
  (cd "$tree" && ./waf build -j "$jobs" >"$work/build.log" 2>&1) ||
    { grep -B2 -A20 -m3 'error' "$work/build.log" || tail -60 "$work/build.log"; exit 1; }
}

waf_run_example() { (cd "$tree" && timeout 600 ./waf --run "$1"); }

# --- both --------------------------------------------------------------------
run_suites() {
  local runner suites failed=0
  runner=$(ns3_test_runner "$tree") || exit 1
  # A waf tree's runner finds ns-3's libraries only through the loader path
  # (./waf and test.py set it; a CMake tree's runner has an rpath).
  suites=$(LD_LIBRARY_PATH="$tree/build/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" "$runner" --list |
    grep '^rudp-' || true)
  [ -n "$suites" ] || { echo "no rudp-* suites are registered in $runner"; exit 1; }
  for suite in $suites; do
    step "test.py -s $suite"
    (cd "$tree" && ./test.py "${no_build[@]}" --suite="$suite") || failed=1
  done
  return $failed
}

run_examples() {
  local failed=0 ran=0 entries
  # Each entry's condition sees NS3_ENABLED_MODULES, as in ns-3's test.py,
  # and an entry whose program the tree's configuration does not build is
  # skipped, as test.py skips it: both from the tree's lock file (a CMake
  # tree's ns3_runnable_programs; a program built under an earlier
  # configuration may still lie in build/). A waf tree has no such list:
  # there the program's file decides.
  entries=$(python3 - "$module_dir/test/examples-to-run.py" "$tree" <<'EOF'
import pathlib, re, runpy, sys
tree = pathlib.Path(sys.argv[2])
config = {"NS3_ENABLED_MODULES": []}
for lock in tree.glob(".lock-ns3_*"):
    for line in lock.read_text().splitlines():
        if line.startswith(("NS3_ENABLED_MODULES", "ns3_runnable_programs")):
            exec(line, config)
if "ns3_runnable_programs" in config:
    programs = [pathlib.Path(p).name for p in config["ns3_runnable_programs"]]
else:
    programs = [p.name for p in (tree / "build" / "contrib" / "rudp" / "examples").glob("ns*")]
for command, run, *_ in runpy.run_path(sys.argv[1])["cpp_examples"]:
    if eval(run, {"NS3_ENABLED_MODULES": config["NS3_ENABLED_MODULES"]}):
        name = re.escape(command.split()[0])
        built = any(re.fullmatch(rf"ns[\d.]+-{name}(-\w+)?", p) for p in programs)
        print(("run" if built else "skip") + "\t" + command)
EOF
  )
  while IFS=$'\t' read -r verdict command; do
    [ -n "$command" ] || continue
    if [ "$verdict" = skip ]; then
      step "skipped \"$command\": not built (the modules it needs are not enabled)"
      continue
    fi
    step "$host run \"$command\""
    ran=$((ran + 1))
    "${host}_run_example" "$command" || { echo "FAILED: $command"; failed=1; }
  done <<<"$entries"
  # Every example skipped would be a check that cannot fail (a program name
  # this script does not recognize).
  [ $ran -gt 0 ] || { echo "FAILED: no example of examples-to-run.py was found built"; failed=1; }
  return $failed
}

"$module_dir/scripts/install-system-deps.sh" ns3-tree
prepare_source
link_module
if [ -x "$tree/ns3" ]; then host=cmake; else host=waf; fi
# test.py must not build again: --no-build (CMake trees), --nowaf (waf trees)
if [ $host = cmake ]; then no_build=(--no-build); else no_build=(--nowaf); fi
step "ns-$version at $tree ($host)"
"${host}_configure"
if [ $until_stage = configure ]; then
  step "check-ns3-tree (ns-$version): configured; stopping before the build (--configure-only)"
  exit 0
fi
"${host}_build"
if [ $until_stage = build ]; then
  step "check-ns3-tree (ns-$version): built; stopping before the suites and examples (--build-only)"
  exit 0
fi
# The MPI suites (rudp-mpi-*, in a tree with MPI) start OpenMPI's mpiexec,
# which runs as root (CI's container) and more ranks than cores (2 of them)
# only when told so.
if [ "$(id -u)" -eq 0 ]; then
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi
export OMPI_MCA_rmaps_base_oversubscribe=1
status=0
run_suites || status=1
run_examples || status=1
step "check-ns3-tree (ns-$version) done, status $status"
exit $status
