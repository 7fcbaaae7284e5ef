# shellcheck shell=bash
# NetWeather testbed library: N hosts as Linux network namespaces on this machine.
#
# Layout (all names carry a per-run prefix, nwstb<PID>, so concurrent runs never collide):
#
#   <prefix>-core   a namespace holding the bridge "br0" (address 198.18.0.1/24) and the
#                   bridge-side ends of every host's veth pair; core daemons listen here.
#   <prefix>-hN     one namespace per host: interface "eth0" with 198.18.0.(10+N)/24, lo up.
#
# The root namespace's network is never touched: the veth pairs are created directly
# inside the namespaces. Only 198.18.0.0/24 (RFC 2544 benchmarking range) is used.
#
# Shaping: tb_shape HOST RATE_MBIT [both|egress] puts a tbf qdisc on the host's eth0
# (the host's egress) and, with "both" (the default), on the bridge-side veth as well
# (the host's ingress), so a transfer between two hosts in either direction is limited by
# min(rate of sender, rate of receiver). netem is not available here, so there is no
# added delay; tbf only queues.
#
# Usage:
#   source testbed/lib.sh
#   tb_init                 # creates the core namespace, installs the EXIT/INT/TERM trap
#   tb_add_host 1           # -> namespace $(tb_ns 1), address $(tb_addr 1)
#   tb_shape 1 50           # 50 Mbit/s both ways
#   tb_exec 1 ping -c1 $(tb_addr 2)
#   tb_spawn 1 LOG cmd...   # background process in host 1, tracked and killed on cleanup
#   tb_spawn core LOG cmd...
#
# Cleanup (run by the trap however the script ends): kills every process group started with
# tb_spawn, then any process still inside one of our namespaces, then deletes the namespaces.

TB_PREFIX="${TB_PREFIX:-nwstb$$}"
TB_SUBNET_PREFIX="198.18.0"
TB_CORE_ADDR="${TB_SUBNET_PREFIX}.1"
TB_PIDS=()
TB_NAMESPACES=()
TB_TMP=""
TB_CLEANED=0

# Logs go to the stderr the script started with (TB_ERR_FD, saved by tb_init): a trap can run
# inside a function call whose output is redirected, and the cleanup must still be seen.
TB_ERR_FD=2
tb_log() { printf '[testbed %s] %s\n' "$(date +%H:%M:%S)" "$*" >&"$TB_ERR_FD"; }
tb_die() { tb_log "FATAL: $*"; exit 2; }

# Namespace name of a host (a number) or "core".
tb_ns() {
  if [ "$1" = core ]; then echo "${TB_PREFIX}-core"; else echo "${TB_PREFIX}-h$1"; fi
}

# Address of a host (a number 1..200) or "core".
tb_addr() {
  if [ "$1" = core ]; then echo "$TB_CORE_ADDR"; else echo "${TB_SUBNET_PREFIX}.$((10 + $1))"; fi
}

tb_require() {
  [ "$(id -u)" = 0 ] || tb_die "must run as root (ip netns, tc)"
  local c
  for c in ip tc "$@"; do
    command -v "$c" >/dev/null 2>&1 || tb_die "missing command: $c"
  done
}

tb_init() {
  tb_require "$@"
  exec {TB_ERR_FD}>&2
  TB_TMP="$(mktemp -d "/tmp/${TB_PREFIX}.XXXXXX")"
  trap 'tb_cleanup' EXIT
  trap 'tb_log "interrupted"; exit 130' INT
  trap 'tb_log "terminated"; exit 143' TERM
  local core
  core="$(tb_ns core)"
  ip netns add "$core" || tb_die "ip netns add $core failed"
  TB_NAMESPACES+=("$core")
  ip -n "$core" link set lo up
  ip -n "$core" link add br0 type bridge
  # Forward at once (no STP listening delay).
  ip -n "$core" link set br0 type bridge forward_delay 0 stp_state 0 2>/dev/null || true
  ip -n "$core" addr add "${TB_CORE_ADDR}/24" dev br0
  ip -n "$core" link set br0 up
  tb_log "core namespace $core (bridge br0, $TB_CORE_ADDR); scratch $TB_TMP"
}

