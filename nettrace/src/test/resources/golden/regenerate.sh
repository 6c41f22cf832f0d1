#!/usr/bin/env bash
# Regenerates the golden traces: the .NET runtime itself writes them (no clrscope code involved)
# while GoldenTraceApp (src/test/dotnet/GoldenTraceApp) emits known EventSource events, throws and
# catches known exceptions and induces known GCs. GoldenTraceTest asserts those facts.
#
# Usage: nettrace/src/test/resources/golden/regenerate.sh   (from anywhere; needs the .NET 10 SDK)
# Writes, next to this script:
#   golden.nettrace      the trace (EventPipe file session, rundown off)
#   golden.runtime.txt   the runtime and SDK versions that wrote it, and the EventPipe config
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../../../.." && pwd)
app="$root/src/test/target/apps/GoldenTraceApp/GoldenTraceApp.dll"

(cd "$root/src/test/dotnet" && dotnet build GoldenTraceApp/GoldenTraceApp.csproj -c Release -nologo -v q)

# Provider:Keywords:Level. Clrscope-Golden: every keyword, level 5 (Verbose).
# Microsoft-Windows-DotNETRuntime: GC (0x1) + Exception (0x8000) at level 4 (Informational).
config='Clrscope-Golden:0xFFFFFFFFFFFFFFFF:5,Microsoft-Windows-DotNETRuntime:0x8001:4'
out="$here/golden.nettrace"
rm -f "$out"
DOTNET_EnableEventPipe=1 \
  DOTNET_EventPipeOutputPath="$out" \
  DOTNET_EventPipeConfig="$config" \
  DOTNET_EventPipeRundown=0 \
  DOTNET_TieredCompilation=1 \
  dotnet "$app"

{
  echo "runtime: $(dotnet "$app" | sed -n 's/.*runtime=//p')"
  echo "sdk: $(dotnet --version)"
  echo "os: $(uname -sm)"
  echo "config: $config"
  echo "rundown: 0"
  echo "size: $(wc -c <"$out") bytes"
} >"$here/golden.runtime.txt"
cat "$here/golden.runtime.txt"

# runtime-all.nettrace: every keyword of the runtime provider at Verbose (but the two sampled
# allocation keywords, 0x200000 and 0x2000000, which only add thousands of one kind of event) and of
# the private provider at Informational, rundown on: the event table's coverage test
# (RuntimeManifestCoverageTest) reads it, with the names TraceEvent gives its events
# (runtime-all.traceevent.json, written by bench/traceevent's `stats`, TraceEvent 3.2).
all="$here/runtime-all.nettrace"
rm -f "$all"
DOTNET_EnableEventPipe=1 \
  DOTNET_EventPipeOutputPath="$all" \
  DOTNET_EventPipeConfig='Microsoft-Windows-DotNETRuntime:0xFFFFFFFFFDDFFFFF:5,Microsoft-Windows-DotNETRuntimePrivate:0xFFFFFFFFFFFFFFFF:4' \
  DOTNET_EventPipeRundown=1 \
  dotnet "$app" >/dev/null
te="$root/bench/target/traceevent"
mkdir -p "$te/src"
cp "$root/bench/traceevent/TraceEventCli.csproj" "$root/bench/traceevent/Program.cs" "$te/src/"
dotnet build -c Release "$te/src/TraceEventCli.csproj" -o "$te/out" >/dev/null
dotnet "$te/out/TraceEventCli.dll" stats "$all" >"$here/runtime-all.traceevent.json"
