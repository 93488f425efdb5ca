#!/usr/bin/env bash
# Usage: install-system-deps.sh [build] [lint] [venv] [ns3-tree] [slurm]
# Installs the system tools a make target needs, if any is missing
# (Debian/Ubuntu, apt-get):
#   build  what `make setup` (so `make demo` and `make test`) needs: cmake,
#          ninja, g++, Python's venv (the default). OpenSSL is optional:
#          SHA-256 comes from libcrypto when it is there, else from the
#          module's own implementation (model/rudp-sha256.h).
#   lint   what `make lint` (part of `make test`) adds: clang-format, git
#   venv   what `make doc` needs to create .venv: Python's venv
#   ns3-tree  what building an ns-3 tree needs (make check-ns3-tree, make
#          ns3-optimized): cmake, ninja, g++, ccache, bzip2 and rsync (to
#          unpack or copy the source), patch (make ns3-optimized's patches),
#          OpenMPI (ns-3's MPI module, for the module's distributed runs)
#   slurm  a one-node Slurm cluster (scripts/slurm-cluster.sh, the sweep's
#          Slurm test): slurmctld, slurmd, the Slurm commands, munge
# A machine that has them all is left untouched: no apt-get, no sudo.
set -euo pipefail
[ $# -gt 0 ] || set -- build
missing=()
need_tool() { # need_tool COMMAND PACKAGE
  command -v "$1" >/dev/null || missing+=("$2")
}
need_venv() {
  python3 -c 'import venv, ensurepip' 2>/dev/null || missing+=(python3-venv)
}
for kind in "$@"; do
  case $kind in
    build)
      need_tool cmake cmake
      need_tool ninja ninja-build
      need_tool g++ g++
      need_venv
      ;;
    lint)
      need_tool clang-format clang-format
      need_tool git git
      ;;
    venv) need_venv ;;
    ns3-tree)
      need_tool cmake cmake
      need_tool ninja ninja-build
      need_tool g++ g++
      need_tool ccache ccache
      need_tool bzip2 bzip2
      need_tool rsync rsync
      need_tool patch patch
      need_tool mpiexec openmpi-bin
      need_tool mpicxx libopenmpi-dev
      ;;
    slurm)
      need_tool slurmctld slurmctld
      need_tool slurmd slurmd
      need_tool sbatch slurm-client
      need_tool munged munge
      ;;
    *)
      echo "usage: install-system-deps.sh [build] [lint] [venv] [ns3-tree] [slurm]" >&2
      exit 2
      ;;
  esac
done
[ ${#missing[@]} -eq 0 ] && exit 0

# One package may be wanted by two kinds.
mapfile -t missing < <(printf '%s\n' "${missing[@]}" | sort -u)
if ! command -v apt-get >/dev/null; then
  echo "error: missing ${missing[*]} (Debian/Ubuntu package names); install them, then run make again" >&2
  exit 1
fi
if [ "$(id -u)" -eq 0 ]; then
  sudo_cmd=()
elif command -v sudo >/dev/null; then
  sudo_cmd=(sudo)
else
  echo "error: missing ${missing[*]}; as root: apt-get install ${missing[*]}" >&2
  exit 1
fi
echo "installing ${missing[*]} (for ${*})"
# Another apt-get (a second setup at once, unattended upgrades) may hold
# dpkg's lock: wait for it, up to 10 minutes, instead of failing at once.
"${sudo_cmd[@]}" apt-get -o DPkg::Lock::Timeout=600 update -qq
"${sudo_cmd[@]}" apt-get -o DPkg::Lock::Timeout=600 install -y -qq "${missing[@]}"
