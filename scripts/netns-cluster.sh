#!/usr/bin/env bash
# A multi-host test cluster on one Linux machine, made of network namespaces (issue 29).
#
#   scripts/netns-cluster.sh up N [--link RATE] [--queue BYTES] [--delay D] [--loss P] [--dir DIR] [--owner PID]
#   scripts/netns-cluster.sh down [RUN]      # RUN's namespaces; no RUN: every stale run
#   scripts/netns-cluster.sh list
#
# `up` creates N+3 namespaces named PREFIX-m (master), PREFIX-c (client: the host that holds
# the inputs), PREFIX-w1..wN (one worker each) and PREFIX-sw (the switch: a bridge that
# joins them). PREFIX is "mrn" + the owner's pid + a random tag, so two runs never collide,
# and nothing is created in the caller's namespace: each veth pair is made with one end in
# the switch and the other (eth0) in its host. Hosts get 10.29.0.1 (master), 10.29.0.2
# (client), 10.29.0.(10+i) (worker i), /24; the subnets of different runs do not meet
# (each run has its own switch). Each host has a work directory DIR/<host> (DIR defaults
# to a fresh mktemp directory; `up` creates, `down` removes it when the script made it).
#
# --link RATE shapes every link both ways with a token bucket (tc tbf; RATE in tc's syntax,
# e.g. 160mbit = 20 MB/s), on the host's eth0 (egress)
# and on its switch port (the host's ingress). --delay and --loss need the netem qdisc: where
# the kernel lacks it they print that and are skipped (the cluster is still made).
# --queue BYTES (with --link; tc's size syntax, e.g. 16kb) gives each tbf a queue of that
# many bytes instead of 100 ms worth: a packet that finds it full is dropped. That is the
# stand-in for loss where netem is missing, and a named approximation only: tail drops of
# an overflowing queue (congestion loss, bunched while a link is busy), not netem's random
# loss at a rate P (docs/multi-host.md, "Packet loss").
#
# `up` prints shell assignments (eval them): MRN_RUN, MRN_DIR, MRN_MASTER_NS, MRN_MASTER_IP,
# MRN_CLIENT_NS, MRN_CLIENT_IP, MRN_WORKERS (namespaces, space-separated), MRN_WORKER_IPS,
# MRN_SHAPED (1 if --link was applied), MRN_NETEM (1 if delay/loss were applied), MRN_QUEUE
# (the --queue size, or empty).
# Everything `up` creates is removed (processes still running in its namespaces are killed): by `down RUN`, by the exit trap when `up` fails half
# way, and, after a crash of the caller, by any later `down` (a run whose owner pid is gone,
# or is a zombie, is stale and swept; `mr experiment run` keeps a guard that runs that `down`
# when it ends, however it ends). An `up` whose owner dies before it finishes removes its own
# run. --owner PID names the process whose life the run belongs to (default: the caller of
# this script).
set -euo pipefail

die() { echo "netns-cluster: $*" >&2; exit 2; }
note() { echo "netns-cluster: $*" >&2; }

ns_of_run() { ip netns list 2>/dev/null | awk '{print $1}' | grep -E "^$1-" || true; }
runs() { ip netns list 2>/dev/null | awk '{print $1}' | sed -nE 's/^(mrn[0-9]+x[0-9a-f]+)-.*/\1/p' | sort -u; }
owner_of() { sed -E 's/^mrn([0-9]+)x.*/\1/' <<<"$1"; }
# A run's owner is alive while its pid exists and is not a zombie: an owner killed a moment
# ago stays a zombie until its parent reaps it, and its run is stale all the same.
owner_alive() {
  local state
  state=$(sed -E 's/^[0-9]+ \(.*\) (.).*/\1/' "/proc/$1/stat" 2>/dev/null) || return 1
  [[ -n "$state" && "$state" != Z ]]
}

remove_run() {  # RUN
  local run=$1 ns pids
  # A namespace lives on while a process runs in it: end them first (a crashed test's
  # master and workers included).
  for ns in $(ns_of_run "$run"); do
    pids=$(ip netns pids "$ns" 2>/dev/null || true)
    [[ -n "$pids" ]] && kill -9 $pids 2>/dev/null || true
  done
  for ns in $(ns_of_run "$run"); do ip netns del "$ns" 2>/dev/null || true; done
  local meta="/run/mr-netns/$run"
  if [[ -f "$meta/made_dir" ]]; then rm -rf -- "$(cat "$meta/made_dir")"; fi
  rm -rf -- "$meta"
}