# tb_add_host N: namespace <prefix>-hN with eth0 = 198.18.0.(10+N)/24 on the core bridge.
tb_add_host() {
  local n="$1" ns core veth
  ns="$(tb_ns "$n")"
  core="$(tb_ns core)"
  veth="vh$n"
  ip netns add "$ns" || tb_die "ip netns add $ns failed"
  TB_NAMESPACES+=("$ns")
  ip -n "$ns" link set lo up
  # Create the pair inside the host namespace, then move the bridge end to the core:
  # nothing ever appears in the root namespace.
  ip -n "$ns" link add eth0 type veth peer name "$veth"
  ip -n "$ns" link set "$veth" netns "$core"
  ip -n "$ns" addr add "$(tb_addr "$n")/24" dev eth0
  ip -n "$ns" link set eth0 up
  ip -n "$core" link set "$veth" master br0
  ip -n "$core" link set "$veth" up
}

# tb_tbf NS DEV RATE_MBIT: token bucket at RATE_MBIT on DEV's egress.
# burst: at least rate/HZ (so the bucket never empties between timer ticks; HZ=250 here)
# and at least 4 full frames; latency 80 ms bounds the queue.
tb_tbf() {
  local ns="$1" dev="$2" mbit="$3" hz burst
  hz="${TB_HZ:-250}"
  burst=$(( mbit * 1000000 / 8 / hz ))
  [ "$burst" -ge 6056 ] || burst=6056
  ip netns exec "$ns" tc qdisc replace dev "$dev" root tbf \
    rate "${mbit}mbit" burst "$burst" latency 80ms
}

# tb_shape N RATE_MBIT [both|egress]
tb_shape() {
  local n="$1" mbit="$2" mode="${3:-both}"
  tb_tbf "$(tb_ns "$n")" eth0 "$mbit"
  if [ "$mode" = both ]; then
    tb_tbf "$(tb_ns core)" "vh$n" "$mbit"
  fi
}

# Waits until host N reaches the core address (the bridge forwards).
tb_wait_link() {
  local n="$1" i
  for i in $(seq 1 50); do
    if ip netns exec "$(tb_ns "$n")" ping -c1 -W1 -q "$TB_CORE_ADDR" >/dev/null 2>&1; then
      return 0
    fi
    sleep 0.1
  done
  tb_die "host $n cannot reach $TB_CORE_ADDR"
}

# tb_exec N|core CMD...: runs CMD in the namespace, in the foreground.
tb_exec() {
  local where="$1"
  shift
  ip netns exec "$(tb_ns "$where")" "$@"
}

# tb_spawn N|core LOGFILE CMD...: starts CMD in the namespace in the background, in its own
# process group (setsid), output to LOGFILE; its pid goes to TB_LAST_PID and is killed on
# cleanup.
tb_spawn() {
  local where="$1" log="$2"
  shift 2
  setsid ip netns exec "$(tb_ns "$where")" "$@" >"$log" 2>&1 </dev/null &
  TB_LAST_PID=$!
  TB_PIDS+=("$TB_LAST_PID")
}

# tb_spawn_root LOGFILE CMD...: starts CMD in the root namespace in the background, tracked
# like tb_spawn but in this script's session: with sched_autogroup_enabled=1 every session is
# its own scheduling group, so a CPU load (stress-ng) must share the session of the processes
# whose CPU share it is meant to reduce. CMD must stop its own children on SIGTERM.
tb_spawn_root() {
  local log="$1"
  shift
  "$@" >"$log" 2>&1 </dev/null &
  TB_LAST_PID=$!
  TB_PIDS+=("$TB_LAST_PID")
}

# tb_stop PID: terminates one spawned process group (TERM, then KILL after 5 s).
tb_stop() {
  local pid="$1" i
  tb_signal TERM "$pid" || return 0
  for i in $(seq 1 50); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  tb_signal KILL "$pid" || true
  wait "$pid" 2>/dev/null || true
}

