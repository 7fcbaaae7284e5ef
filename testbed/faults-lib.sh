# shellcheck shell=bash
# A namespaced site for testbed/faults and benchmarks/soak, on top of testbed/lib.sh (source
# that first, then this, then call tb_init).
#
#   core namespace (198.18.0.1): nameserver :8090, memory-host :8050, forecaster :8070,
#                                proxy :8080 (the site's cluster)
#   h1..hN (198.18.0.11-...):    a real sensor each, host rsK, in the cluster, one clique
#   h(N+1):                      the load: the site benchmark's simulated sensors (SiteLoad,
#                                compiled here from benchmarks/src against the launcher's class
#                                path, since the benchmarks module is built only with JMH)
#
# Every daemon is its own bin/nws process, started with fs_start NAME (again after a kill: same
# data directory and port). Names: nameserver, memory, forecaster, proxy, sensor1..sensorN.
# Extra options per daemon: FS_EXTRA[NAME]="--opt value ...", set before fs_start_site.

FS_CORE="$(tb_addr core)"
FS_NS="$FS_CORE:8090"
FS_DAEMONS=()
FS_SENSORS=0
FS_CLUSTER=""
FS_LOAD_HOST=""
FS_LOAD_PID=""
declare -A FS_PID=()
declare -A FS_EXTRA=()
declare -A FS_STARTS=()
declare -A FS_LOG=()
declare -A FS_DIR=()   # a daemon's data directory, when not $TB_TMP/NAME
declare -A FS_WRAP=()  # a command a daemon is started under (env ..., faketime ...)
declare -A FS_BASE=()   # see fs_sensor_book
declare -A FS_SLACK=()
declare -A FS_PERIOD=()  # a sensor's cpu and memory period in seconds, when not 2

# fs_prepare: the nws copy ($TB_NWS) and the load's classes ($TB_TMP/site-classes).
fs_prepare() {
  tb_nws_prepare
  local src="$TB_REPO/benchmarks/src/main/java/org/netweather/benchmarks/site"
  mkdir -p "$TB_TMP/site-classes"
  # shellcheck disable=SC2046
  javac -nowarn -d "$TB_TMP/site-classes" -cp "$TB_TMP/lib/*" \
    $(find "$src" -name '*.java' ! -name 'TlsCost*') >"$TB_TMP/javac.log" 2>&1 ||
    { cat "$TB_TMP/javac.log" >&2; tb_die "cannot compile the site load"; }
}

# fs_data NAME: the daemon's data directory.
fs_data() { echo "${FS_DIR[$1]:-$TB_TMP/$1}"; }

# fs_where NAME: the namespace (core or a host number) and address of a daemon.
fs_where() {
  case "$1" in
    sensor*) echo "${1#sensor} $(tb_addr "${1#sensor}")" ;;
    *) echo "core $FS_CORE" ;;
  esac
}

# fs_port NAME: the gRPC port a daemon is ready on (a sensor: its probe port, opened last).
fs_port() {
  case "$1" in
    nameserver) echo 8090 ;; memory) echo 8050 ;; forecaster) echo 8070 ;; proxy) echo 8080 ;;
    sensor*) echo 8061 ;;
  esac
}

# fs_start NAME...: starts (or restarts) daemons and waits until each accepts connections.
fs_start() {
  local name
  for name in "$@"; do fs_spawn "$name"; done
  for name in "$@"; do fs_wait "$name"; done
}

