#!/usr/bin/env bash
# What naming the code compiled before attaching costs (issue 26): `clrscope exceptions -p PID`
# runs a short rundown session before it reads its own (MethodAddressMap.namesFirst). Measured
# against a target with many methods compiled (dotnet-counters monitoring TargetApp: System.CommandLine,
# the client library, the console renderer), in interleaved runs of two builds: BASE (a jar without
# the rundown, such as main's) and the current one. Per run: the time from the start of clrscope to
# its "Watching the exceptions" line (the session is read from then on: the first row can come),
# and the target's CPU time (utime + stime) during the run.
# Usage: bench/names-first.sh BASE_JAR [RUNS]   (after `mvn -q -DskipTests package`)
set -euo pipefail
cd "$(dirname "$0")/.."
base=${1:?usage: bench/names-first.sh BASE_JAR [RUNS]}
runs=${2:-10}
new=cli/target/clrscope.jar
app=src/test/target/apps/TargetApp/TargetApp.dll
tools=bench/target/dotnet-tools
if [ ! -x "$tools/dotnet-counters" ]; then
  dotnet tool install --tool-path "$tools" dotnet-counters --version 10.0.750501 >/dev/null
fi
work=$(mktemp -d)
pids=
cleanup() {
  for p in $pids; do kill "$p" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT
dotnet "$app" --no-stdin >/dev/null 2>&1 &
app_pid=$!
pids="$app_pid"
sleep 2
# The target: a tool with thousands of methods compiled, refreshing its board every second.
"$tools/dotnet-counters" monitor -p "$app_pid" --refresh-interval 1 >/dev/null 2>&1 </dev/null &
target=$!
pids="$pids $target"
sleep 8
# How many methods its rundown names (the work the extra session asks of the runtime).
java -jar "$new" trace collect -p "$target" --providers Microsoft-Windows-DotNETRuntime:0:1 \
  --duration 100ms -o "$work/rundown.nettrace" >/dev/null 2>&1
java -jar "$new" trace stats "$work/rundown.nettrace" 2>/dev/null | grep -E "DCStopVerbose|^Events" || true
tck=$(getconf CLK_TCK)
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
echo "build  run  to_watching_ms  target_cpu_ms"
for i in $(seq 1 "$runs"); do
  for build in base new; do
    jar=$base
    [ "$build" = new ] && jar=$new
    rm -f "$work/err"
    before=$(cpu_ticks "$target")
    start=$(date +%s%N)
    java -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -jar "$jar" exceptions -p "$target" \
      --duration 2s >/dev/null 2>"$work/err" &
    cli=$!
    while ! grep -q "Watching the exceptions" "$work/err" 2>/dev/null; do
      kill -0 "$cli" 2>/dev/null || break
      sleep 0.005
    done
    seen=$(date +%s%N)
    wait "$cli" || true
    after=$(cpu_ticks "$target")
    printf "%-5s  %3d  %14d  %13d\n" "$build" "$i" $(((seen - start) / 1000000)) \
      $(((after - before) * 1000 / tck))
  done
done