cmd_down() {
  if [[ $# -ge 1 ]]; then
    remove_run "$1"
    return
  fi
  local run
  for run in $(runs); do
    if ! owner_alive "$(owner_of "$run")"; then
      note "sweeping stale run $run"
      remove_run "$run"
    fi
  done
}

cmd_list() {
  local run
  for run in $(runs); do
    local alive=stale
    owner_alive "$(owner_of "$run")" && alive=live
    echo "$run $alive $(ns_of_run "$run" | wc -l) namespaces"
  done
}

netem_available() {  # probe in a throwaway namespace: the module may load on demand
  local probe="mrnprobe$$"
  ip netns add "$probe" || return 1
  local ok=1
  ip -n "$probe" link add d0 type veth peer name d1 2>/dev/null && ip -n "$probe" link set d0 up &&
    tc -n "$probe" qdisc add dev d0 root netem delay 1ms 2>/dev/null && ok=0
  ip netns del "$probe"
  return $ok
}

shape() {  # NS DEV : the link's rate, then delay/loss where netem exists
  local ns=$1 dev=$2
  if [[ -n "$link" ]]; then
    if [[ -n "$queue" ]]; then
      tc -n "$ns" qdisc add dev "$dev" root handle 1: tbf rate "$link" burst 64kb limit "$queue"
    else
      tc -n "$ns" qdisc add dev "$dev" root handle 1: tbf rate "$link" burst 64kb latency 100ms
    fi
  fi
  if [[ $netem -eq 1 ]]; then
    local parent="root"
    [[ -n "$link" ]] && parent="parent 1:1"
    # shellcheck disable=SC2086
    tc -n "$ns" qdisc add dev "$dev" $parent handle 10: netem ${delay:+delay $delay} ${loss:+loss $loss}
  fi
}

cmd_up() {
  [[ $# -ge 1 ]] || die "usage: up N [--link RATE] [--delay D] [--loss P] [--dir DIR] [--owner PID]"
  local n=$1; shift
  [[ "$n" =~ ^[0-9]+$ && $n -ge 1 && $n -le 200 ]] || die "N must be 1..200, got '$n'"
  link="" queue="" delay="" loss="" dir="" owner=$PPID
  while [[ $# -gt 0 ]]; do
    case $1 in
      --link) link=${2:?--link needs a rate}; shift 2 ;;
      --queue) queue=${2:?--queue needs a size}; shift 2 ;;
      --delay) delay=${2:?--delay needs a time}; shift 2 ;;
      --loss) loss=${2:?--loss needs a percentage}; shift 2 ;;
      --dir) dir=${2:?--dir needs a directory}; shift 2 ;;
      --owner) owner=${2:?--owner needs a pid}; shift 2 ;;
      *) die "unknown option '$1'" ;;
    esac
  done
  [[ -z "$queue" || -n "$link" ]] || die "--queue needs --link (it is the token bucket's queue)"
  [[ $EUID -eq 0 ]] || die "needs root (network namespaces)"
  [[ "$owner" =~ ^[0-9]+$ ]] || die "--owner must be a pid"
  cmd_down  # sweep runs whose owners died before anything new is made
  netem=0
  if [[ -n "$delay$loss" ]]; then
    if netem_available; then netem=1; else
      note "netem is not available in this kernel: --delay/--loss skipped (links are not delayed or lossy;" \
        "--queue BYTES drops what overflows a small queue instead, an approximation of loss)"
    fi
  fi
  local run="mrn${owner}x$(od -An -N3 -tx1 /dev/urandom | tr -d ' \n')"
  local meta="/run/mr-netns/$run"
  mkdir -p "$meta"
  trap 'note "up failed: removing $run"; remove_run "$run"' EXIT
  if [[ -z "$dir" ]]; then
    dir=$(mktemp -d "${TMPDIR:-/tmp}/$run.XXXXXX")
    echo "$dir" >"$meta/made_dir"
  fi
  mkdir -p "$dir"
  local sw="$run-sw"
  ip netns add "$sw"
  ip -n "$sw" link set lo up
  ip -n "$sw" link add br0 type bridge
  ip -n "$sw" link set br0 up
  local hosts=("m:1" "c:2") i workers="" ips=""
  for ((i = 1; i <= n; i++)); do hosts+=("w$i:$((10 + i))"); done
  local h name last ns
  for h in "${hosts[@]}"; do
    name=${h%%:*} last=${h##*:} ns="$run-$name"
    ip netns add "$ns"
    ip -n "$ns" link set lo up
    ip -n "$sw" link add "p-$name" type veth peer name eth0 netns "$ns"
    ip -n "$sw" link set "p-$name" master br0 up
    ip -n "$ns" addr add "10.29.0.$last/24" dev eth0
    ip -n "$ns" link set eth0 up
    shape "$ns" eth0
    shape "$sw" "p-$name"
    mkdir -p "$dir/$name"
    if [[ $name == w* ]]; then workers+="$ns " ips+="10.29.0.$last "; fi
  done
  # An owner that died while the hosts were made (a SIGTERM to `mr experiment run` during
  # `up`) will never remove them, and a sweep that ran meanwhile may have missed some.
  owner_alive "$owner" || die "the owner $owner ended while the hosts were made: removing $run"
  trap - EXIT
  cat <<EOF
MRN_RUN=$run
MRN_DIR=$dir
MRN_MASTER_NS=$run-m
MRN_MASTER_IP=10.29.0.1
MRN_CLIENT_NS=$run-c
MRN_CLIENT_IP=10.29.0.2
MRN_WORKERS="${workers% }"
MRN_WORKER_IPS="${ips% }"
MRN_SHAPED=$([[ -n "$link" ]] && echo 1 || echo 0)
MRN_NETEM=$netem
MRN_QUEUE=$queue
EOF
}

[[ $# -ge 1 ]] || die "usage: netns-cluster.sh up N [options] | down [RUN] | list"
command -v ip >/dev/null || die "needs iproute2 (ip)"
case $1 in
  up) shift; cmd_up "$@" ;;
  down) shift; [[ $EUID -eq 0 ]] || die "needs root"; cmd_down "$@" ;;
  list) cmd_list ;;
  *) die "unknown command '$1' (up, down, list)" ;;
esac
