#!/usr/bin/env bash
# Writes clrscope.jsa, the AppCDS archive the launcher and the DAC process start with: a JVM runs
# the training (`__train`: cli/.../commands/TrainCommand) and archives the classes it loaded.
#
#   appcds.sh JAVA TARGET_DIR [CORE OBJECT]
#
# With a core of a .NET process and an object in it, the DAC process's commands are trained on
# that core too (appcds-core.sh makes one). The archive is replaced only once the new one is whole.
# The flags are the launcher's (./clrscope): an archive is used only by a JVM with the same
# collector, and only with the class path (the jar's absolute path) it was made with.
set -euo pipefail
java=$1
cd "$2"
core=()
if [ $# -eq 4 ]; then
  core=(--core "$3" --object "$4")
fi
rm -f clrscope.jsa.new
"$java" -XX:ArchiveClassesAtExit=clrscope.jsa.new -XX:+UseSerialGC -XX:-UsePerfData \
  -XX:TieredStopAtLevel=1 -Dfile.encoding=UTF-8 -Xlog:cds=off -Xlog:cds+dynamic=off \
  -jar "$PWD/clrscope.jar" __train "${core[@]}"
mv -f clrscope.jsa.new clrscope.jsa