# fs_spawn NAME: starts (or restarts) one daemon in the background.
fs_spawn() {
  local name="$1" where addr n log
  read -r where addr <<<"$(fs_where "$name")"
  n=$(( ${FS_STARTS[$name]:-0} + 1 ))
  FS_STARTS[$name]=$n
  log="$TB_TMP/$name.log"
  [ "$n" = 1 ] || log="$TB_TMP/$name.log.$n"
  # shellcheck disable=SC2086
  case "$name" in
    nameserver)
      tb_spawn core "$log" ${FS_WRAP[$name]:-} "$TB_NWS" nameserver --port 8090 --host "$FS_CORE" \
        --metrics-port 9090 --data-dir "$(fs_data nameserver)" ${FS_EXTRA[$name]:-} ;;
    memory)
      tb_spawn core "$log" ${FS_WRAP[$name]:-} "$TB_NWS" memory --port 8050 --host "$FS_CORE" --nameserver "$FS_NS" \
        --metrics-port 9050 --data-dir "$(fs_data memory)" ${FS_EXTRA[$name]:-} ;;
    forecaster)
      tb_spawn core "$log" ${FS_WRAP[$name]:-} "$TB_NWS" forecaster --port 8070 --host "$FS_CORE" \
        --nameserver "$FS_NS" --metrics-port 9070 ${FS_EXTRA[$name]:-} ;;
    proxy)
      tb_spawn core "$log" ${FS_WRAP[$name]:-} "$TB_NWS" proxy --port 8080 --host "$FS_CORE" --nameserver "$FS_NS" \
        --cluster "$FS_CLUSTER" --metrics-port 9080 ${FS_EXTRA[$name]:-} ;;
    sensor*)
      tb_spawn "$where" "$log" ${FS_WRAP[$name]:-} "$TB_NWS" sensor --host "rs$where" --advertise "$addr" \
        --nameserver "$FS_NS" --port 8060 --probe-port 8061 --metrics-port 9060 \
        --data-dir "$(fs_data "$name")" --cluster "$FS_CLUSTER" --delivery-interval-ms 1000 \
        --cpu-period-seconds "${FS_PERIOD[$name]:-2}" --memory-period-seconds "${FS_PERIOD[$name]:-2}" \
        ${FS_EXTRA[$name]:-} ;;
    *) tb_die "no daemon $name" ;;
  esac
  FS_PID[$name]=$TB_LAST_PID
  FS_LOG[$name]=$log
}

# fs_wait NAME: waits until a started daemon accepts connections.
fs_wait() {
  local name="$1" where addr
  read -r where addr <<<"$(fs_where "$name")"
  if ! tb_wait_port "$where" "$addr" "$(fs_port "$name")" 180; then
    tail -20 "${FS_LOG[$name]}" >&2
    tb_die "$name did not start (log ${FS_LOG[$name]})"
  fi
}

# fs_kill NAME [SIGNAL]: signals a daemon (KILL by default) and, for KILL, waits for it.
fs_kill() {
  local pid="${FS_PID[$1]}"
  tb_signal "${2:-KILL}" "$pid"
  if [ "${2:-KILL}" = KILL ]; then wait "$pid" 2>/dev/null; fi
  return 0
}

# fs_start_site SENSORS LOAD_HOSTS CLUSTER: every daemon, a clique of the real sensors, the load.
fs_start_site() {
  local sensors="$1" load_hosts="$2" n members=()
  FS_SENSORS="$sensors"
  FS_CLUSTER="$3"
  FS_LOAD_HOST=$((sensors + 1))
  for n in $(seq 1 "$FS_LOAD_HOST"); do tb_add_host "$n"; done
  for n in $(seq 1 "$FS_LOAD_HOST"); do tb_wait_link "$n"; done
  FS_DAEMONS=(nameserver memory forecaster proxy)
  fs_start nameserver
  fs_start memory
  for n in $(seq 1 "$sensors"); do
    FS_DAEMONS+=("sensor$n")
    members+=("rs$n")
  done
  fs_start forecaster proxy "${FS_DAEMONS[@]:4}"
  tb_exec core "$TB_NWS" clique create "$FS_CLUSTER-real" --members "$(IFS=,; echo "${members[*]}")" \
    --period 60s --nameserver "$FS_NS" >/dev/null || tb_die "nws clique create failed"
  if [ "$load_hosts" -gt 0 ]; then
    tb_spawn "$FS_LOAD_HOST" "$TB_TMP/load.log" java ${FS_LOAD_JAVA_OPTS:--Xmx384m} \
      -cp "$TB_TMP/site-classes:$TB_TMP/lib/*" org.netweather.benchmarks.site.SiteLoad \
      --nameserver "$FS_NS" --stop-file "$TB_TMP/load.stop" --hosts "$load_hosts" \
      --spool-dir "$TB_TMP/load-spools" --report-every 5
    FS_LOAD_PID=$TB_LAST_PID
    local deadline=$((SECONDS + 180))
    until grep -q '^load: running' "$TB_TMP/load.log" 2>/dev/null; do
      kill -0 "$FS_LOAD_PID" 2>/dev/null || { cat "$TB_TMP/load.log" >&2; tb_die "the load exited"; }
      [ "$SECONDS" -lt "$deadline" ] || { tail "$TB_TMP/load.log" >&2; tb_die "the load did not start"; }
      sleep 1
    done
  fi
  tb_log "site up: ${FS_DAEMONS[*]}; load of $load_hosts simulated hosts in h$FS_LOAD_HOST"
}

