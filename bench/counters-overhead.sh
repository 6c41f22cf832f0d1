#!/usr/bin/env bash
# clrscope's own cost while it watches counters (issue 4): CPU share of one core and memory over a
# long run at a 1 s refresh, against CountersApp publishing System.Runtime and its own Meter and
# EventSource. Usage: bench/counters-overhead.sh [MINUTES] (after `mvn -q -DskipTests package`).
set -euo pipefail
cd "$(dirname "$0")/.."
minutes=${1:-10}
app=src/test/target/apps/CountersApp/CountersApp.dll
[ -f "$app" ] && [ -f cli/target/clrscope.jar ] || { echo "build first: mvn -q -DskipTests package" >&2; exit 1; }
tck=$(getconf CLK_TCK)

dotnet "$app" --no-stdin --churn-kb-per-tick 64 >/dev/null 2>&1 &
app_pid=$!
trap 'kill $app_pid $cli_pid 2>/dev/null || true' EXIT
sleep 3

./clrscope counters collect -p "$app_pid" --refresh-interval 1 --duration "${minutes}m" \
  --counters 'System.Runtime,Clrscope.Demo,Clrscope-Demo' --format csv -o /dev/null 2>/dev/null &
cli_pid=$!
sleep 2
jvm=$cli_pid # the launcher execs java

cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
rss_kb() { awk '/VmRSS/ {print $2}' "/proc/$1/status"; }
# The live heap: what is left after a full collection (heap "used" before one counts garbage that
# the young generation has not collected yet, which says nothing about leaks).
live_heap_kb() {
  jcmd "$1" GC.run >/dev/null 2>&1
  jcmd "$1" GC.heap_info 2>/dev/null | awk '/used/ && !/Metaspace|class space/ {for (i=1;i<=NF;i++) if ($i=="used") {v=$(i+1); sub("K","",v); sum+=v}} END {print sum+0}'
}

echo "minute  cpu%_of_one_core(last minute)  rss_MB  live_heap_KB"
start_ticks=$(cpu_ticks $jvm); start=$(date +%s)
prev_ticks=$start_ticks; prev=$start
for ((m = 1; m <= minutes; m++)); do
  sleep 60
  kill -0 $jvm 2>/dev/null || break
  now=$(date +%s); ticks=$(cpu_ticks $jvm)
  cpu=$(awk -v t=$((ticks - prev_ticks)) -v s=$((now - prev)) -v h=$tck 'BEGIN {printf "%.2f", 100 * t / h / s}')
  printf '%6d  %29s  %6d  %12s\n' $m "$cpu" $(( $(rss_kb $jvm) / 1024 )) "$(live_heap_kb $jvm)"
  prev_ticks=$ticks; prev=$now
done
total=$(awk -v t=$((prev_ticks - start_ticks)) -v s=$((prev - start)) -v h=$tck 'BEGIN {printf "%.2f", 100 * t / h / s}')
echo "whole run: clrscope used ${total}% of one core"
