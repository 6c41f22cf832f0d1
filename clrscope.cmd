@echo off
rem Starts clrscope from this checkout on Windows, with the AppCDS archive when it is there.
setlocal
set "here=%~dp0"
set "jar=%here%cli\target\clrscope.jar"
set "jsa=%here%cli\target\clrscope.jsa"
if not exist "%jar%" (
  echo clrscope: %jar% is missing: build it first with 'mvn -q -DskipTests package' 1>&2
  exit /b 1
)
set "java=java"
if defined JAVA_HOME set "java=%JAVA_HOME%\bin\java"
rem Commands that read whole trace files get the optimising compiler; the rest start sooner without.
set "jit=-XX:TieredStopAtLevel=1"
if /i "%~1 %~2"=="trace convert" set "jit=-XX:+TieredCompilation"
if /i "%~1 %~2"=="trace events" set "jit=-XX:+TieredCompilation"
set "cds="
if exist "%jsa%" set "cds=-XX:SharedArchiveFile=%jsa% -Xlog:cds=off -Xlog:cds+dynamic=off"
"%java%" %cds% -XX:+UseSerialGC -XX:-UsePerfData %jit% -Dfile.encoding=UTF-8 -jar "%jar%" %*
exit /b %ERRORLEVEL%