# fs_check_alive: every daemon we did not stop must still run.
fs_check_alive() {
  local d
  for d in "${FS_DAEMONS[@]}"; do
    kill -0 "${FS_PID[$d]}" 2>/dev/null || tb_die "$d exited on its own: see $TB_TMP/$d.log*"
  done
  if [ -n "$FS_LOAD_PID" ]; then
    kill -0 "$FS_LOAD_PID" 2>/dev/null || { tail -20 "$TB_TMP/load.log" >&2; tb_die "the load exited"; }
  fi
}

# fs_load_line: the load's latest progress line.
fs_load_line() { grep '^load: ' "$TB_TMP/load.log" | tail -1; }

# fs_load_acked: measurements the load has had acknowledged so far.
fs_load_acked() { fs_load_line | sed -n 's/.* acknowledged \([0-9]*\).*/\1/p'; }

# fs_await_load_progress N SECONDS: waits until the load has N more acknowledgements.
fs_await_load_progress() {
  local want=$(( $(fs_load_acked) + $1 )) deadline=$((SECONDS + $2))
  while [ "$(fs_load_acked)" -lt "$want" ]; do
    [ "$SECONDS" -lt "$deadline" ] || return 1
    sleep 1
  done
}

# fs_stop_load: stops the load, lets it drain and verify; its exit status.
fs_stop_load() {
  touch "$TB_TMP/load.stop"
  wait "$FS_LOAD_PID"
  local rc=$?
  FS_LOAD_PID=""
  return "$rc"
}

# fs_metrics NAME: the daemon's /metrics text.
fs_metrics() {
  local where addr port
  read -r where addr <<<"$(fs_where "$1")"
  case "$1" in
    nameserver) port=9090 ;; memory) port=9050 ;; forecaster) port=9070 ;; proxy) port=9080 ;;
    sensor*) port=9060 ;;
  esac
  # A sensor's from inside its namespace on loopback: it answers even while its link is down.
  if [ "$where" != core ]; then addr=127.0.0.1; fi
  tb_exec "$where" curl -sf --max-time 10 "http://$addr:$port/metrics"
}

# fs_metric TEXT NAME: the sum of a metric's samples (all labels) in a /metrics text.
fs_metric() {
  awk -v n="$2" '$1 == n || index($1, n "{") == 1 { s += $NF } END { printf "%d\n", s }' <<<"$1"
}

# fs_sensor_counts N: "taken failed dropped pending refused" from sensor N's metrics.
fs_sensor_counts() {
  local m
  m="$(fs_metrics "sensor$1")" || return 1
  echo "$(fs_metric "$m" netweather_sensor_measurements_total)" \
    "$(fs_metric "$m" netweather_sensor_failed_measurements_total)" \
    "$(fs_metric "$m" netweather_sensor_spool_dropped_measurements_total)" \
    "$(fs_metric "$m" netweather_sensor_spool_pending_measurements)" \
    "$(fs_metric "$m" netweather_sensor_refused_measurements_total)"
}

