#!/usr/bin/env bash
# The focused monitors' own cost (issue 11): CPU as a share of one core and RSS over time of
# `clrscope exceptions` while TargetApp throws 1,000 and 10,000 exceptions a second, and of
# `clrscope http` while it makes 1,000 HttpClient requests a second (to its own HttpListener), each
# side by side with dotnet-trace recording the same providers to a file in the same run.
# The load is TargetApp's `throw-load RATE SECONDS` / `http-load RATE SECONDS` (paced each
# millisecond). dotnet-trace comes from NuGet into bench/target/dotnet-tools when missing.
# Usage: bench/monitors-overhead.sh [SECONDS] [SAMPLE_SECONDS] [all|exceptions|http]
#        (after `mvn -q -DskipTests package`; default 60 s per run, a sample every 10 s, all runs)
set -euo pipefail
# (Background jobs of a script ignore SIGINT, so the tools are stopped with SIGTERM.)
cd "$(dirname "$0")/.."
secs=${1:-60}
every=${2:-10}
which=${3:-all}
app=src/test/target/apps/TargetApp/TargetApp.dll
[ -f "$app" ] && [ -f cli/target/clrscope.jar ] || { echo "build first: mvn -q -DskipTests package" >&2; exit 1; }
tck=$(getconf CLK_TCK)
tools=bench/target/dotnet-tools
if [ ! -x "$tools/dotnet-trace" ]; then
  dotnet tool install --tool-path "$tools" dotnet-trace >/dev/null
fi
work=$(mktemp -d)
app_pid=
tool_pid=
cleanup() {
  for p in $tool_pid $app_pid; do kill "$p" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT

exceptions_providers='Microsoft-Windows-DotNETRuntime:0x8010:5'
http_providers='System.Net.Http:0:4,System.Net.NameResolution:0:4,System.Net.Sockets:0:4,System.Net.Security:0:4,System.Threading.Tasks.TplEventSource:0x80:4'

cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
rss_mb() { awk '/VmRSS/ {printf "%d", $2 / 1024}' "/proc/$1/status"; }

# run LABEL LOAD TOOL...: starts TargetApp, the tool on it (the word PID stands for its pid), then
# the load, and samples the tool every $every s for $secs s.
run() {
  local label=$1 load=$2
  shift 2
  mkfifo "$work/in"
  dotnet "$app" <"$work/in" >/dev/null 2>&1 &
  app_pid=$!
  exec 3>"$work/in"
  sleep 2
  local cmd=()
  for word in "$@"; do cmd+=("${word//PID/$app_pid}"); done
  "${cmd[@]}" >/dev/null 2>&1 &
  tool_pid=$!
  sleep 4 # the session is up
  echo "$load $((secs + 30))" >&3
  local start_ticks prev_ticks ticks samples="" rss_samples="" t
  start_ticks=$(cpu_ticks $tool_pid)
  prev_ticks=$start_ticks
  for ((t = every; t <= secs; t += every)); do
    sleep "$every"
    kill -0 $tool_pid 2>/dev/null || { echo "$label: the tool ended early" >&2; break; }
    ticks=$(cpu_ticks $tool_pid)
    samples+="$(awk -v t=$((ticks - prev_ticks)) -v s=$every -v h=$tck 'BEGIN {printf "%.1f", 100 * t / h / s}') "
    rss_samples+="$(rss_mb $tool_pid) "
    prev_ticks=$ticks
  done
  local total
  total=$(awk -v t=$((prev_ticks - start_ticks)) -v s=$secs -v h=$tck 'BEGIN {printf "%.1f", 100 * t / h / s}')
  printf '| %s | %s | %s | %s |\n' "$label" "$total" "$samples" "$rss_samples"
  kill -TERM $tool_pid 2>/dev/null || true
  wait $tool_pid 2>/dev/null || true
  kill $app_pid 2>/dev/null || true
  wait $app_pid 2>/dev/null || true
  exec 3>&-
  rm -f "$work/in" "$work"/*.nettrace
  tool_pid=
  app_pid=
}

echo "$secs s a run, a sample every $every s; $(nproc) cores; load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| run | CPU % of one core, whole run | CPU % each ${every} s | RSS MB each ${every} s |"
echo "|---|---|---|---|"
for rate in 1000 10000; do
  [ "$which" = http ] && break
  run "clrscope exceptions, $rate exceptions/s" "throw-load $rate" \
    ./clrscope exceptions -p PID --format jsonl
  run "dotnet-trace (same providers), $rate exceptions/s" "throw-load $rate" \
    "$tools/dotnet-trace" collect -p PID --providers "$exceptions_providers" -o "$work/t.nettrace"
done
[ "$which" = exceptions ] && exit 0
run "clrscope http, 1000 requests/s" "http-load 1000" ./clrscope http -p PID --format jsonl
run "dotnet-trace (same providers), 1000 requests/s" "http-load 1000" \
  "$tools/dotnet-trace" collect -p PID --providers "$http_providers" -o "$work/t.nettrace"
echo
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
