#!/bin/sh
# Start the built mcp-java target: `sh targets/mcp-java/run.sh BUILD --transport stdio|http [--port N]`
# (BUILD: the folder build.sh wrote). It runs from BUILD with relative paths because JDK 17 checks a
# class-data-sharing archive's class path as it was written at build time, and the build folder is
# renamed after the build; `exec` leaves java itself as the process (its stdio, its signals).
# JVM options: the transport's AppCDS archive (-Xshare:on: a stale archive fails the start loudly,
# never silently slower), C1 only and the serial collector (less CPU for a short-lived server).
set -eu
build=$1
shift
case " $* " in *stdio*) archive=stdio.jsa ;; *) archive=http.jsa ;; esac
cd "$build"
exec java -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -XX:SharedArchiveFile="$archive" -Xshare:on -jar mcp-java.jar "$@"
