#!/usr/bin/env bash
# Usage: timed.sh LABEL COMMAND... — runs COMMAND and prints how long it took.
label=$1
shift
start=$(date +%s)
"$@"
status=$?
elapsed=$(($(date +%s) - start))
printf '\n%s %s in %dm%02ds\n' "$label" "$([ $status -eq 0 ] && echo finished || echo FAILED)" \
  $((elapsed / 60)) $((elapsed % 60))
exit $status
