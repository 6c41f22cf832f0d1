#!/usr/bin/env bash
# `clrscope trace stats FILE` side by side with TraceEvent 3.2.8 reading the same file, whole
# processes, in turns (the order swapped every turn, so that a change in the machine's load falls on
# both alike): TraceEvent's least work (`count`: EventPipeEventSource, every event counted, no parser
# subscribed) and the work of stats written on it (`stats`: per provider, id and version, the
# runtime's parsers subscribed). bench/traceevent is built into bench/target/traceevent on first use.
# Per command: best and median wall time, every run, median user+system CPU and peak RSS; the load
# average before and after. Output goes to /dev/null.
#
# Usage: bench/stats-vs-traceevent.sh TRACE [RUNS]   (after `mvn -q -DskipTests package`; RUNS 5)
# Environment: BEFORE=path/to/an/other/clrscope adds that launcher as a third command.
set -euo pipefail
cd "$(dirname "$0")/.."
trace=${1:?usage: bench/stats-vs-traceevent.sh TRACE [RUNS]}
runs=${2:-5}
te=bench/target/traceevent
[ -f cli/target/clrscope.jar ] || {
  echo "build first: mvn -q -DskipTests package" >&2
  exit 1
}
if [ ! -f "$te/out/TraceEventCli.dll" ] || [ bench/traceevent/Program.cs -nt "$te/out/TraceEventCli.dll" ]; then
  mkdir -p "$te/src"
  cp bench/traceevent/TraceEventCli.csproj bench/traceevent/Program.cs "$te/src/"
  dotnet build -c Release "$te/src/TraceEventCli.csproj" -o "$te/out" >/dev/null
fi
. bench/lib.sh
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
export DOTNET_gcServer=0 DOTNET_CLI_TELEMETRY_OPTOUT=1

names=("clrscope trace stats" "TraceEvent count" "TraceEvent stats")
commands=("./clrscope trace stats $trace --format json" "dotnet $te/out/TraceEventCli.dll count $trace"
  "dotnet $te/out/TraceEventCli.dll stats $trace")
if [ -n "${BEFORE:-}" ]; then
  names+=("clrscope before")
  commands+=("$BEFORE trace stats $trace --format json")
fi

echo "trace: $trace ($(stat -c %s "$trace") bytes); $(nproc) cores; $runs turns"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
declare -A secs=() cpu=() kb=()
for ((i = 0; i < runs; i++)); do
  order=("${!names[@]}")
  if ((i % 2)); then
    order=()
    for ((k = ${#names[@]} - 1; k >= 0; k--)); do order+=("$k"); done
  fi
  for t in "${order[@]}"; do
    # shellcheck disable=SC2086 # the command is words
    /usr/bin/time -o "$scratch/t" -f "%e %U %S %M" ${commands[$t]} >/dev/null 2>&1
    read -r s u sy m <"$scratch/t"
    secs[$t]+="$s "
    cpu[$t]+="$(awk -v u="$u" -v s="$sy" 'BEGIN { print u + s }') "
    kb[$t]+="$m "
  done
done
list() { echo "$1" | tr ' ' '\n' | grep -v '^$'; }
printf '%-22s %7s %7s %9s %9s  %s\n' command best median "CPU med" "peak RSS" "runs (s)"
for t in "${!names[@]}"; do
  printf '%-22s %7s %7s %9s %6.0f MB  %s\n' "${names[$t]}" "$(list "${secs[$t]}" | best)" \
    "$(list "${secs[$t]}" | median)" "$(list "${cpu[$t]}" | median)" \
    "$(list "${kb[$t]}" | median | awk '{print $1 / 1024}')" "${secs[$t]}"
done
for t in 1 2; do
  awk -v a="$(list "${secs[0]}" | best)" -v b="$(list "${secs[$t]}" | best)" \
    -v c="$(list "${secs[0]}" | median)" -v d="$(list "${secs[$t]}" | median)" -v n="${names[$t]}" \
    'BEGIN { printf "%s / clrscope: best %.2fx, median %.2fx faster\n", n, b / a, d / c }'
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
