#!/usr/bin/env bash
# Trains the AppCDS archive again, on a core: TargetApp holding 20,000 Widgets, dumped by clrscope
# itself, then analyzed, reported and triaged by the training (appcds.sh). Run by src/test's build
# once the apps are built. Without it the DAC process spins about 120 classes (lambdas, method
# handles) at every start: a third of a small core's report (docs/benchmarks.md).
#
#   appcds-core.sh JAVA REPO_ROOT APPS_DIR
#
# Anything that goes wrong leaves the archive the cli module made, with a warning:
# AppCdsArchiveTest then fails, so CI says it.
set -uo pipefail
java=$1
root=$2
apps=$3
work=$(mktemp -d "$root/cli/target/appcds-core.XXXXXX") || exit 0
pid=
cleanup() {
  if [ -n "$pid" ]; then
    kill "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
  fi
  rm -rf "$work"
}
trap cleanup EXIT
warn() {
  echo "[WARNING] appcds-core.sh: $*; the AppCDS archive is not trained on a core" >&2
  exit 0
}
mkfifo "$work/in" || warn "could not make a fifo in $work"
dotnet "$apps/TargetApp/TargetApp.dll" <"$work/in" >"$work/out" 2>&1 &
pid=$!
exec 3>"$work/in"
echo "hold Widget 20000" >&3
for _ in $(seq 600); do
  grep -q '"event":"hold"' "$work/out" 2>/dev/null && break
  kill -0 "$pid" 2>/dev/null || warn "TargetApp ended: $(tail -c 500 "$work/out")"
  sleep 0.1
done
grep -q '"event":"hold"' "$work/out" || warn "TargetApp did not hold its Widgets in 60 s"
"$root/clrscope" dump -p "$pid" --type heap -o "$work/train.core" >/dev/null 2>"$work/err" ||
  warn "clrscope dump failed: $(cat "$work/err")"
exec 3>&-
kill "$pid" 2>/dev/null
wait "$pid" 2>/dev/null
pid=
"$root/clrscope" analyze "$work/train.core" -c "dumpheap -type TargetApp.Widget -short" \
  >"$work/widgets" || warn "clrscope analyze failed"
object=$(sed -n 2p "$work/widgets")
[[ "$object" =~ ^0x[0-9a-f]+$ ]] || warn "no Widget found in the core: '$object'"
bash "$root/cli/src/build/appcds.sh" "$java" "$root/cli/target" "$work/train.core" "$object" ||
  warn "the training on the core failed"
