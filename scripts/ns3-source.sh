# Sourced by check-ns3-tree.sh and build-ns3-optimized.sh: where an ns-3 source
# (NS3_SOURCE) is unpacked or copied to be configured and built, never in place.
# Needs $cache and a step() function.

# ns3_source_tree SOURCE SUFFIX: sets $work, the cache directory of SOURCE
# (a release tarball, unpacked once, or an ns-3 tree, copied without its build
# products and the module) with SUFFIX appended to its name, and $tree, the
# ns-3 directory in it (with ./ns3 or ./waf). Exits 2 naming what is wrong.
ns3_source_tree() {
  local source=$1 suffix=$2
  if [ -f "$source" ]; then
    local name
    name=$(basename "$source")
    name=${name%%.tar*}
    work=$cache/$name$suffix
    if [ ! -f "$work/.unpacked" ]; then
      step "unpacking $source into $work"
      rm -rf "$work" && mkdir -p "$work"
      tar xf "$source" -C "$work"
      touch "$work/.unpacked"
    fi
    tree=$(find "$work" -mindepth 1 -maxdepth 2 \( -name ns3 -o -name waf \) -type f -printf '%h\n' -quit)
  elif [ -d "$source" ]; then
    local origin
    origin=$(cd "$source" && pwd)
    [ -x "$origin/ns3" ] || [ -x "$origin/waf" ] || {
      echo "error: NS3_SOURCE: $source is not an ns-3 tree (no ./ns3 or ./waf); allowed: an ns-3 release tarball or tree" >&2
      exit 2
    }
    work=$cache/tree-$(printf '%s' "$origin" | sha256sum | cut -c1-12)$suffix
    tree=$work/$(basename "$origin")
    step "copying $origin (without its build products) to $tree; your tree is not touched"
    mkdir -p "$tree"
    rsync -a --delete --exclude=/build --exclude=/cmake-cache --exclude=/.lock-* \
      --exclude=/contrib/rudp --exclude=/.git "$origin/" "$tree/"
  else
    echo "error: NS3_SOURCE: $source: no such file or directory; allowed: an ns-3 release tarball or tree" >&2
    exit 2
  fi
  [ -n "$tree" ] && { [ -x "$tree/ns3" ] || [ -x "$tree/waf" ]; } || {
    echo "error: NS3_SOURCE: no ns-3 tree (./ns3 or ./waf) in $source" >&2
    exit 2
  }
}

# ns3_newest_build_file DIR FIND-TESTS...: prints the newest file under DIR that
# the find tests select. A tree built in another profile before keeps that
# profile's programs and libraries (ns3.48-test-runner-default beside -debug,
# libns3.48-internet-default.so beside -debug.so): the newest is the last
# build's. Prints nothing when none matches.
ns3_newest_build_file() {
  local dir=$1 newest
  shift
  newest=$(find "$dir" "$@" -type f -printf '%T@ %p\n' 2>/dev/null | sort -n | tail -n 1)
  [ -z "$newest" ] || echo "${newest#* }"
}

# ns3_test_runner TREE: prints the path of TREE's test runner, the one its last
# build linked (whose suites are that build's); fails when there is none.
ns3_test_runner() {
  local runner
  runner=$(ns3_newest_build_file "$1/build/utils" -maxdepth 1 -name '*test-runner*' -perm -u+x)
  [ -n "$runner" ] || { echo "error: no test runner under $1/build/utils" >&2; return 1; }
  echo "$runner"
}

# ns3_restore_license TREE: gives the cache's copy TREE the LICENSE file of an
# ns-3 release when its source left it out (../shared's ns-3.48 subset does):
# ns-3's test runner takes the folder with VERSION and LICENSE as the source
# root, and without it every example-as-test (the MPI suites) ends in "Could
# not open directory=". ns-3's LICENSE is the GNU GPL version 2, which Debian
# ships as /usr/share/common-licenses/GPL-2.
ns3_restore_license() {
  local tree=$1 gpl=/usr/share/common-licenses/GPL-2
  [ -f "$tree/VERSION" ] && [ ! -f "$tree/LICENSE" ] || return 0
  if [ -f "$gpl" ]; then
    cp "$gpl" "$tree/LICENSE"
    step "the copy of ns-3 had no LICENSE (its source left it out): ns-3's, the GPL-2, restored (the test runner looks for it)"
  else
    echo "warning: $tree has no LICENSE and $gpl is missing: ns-3's example-as-test suites cannot find the source root" >&2
  fi
}

# ns3_remove_module_headers TREE: removes the forwarding headers
# (build/include/ns3/<header>.h) that TREE's last configure wrote for this
# module. ns-3 writes each once and never rewrites it, so a header that moved
# inside the module would keep pointing at its old place. A tree that was
# never configured has no build/ and nothing to remove; any other grep error
# (exit 2) ends the script.
ns3_remove_module_headers() {
  local include=$1/build/include/ns3
  [ -d "$include" ] || return 0
  { grep -r -l -F --include='*.h' "contrib/rudp/" "$include" || [ $? -eq 1 ]; } | xargs -r rm -f
}

