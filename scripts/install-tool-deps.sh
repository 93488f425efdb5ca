#!/usr/bin/env bash
# Usage: install-tool-deps.sh sanitize|fuzz|tshark
# Makes sure the compiler can build what `make test-sanitize` (g++ with
# AddressSanitizer and UndefinedBehaviorSanitizer) or `make fuzz` (clang with
# libFuzzer) needs, by compiling a probe, or (tshark) that Wireshark's tshark
# with Lua is there for the dissector's tests (python/tests/
# test_wireshark_dissector.py, part of `make test`); installs the missing
# Debian/Ubuntu packages with apt-get only if the probe fails. A machine that
# has the tools is left untouched and needs no sudo.
set -euo pipefail
kind=${1:?usage: install-tool-deps.sh sanitize|fuzz|tshark}
probe_dir=$(mktemp -d)
trap 'rm -rf "$probe_dir"' EXIT

probe() {
  case $kind in
    sanitize)
      printf 'int main() { return 0; }\n' >"$probe_dir/probe.cc"
      g++ -fsanitize=address,undefined "$probe_dir/probe.cc" -o "$probe_dir/probe" 2>/dev/null &&
        "$probe_dir/probe"
      ;;
    fuzz)
      printf '#include <cstdint>\n#include <cstddef>\nextern "C" int LLVMFuzzerTestOneInput(const uint8_t*, size_t) { return 0; }\n' \
        >"$probe_dir/probe.cc"
      clang++ -fsanitize=fuzzer,address,undefined "$probe_dir/probe.cc" -o "$probe_dir/probe" 2>/dev/null &&
        "$probe_dir/probe" -runs=1 >/dev/null 2>&1
      ;;
    tshark)
      # Debian's tshark is built with Lua; the dissector needs it.
      # (grep reads all of it: an early exit would fail the pipe under pipefail)
      command -v tshark >/dev/null && tshark -v 2>/dev/null | grep 'with Lua' >/dev/null
      ;;
    *)
      echo "usage: install-tool-deps.sh sanitize|fuzz|tshark" >&2
      exit 2
      ;;
  esac
}

probe && exit 0
case $kind in
  sanitize) packages=(g++ libasan8 libubsan1) ;;
  fuzz) packages=(clang libclang-rt-dev) ;;
  tshark) packages=(tshark) ;;
esac
case $kind in
  sanitize) target="make test-sanitize" ;;
  fuzz) target="make fuzz" ;;
  tshark) target="make test (the Wireshark dissector's tests)" ;;
esac
echo "installing ${packages[*]} (needed by $target)"
sudo_cmd=$([ "$(id -u)" -eq 0 ] && echo "" || echo sudo)
# Another apt-get (a second setup at once, unattended upgrades) may hold
# dpkg's lock: wait for it, up to 10 minutes, instead of failing at once.
$sudo_cmd apt-get -o DPkg::Lock::Timeout=600 update -qq
# wireshark-common asks whether non-root users may capture (debconf): the
# default answer (no) without a question.
$sudo_cmd env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -qq "${packages[@]}"
probe || {
  echo "error: the $kind tool chain still does not work after installing ${packages[*]}" >&2
  exit 1
}
