#!/usr/bin/env bash
# serve's own cost (issue 12): N TargetApp processes watched at a 5 s refresh (serve's default);
# serve's CPU share of one core and its RSS each minute, and the latency of GET /metrics (100
# requests each minute, p50/p99/max from curl's time_total).
# Usage: bench/serve.sh [PROCESSES] [MINUTES]   (after `mvn -q -DskipTests package`)
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-20}
minutes=${2:-10}
app=src/test/target/apps/TargetApp/TargetApp.dll
[ -f "$app" ] && [ -f cli/target/clrscope.jar ] || { echo "build first: mvn -q -DskipTests package" >&2; exit 1; }
tck=$(getconf CLK_TCK)
pids=()
trap 'kill "${pids[@]}" ${serve_pid:-} 2>/dev/null || true' EXIT
for ((i = 0; i < n; i++)); do
  dotnet "$app" --no-stdin >/dev/null 2>&1 &
  pids+=($!)
done
sleep 5
port=19464
./clrscope serve --listen 127.0.0.1:$port --duration "$((minutes + 1))m" 2>/dev/null &
serve_pid=$!
until curl -s "127.0.0.1:$port/processes" | grep -q '"pid"'; do sleep 0.5; done
sleep 10
watched=$(curl -s "127.0.0.1:$port/processes" | grep -o '"pid"' | wc -l)
series=$(curl -s "127.0.0.1:$port/metrics" | grep -vc '^#')

cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
rss_mb() { awk '/VmRSS/ {print int($2 / 1024)}' "/proc/$1/status"; }
latencies() {
  for ((k = 0; k < 100; k++)); do
    curl -s -o /dev/null -w '%{time_total}\n' "127.0.0.1:$port/metrics"
  done | sort -n | awk '{a[NR]=$1*1000} END {printf "%.1f %.1f %.1f", a[int(NR*0.5)], a[int(NR*0.99)], a[NR]}'
}
echo "serve watching $watched TargetApp processes ($series series in /metrics); $(nproc) cores"
echo "minute  cpu%_of_one_core  rss_MB  /metrics_ms_p50  p99  max"
start_ticks=$(cpu_ticks $serve_pid); start=$(date +%s)
prev_ticks=$start_ticks; prev=$start
for ((m = 1; m <= minutes; m++)); do
  sleep 60
  now=$(date +%s); ticks=$(cpu_ticks $serve_pid)
  cpu=$(awk -v t=$((ticks - prev_ticks)) -v s=$((now - prev)) -v h=$tck 'BEGIN {printf "%.2f", 100 * t / h / s}')
  read -r p50 p99 max <<<"$(latencies)"
  printf '%6d  %16s  %6d  %15s  %4s  %4s\n' $m "$cpu" "$(rss_mb $serve_pid)" "$p50" "$p99" "$max"
  prev_ticks=$(cpu_ticks $serve_pid); prev=$(date +%s)
done
