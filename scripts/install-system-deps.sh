#!/usr/bin/env bash
# Installs the system tools the standalone build needs, if any is missing
# (Debian/Ubuntu). A machine that has them all is left untouched.
set -euo pipefail
declare -A package=([cmake]=cmake [ninja]=ninja-build [g++]=g++ [git]=git)
missing=()
for tool in "${!package[@]}"; do
  command -v "$tool" >/dev/null || missing+=("${package[$tool]}")
done
python3 -c 'import venv, ensurepip' 2>/dev/null || missing+=(python3-venv)
[ -f /usr/include/openssl/evp.h ] || missing+=(libssl-dev)
command -v clang-format >/dev/null || missing+=(clang-format)
[ ${#missing[@]} -eq 0 ] && exit 0
echo "installing ${missing[*]}"
sudo_cmd=$([ "$(id -u)" -eq 0 ] && echo "" || echo sudo)
$sudo_cmd apt-get update -qq
$sudo_cmd apt-get install -y -qq "${missing[@]}"
