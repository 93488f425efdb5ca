#!/usr/bin/env bash
# Usage: install-ns2.sh
# Makes sure ns-2.35 (Debian/Ubuntu's ns2 package, program `ns`) can run an
# SCTP-CMT agent, for the ns-2 cross-check of seed 002 (python -m rudp.ns2,
# python/tests/test_ns2_cmt.py). Installs the package with apt-get only if
# the probe fails; a machine that has it is left untouched and needs no sudo.
# make demo does not need it.
set -euo pipefail
probe_dir=$(mktemp -d)
trap 'rm -rf "$probe_dir"' EXIT
printf 'set a [new Agent/SCTP/CMT]\nputs ok\nexit 0\n' >"$probe_dir/probe.tcl"

probe() {
  local said
  command -v ns >/dev/null 2>&1 && said=$(cd "$probe_dir" && ns probe.tcl 2>/dev/null) &&
    grep -q '^ok$' <<<"$said"
}

probe && exit 0
if ! command -v apt-get >/dev/null 2>&1; then
  echo "error: ns-2 (program ns, with Agent/SCTP/CMT) is missing and apt-get is not available;" \
    "install ns-2.35 by hand" >&2
  exit 1
fi
echo "installing ns2 (needed by the ns-2 cross-check of seed 002)"
sudo_cmd=$([ "$(id -u)" -eq 0 ] && echo "" || echo sudo)
# Another apt-get (a second setup at once, unattended upgrades) may hold
# dpkg's lock: wait for it, up to 10 minutes, instead of failing at once.
$sudo_cmd apt-get -o DPkg::Lock::Timeout=600 update -qq
$sudo_cmd apt-get -o DPkg::Lock::Timeout=600 install -y -qq ns2
probe || {
  echo "error: ns2 is installed but ns cannot run an Agent/SCTP/CMT" >&2
  exit 1
}
