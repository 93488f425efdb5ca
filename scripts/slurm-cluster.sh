#!/usr/bin/env bash
# A one-node Slurm cluster in a folder of its own: munged (with its own key
# and socket), slurmctld and slurmd, this machine the node with all its cores.
# For the sweep's Slurm test (python/tests/test_sweep_slurm.py) and for trying
# `python -m rudp.sweep --cluster slurm` on one machine before a real cluster.
# It touches nothing outside DIR: no /etc/slurm, no system munged, no systemd.
#
# Usage: slurm-cluster.sh start DIR   start it; the last line printed is
#                                     `export SLURM_CONF=DIR/slurm.conf`,
#                                     which Slurm's commands (sbatch, squeue)
#                                     need to reach it
#        slurm-cluster.sh stop DIR    stop its daemons (nothing if none run)
#
# Needs Debian's slurmctld, slurmd, slurm-client and munge
# (scripts/install-system-deps.sh slurm). The daemons run as the calling
# user, so jobs run only for that user, as a test wants.
set -euo pipefail

usage() {
  echo "usage: slurm-cluster.sh start|stop DIR" >&2
  exit 2
}
[ $# -eq 2 ] || usage
action=$1
mkdir -p "$2"
dir=$(cd "$2" && pwd)

# stop_daemon NAME: ends the daemon whose pid file is DIR/NAME.pid.
stop_daemon() {
  local pidfile=$dir/$1.pid pid
  [ -s "$pidfile" ] || return 0
  pid=$(cat "$pidfile")
  if kill "$pid" 2>/dev/null; then
    for _ in $(seq 50); do
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.1
    done
    kill -9 "$pid" 2>/dev/null || true
  fi
  rm -f "$pidfile"
}

stop() {
  # Jobs first (slurmd's children), then the daemons in reverse order.
  if [ -f "$dir/slurm.conf" ] && [ -s "$dir/slurmctld.pid" ]; then
    SLURM_CONF=$dir/slurm.conf timeout 10 scancel --user="$(id -un)" 2>/dev/null || true
  fi
  stop_daemon slurmd
  stop_daemon slurmctld
  stop_daemon munged
}

# free_port: a TCP port nothing listens on now.
free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# wait_for WHAT SECONDS COMMAND...: until COMMAND succeeds; else the logs and exit 1.
wait_for() {
  local what=$1 seconds=$2
  shift 2
  for _ in $(seq $((seconds * 10))); do
    "$@" >/dev/null 2>&1 && return 0
    sleep 0.1
  done
  echo "error: the one-node Slurm cluster in $dir: $what did not come up within ${seconds} s" >&2
  tail -n 20 "$dir"/*.log >&2 || true
  stop
  exit 1
}

# node_ready: the node takes jobs (sinfo's state idle, mixed or allocated).
node_ready() {
  local state
  state=$(sinfo -h -N -o '%T') || return 1
  [[ $state =~ ^(idle|mixed|allocated)$ ]] # not "idle*": not yet responding
}

start() {
  local tool
  for tool in munged slurmctld slurmd sbatch scontrol; do
    command -v "$tool" >/dev/null || {
      echo "error: $tool is missing (scripts/install-system-deps.sh slurm: Debian's slurmctld, slurmd, slurm-client, munge)" >&2
      exit 1
    }
  done
  stop # a cluster left running in DIR by an earlier start
  local user host cpus memory
  user=$(id -un)
  host=$(hostname -s)
  # nproc honours OMP_NUM_THREADS, which Dask's LocalCluster sets to 1 in the
  # process that starts it: the node would have one CPU.
  cpus=$(env -u OMP_NUM_THREADS -u OMP_THREAD_LIMIT nproc)
  # Slurm's memory per node in MB, less a quarter for the system.
  memory=$(awk '/^MemTotal:/ { printf "%d", $2 / 1024 * 3 / 4 }' /proc/meminfo)
  mkdir -p "$dir/munge" "$dir/state" "$dir/spool" "$dir/jobs"
  chmod 700 "$dir/munge"
  if [ ! -s "$dir/munge/munge.key" ]; then
    head -c 1024 /dev/urandom >"$dir/munge/munge.key"
    chmod 400 "$dir/munge/munge.key"
  fi
  # --force: munged refuses to run as root otherwise (a container's user).
  munged --key-file="$dir/munge/munge.key" --socket="$dir/munge/munge.socket" \
    --pid-file="$dir/munged.pid" --log-file="$dir/munged.log" \
    --seed-file="$dir/munge/munge.seed" --force
  wait_for munged 10 test -S "$dir/munge/munge.socket"

  cat >"$dir/slurm.conf" <<EOF
# A one-node cluster written by scripts/slurm-cluster.sh.
ClusterName=rudp
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$(free_port)
SlurmdPort=$(free_port)
SlurmUser=$user
SlurmdUser=$user
AuthType=auth/munge
AuthInfo=socket=$dir/munge/munge.socket
CredType=cred/munge
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
# No cgroups, no accounting database: what a container can run.
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
PlugStackConfig=/dev/null
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
ReturnToService=2
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$memory State=UNKNOWN
PartitionName=batch Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
  export SLURM_CONF=$dir/slurm.conf
  slurmctld -f "$SLURM_CONF" -i
  wait_for slurmctld 30 scontrol ping
  slurmd -f "$SLURM_CONF" -N "$host"
  wait_for "the node $host" 30 node_ready
  # Idle is not yet schedulable everywhere: until the controller has the
  # node's registered resources, a job asking for them is refused.
  wait_for "a job on all of $host's CPUs" 30 sbatch --test-only -c "$cpus" --mem=1M --wrap=true
  echo "one-node Slurm cluster up in $dir: node $host, $cpus CPUs, ${memory} MB, partition batch"
  echo "export SLURM_CONF=$dir/slurm.conf"
}

case $action in
  start) start ;;
  stop) stop ;;
  *) usage ;;
esac