# fs_stored N: points stored for real sensor N's series (host rsN, and its pairs), by count.
fs_stored() {
  tb_exec core "$TB_NWS" series --json --nameserver "$FS_NS" --timeout 30 2>/dev/null |
    python3 -c '
import json, sys
host = sys.argv[1]
d = json.load(sys.stdin)
rows = d.get("series", d) if isinstance(d, dict) else d
n = 0
for s in rows:
    name = s.get("series", s.get("name", ""))
    src = name.split(":", 1)[-1].split("->")[0]
    if src == host:
        n += int(s.get("count", 0))
print(n)' "rs$1"
}

# fs_duplicates N: timestamps stored more than once in real sensor N's host series.
fs_duplicates() {
  local r dup=0 d
  for r in cpu.availability memory.free; do
    d=$(tb_exec core "$TB_NWS" history "$r:rs$1" --json --nameserver "$FS_NS" --timeout 30 \
      2>/dev/null | python3 -c '
import json, sys
d = json.load(sys.stdin)
pts = d.get("points", d) if isinstance(d, dict) else d
ts = [int(p.get("timestampMs", p.get("timestamp_ms", 0))) for p in pts]
print(len(ts) - len(set(ts)) if ts else -1)')
    [ "$d" -ge 0 ] 2>/dev/null || { echo -1; return; }
    dup=$((dup + d))
  done
  echo "$dup"
}

# fs_sensor_book N: one line "taken T = stored S + pending P + dropped D (+ in flight X)";
# status 0 when it balances (taken counts what was spooled; failed probes are never spooled and
# are shown apart). The counts are read around the stored count: what a sensor delivered
# (taken - dropped - pending) can only grow, so the stored count must
# lie between the two readings, plus what was stored but not yet acknowledged at the second.
#
# A sensor restarted (stopped with TERM) carries on its predecessor's spool but not its counters:
# FS_BASE[N] is what the predecessor had taken at its last count before the stop, and up to
# FS_SLACK[N] more may have been taken between that count and the stop.
fs_sensor_book() {
  local n="$1" try a b s ta fa da pa ra tb fb db pb rb lo hi
  local base="${FS_BASE[$1]:-0}" slack="${FS_SLACK[$1]:-0}"
  for try in 1 2 3 4 5; do
    a=$(fs_sensor_counts "$n") || continue
    s=$(fs_stored "$n") || continue
    b=$(fs_sensor_counts "$n") || continue
    read -r ta fa da pa ra <<<"$a"
    read -r tb fb db pb rb <<<"$b"
    lo=$((base + ta - da - pa))
    hi=$((base + tb - db - pb + slack))
    if [ "$s" -ge "$lo" ] && [ "$s" -le "$hi" ]; then
      if [ "$base" -gt 0 ]; then
        local flight=$((hi - slack - s))
        [ "$flight" -ge 0 ] || flight=0
        echo "taken $base before its restart + $tb since = stored $s + pending $pb + dropped $db (+ $flight in flight, up to $slack taken between the last count and the stop); failed $fb, refused $rb"
      else
        echo "taken $tb = stored $s + pending $pb + dropped $db (+ $((hi - s)) in flight); failed $fb, refused $rb"
      fi
      return 0
    fi
    sleep 1
  done
  echo "taken $ta..$tb (+ $base before a restart), failed $fa..$fb, dropped $da..$db, pending $pa..$pb: delivered $lo..$hi but stored $s"
  return 1
}

# fs_sensor_books: fs_sensor_book and fs_duplicates for every real sensor; status 0 when all hold.
fs_sensor_books() {
  local n line ok=0 dup
  for n in $(seq 1 "$FS_SENSORS"); do
    if line=$(fs_sensor_book "$n"); then :; else ok=1; fi
    dup=$(fs_duplicates "$n")
    [ "$dup" = 0 ] || ok=1
    echo "sensor rs$n: $line; duplicated $dup"
  done
  return "$ok"
}