# tb_signal SIG PID: signals PID's process group when PID leads one (tb_spawn), else PID.
tb_signal() {
  if [ "$(ps -o pgid= -p "$2" 2>/dev/null | tr -d ' ')" = "$2" ]; then
    kill "-$1" -- "-$2" 2>/dev/null
  else
    kill "-$1" "$2" 2>/dev/null
  fi
}

# tb_wait_port N|core ADDR PORT [SECONDS]: waits until a TCP port accepts connections.
tb_wait_port() {
  local where="$1" addr="$2" port="$3" secs="${4:-120}" i
  for i in $(seq 1 $((secs * 5))); do
    if tb_exec "$where" bash -c "exec 3<>/dev/tcp/$addr/$port" 2>/dev/null; then
      return 0
    fi
    sleep 0.2
  done
  return 1
}

tb_cleanup() {
  local rc=$? pid ns pids alive
  [ "$TB_CLEANED" = 1 ] && return "$rc"
  TB_CLEANED=1
  trap - EXIT INT TERM
  for pid in "${TB_PIDS[@]}"; do
    tb_signal TERM "$pid" || true
  done
  # Up to 5 s for shutdown hooks, then KILL what is left.
  for _ in $(seq 1 50); do
    alive=0
    for pid in "${TB_PIDS[@]}"; do
      kill -0 "$pid" 2>/dev/null && alive=1
    done
    [ "$alive" = 0 ] && break
    sleep 0.1
  done
  for pid in "${TB_PIDS[@]}"; do
    tb_signal KILL "$pid" || true
  done
  # Anything still living inside our namespaces was started by this run.
  for ns in "${TB_NAMESPACES[@]}"; do
    pids="$(ip netns pids "$ns" 2>/dev/null || true)"
    # shellcheck disable=SC2086
    [ -z "$pids" ] || kill -KILL $pids 2>/dev/null || true
  done
  for ns in "${TB_NAMESPACES[@]}"; do
    ip netns del "$ns" 2>/dev/null || true
  done
  wait 2>/dev/null || true
  if [ -n "$TB_TMP" ] && [ -d "$TB_TMP" ]; then
    if [ "${TB_KEEP_LOGS:-0}" = 1 ] || [ "$rc" != 0 ]; then
      tb_log "logs kept in $TB_TMP"
    else
      rm -rf "$TB_TMP"
    fi
  fi
  tb_log "cleaned up ${#TB_NAMESPACES[@]} namespaces"
  return "$rc"
}

# --- NetWeather -------------------------------------------------------------------------

TB_REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

# tb_nws_prepare: builds NetWeather if needed (through bin/nws), then copies the launcher's
# class path into the scratch directory, so a rebuild during the run cannot change the jars
# under running daemons, and writes $TB_NWS, an executable that runs that copy (usable
# through ip netns exec). NWS_JAVA_OPTS defaults to -Xmx256m.
tb_nws_prepare() {
  if [ -n "${NWS_TB_NWS:-}" ]; then
    TB_NWS="$NWS_TB_NWS"  # another nws executable (e.g. a stub while developing the testbed)
    return 0
  fi
  "$TB_REPO/bin/nws" --version >/dev/null || tb_die "bin/nws does not run"
  mkdir -p "$TB_TMP/lib"
  cp "$TB_REPO"/launcher/target/lib/*.jar "$TB_TMP/lib/" || tb_die "cannot copy the class path"
  TB_NWS="$TB_TMP/nws"
  cat >"$TB_NWS" <<EOS
#!/usr/bin/env bash
exec "${JAVA_HOME:+$JAVA_HOME/bin/}java" \${NWS_JAVA_OPTS:--Xmx256m} -cp "$TB_TMP/lib/*" \\
  org.netweather.launcher.Nws "\$@"
EOS
  chmod +x "$TB_NWS"
}
