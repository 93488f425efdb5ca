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