# ns3_mpi_options: sets $mpi_options and $mpi_module, what ./ns3 configure adds
# for ns-3's MPI module (src/mpi: the distributed simulators the module's
# --ranks runs on): --enable-mpi and ";mpi" for --enable-modules when OpenMPI's mpiexec and mpicxx are
# there (install-system-deps.sh ns3-tree installs them), nothing otherwise or
# with RUDP_NS3_MPI=off; RUDP_NS3_MPI=on insists. Anything else exits 2.
ns3_mpi_options() {
  local mode=${RUDP_NS3_MPI:-auto} found=yes
  command -v mpiexec >/dev/null && command -v mpicxx >/dev/null || found=no
  case $mode in
    auto) [ $found = yes ] || mode=off ;;
    on)
      [ $found = yes ] || {
        echo "error: RUDP_NS3_MPI=on, but OpenMPI's mpiexec or mpicxx is missing (Debian: openmpi-bin libopenmpi-dev)" >&2
        exit 1
      }
      ;;
    off) ;;
    *)
      echo "error: RUDP_NS3_MPI: '$mode'; allowed: auto, on or off" >&2
      exit 2
      ;;
  esac
  mpi_options=()
  mpi_module=""
  [ "$mode" = off ] || { mpi_options=(--enable-mpi); mpi_module=";mpi"; }
}

# ns3_until_stage [--configure-only | --build-only]: the tree scripts' one
# option. Sets $until_stage to "configure" (stop once the tree is
# configured), "build" (once it is built: check-ns3-tree.sh alone) or "all";
# anything else exits 2 naming it.
ns3_until_stage() {
  until_stage=all
  case ${1:-} in
    "") ;;
    --configure-only) until_stage=configure ;;
    --build-only) until_stage=build ;;
    *)
      echo "error: unknown option '$1'; allowed: --configure-only, --build-only" >&2
      exit 2
      ;;
  esac
}

# ns3_internet_target TREE: prints the build target of TREE's internet
# library (a Ninja build in TREE/cmake-cache): libinternet up to ns-3.47,
# internet from ns-3.48 on. Fails if there is neither.
ns3_internet_target() {
  local targets name
  targets=$(ninja -C "$1/cmake-cache" -t targets all) || return 1
  name=$(sed -n -E 's/^((lib)?internet): .*/\1/p' <<<"$targets")
  [ -n "$name" ] || { echo "error: no internet library target in $1/cmake-cache" >&2; return 1; }
  printf '%s\n' "$name"
}

# ns3_configured_programs TREE NAME...: prints each NAME whose program TREE's
# configuration builds, as the lock file ./ns3 run reads lists them
# (ns3_runnable_programs, ns3.<version>-NAME[-profile]); ns-3 leaves out an
# example whose modules are not enabled. Each NAME left out is said on stderr.
ns3_configured_programs() {
  python3 - "$@" <<'EOF_PY'
import pathlib, re, sys
tree = pathlib.Path(sys.argv[1])
config = {}
for lock in tree.glob(".lock-ns3_*"):
    for line in lock.read_text().splitlines():
        if line.startswith("ns3_runnable_programs"):
            exec(line, config)
programs = [pathlib.Path(p).name for p in config.get("ns3_runnable_programs", [])]
for name in sys.argv[2:]:
    if any(re.fullmatch(rf"ns[\d.]+-{re.escape(name)}(-\w+)?", p) for p in programs):
        print(name)
    else:
        print(f"{name}: not configured (the modules it needs are not enabled)", file=sys.stderr)
EOF_PY
}

# ns3_apply_patches TREE: brings TREE's copy of ns-3 to the module's patches
# (patches/<name>/<form>.patch, one file a form of the changed source; each
# named set is applied by the first of its forms that fits, or reported as
# fitting none) or, with RUDP_NS3_PATCHES=off, back to the release's source.
# Run on the cache's copies only, never on a user's tree. Idempotent: a set
# already applied is left as it is. Sets $applied_patches (names, or "none").
ns3_apply_patches() {
  local tree=$1 mode=${RUDP_NS3_PATCHES:-on} set form fitted
  case $mode in on | off) ;; *)
    echo "error: RUDP_NS3_PATCHES: '$mode'; allowed: on or off" >&2
    exit 2
    ;;
  esac
  applied_patches=""
  for set in "$module_dir"/patches/*/; do
    set=${set%/}
    fitted=""
    for form in "$set"/*.patch; do
      if patch -d "$tree" -p1 -R --dry-run -s -f <"$form" >/dev/null 2>&1; then
        fitted=$form
        if [ "$mode" = off ]; then
          step "RUDP_NS3_PATCHES=off: removing $(basename "$set") ($(basename "$form"))"
          patch -d "$tree" -p1 -R -s -f <"$form" >/dev/null
          fitted=""
        fi
        break
      fi
    done
    if [ "$mode" = on ] && [ -z "$fitted" ]; then
      for form in "$set"/*.patch; do
        if patch -d "$tree" -p1 --dry-run -s -f <"$form" >/dev/null 2>&1; then
          step "applying patches/$(basename "$set")/$(basename "$form") to the cache's copy of ns-3"
          patch -d "$tree" -p1 -s -f <"$form" >/dev/null
          fitted=$form
          break
        fi
      done
      [ -n "$fitted" ] ||
        step "patches/$(basename "$set"): no form fits this ns-3 ($(ls "$set")); it is built unpatched"
    fi
    [ -z "$fitted" ] || applied_patches+="${applied_patches:+ }$(basename "$set")"
  done
  applied_patches=${applied_patches:-none}
}
