#!/usr/bin/env bash
# Build mcp-java into OUT: the jars of deps.lock fetched from Maven Central (each checked against its
# sha256) into OUT/lib in Maven's repository layout, the target compiled into OUT/mcp-java.jar (its
# manifest names Main-Class and the lib jars, relative), and two class-data-sharing archives
# (AppCDS, JDK 13+ dynamic archives) made by a training run of each transport, so each start maps
# the classes it needs instead of loading and verifying them. Start it with run.sh (from OUT, with the
# relative paths the archives were written with):
#   sh targets/mcp-java/run.sh OUT --transport stdio
#   sh targets/mcp-java/run.sh OUT --transport http --port N
#
#   bash targets/mcp-java/build.sh OUT     # OUT: absolute path of an empty folder
#
# Needs a JDK 17 or later (java, javac, jar), curl and sha256sum; not Maven (lock.sh only).
# Env: WIRECOST_CACHE (optional): a folder kept between builds; the checked jars are kept in
# WIRECOST_CACHE/maven and fetched only when missing or not matching their sha256.
set -euo pipefail

fail() { echo "mcp-java build: $*" >&2; exit 1; }

[ $# -eq 1 ] || fail "usage: build.sh OUT (an absolute path of an empty folder)"
OUT=$1
case "$OUT" in /*) ;; *) fail "OUT must be an absolute path, got '$OUT'" ;; esac
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=https://repo1.maven.org/maven2
for tool in java javac jar curl sha256sum; do
  command -v "$tool" >/dev/null 2>&1 || fail "$tool not found on PATH: install a JDK 17 or later (Debian: openjdk-17-jdk-headless), curl and coreutils"
done
java_major=$(java -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java\.specification\.version = //p')
[ "${java_major:-0}" -ge 17 ] 2>/dev/null || fail "java is version ${java_major:-unknown}: the MCP Java SDK and Jetty 12 need Java 17 or later"

cache="${WIRECOST_CACHE:-$OUT/cache}/maven"
mkdir -p "$OUT/lib" "$cache" || fail "cannot create $OUT/lib or $cache"
classpath=()
while read -r path sha; do
  case "$path" in '' | '#'*) continue ;; esac
  case "$path" in *..* | /*) fail "deps.lock: bad path '$path': regenerate it with lock.sh" ;; esac
  jar_file="$cache/$path"
  if ! echo "$sha  $jar_file" | sha256sum -c --status 2>/dev/null; then
    mkdir -p "$(dirname "$jar_file")"
    curl -fsSL --retry 3 -o "$jar_file.part" "$REPO/$path" || fail "cannot fetch $REPO/$path: check the network to Maven Central"
    echo "$sha  $jar_file.part" | sha256sum -c --status || fail "$REPO/$path does not match its sha256 in deps.lock (got $(sha256sum "$jar_file.part" | cut -d' ' -f1))"
    mv "$jar_file.part" "$jar_file"
  fi
  mkdir -p "$OUT/lib/$(dirname "$path")"
  cp "$jar_file" "$OUT/lib/$path"
  classpath+=("lib/$path")
done <"$HERE/deps.lock"
[ ${#classpath[@]} -gt 0 ] || fail "deps.lock lists no jar: regenerate it with lock.sh"
echo "mcp-java build: ${#classpath[@]} jars from deps.lock, sha256 checked" >&2

javac --release 17 -nowarn -d "$OUT/classes" -cp "$(cd "$OUT" && IFS=:; echo "${classpath[*]/#/$OUT/}")" \
  $(find "$HERE/src" -name '*.java' | LC_ALL=C sort) >&2 || fail "javac failed (see above)"
# A manifest line holds at most 72 bytes: the Class-Path value goes on continuation lines.
{
  echo "Main-Class: dev.wirecost.mcpjava.Main"
  printf 'Class-Path: %s\n' "${classpath[*]}" | awk '{ print substr($0, 1, 72); for (i = 73; i <= length($0); i += 71) print " " substr($0, i, 71) }'
} >"$OUT/manifest.txt"
jar --create --file "$OUT/mcp-java.jar" --manifest "$OUT/manifest.txt" -C "$OUT/classes" . || fail "jar failed"
rm -rf "$OUT/classes" "$OUT/manifest.txt"

# Training runs, one per transport, each dumping the classes it loaded at exit; from OUT with relative
# paths (JDK 17 keeps the class path as given, and OUT is renamed after the build): run.sh does the same.
cd "$OUT"
java_run=(java -XX:TieredStopAtLevel=1 -XX:+UseSerialGC)
init='{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"elicitation":{}},"clientInfo":{"name":"wirecost-build","version":"1.0.0"}}}'
list='{"jsonrpc":"2.0","id":2,"method":"tools/list"}'
call='{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"add","arguments":{"a":1,"b":2}}}'
(printf '%s\n' "$init" '{"jsonrpc":"2.0","method":"notifications/initialized"}' "$list" "$call"; sleep 2) |
  "${java_run[@]}" -XX:ArchiveClassesAtExit=stdio.jsa -jar mcp-java.jar --transport stdio >/dev/null 2>"$OUT/train.log" \
  || fail "the stdio training run failed: $(tail -3 "$OUT/train.log")"
"${java_run[@]}" -XX:ArchiveClassesAtExit=http.jsa -jar mcp-java.jar --transport http --port 0 2>"$OUT/train.log" &
pid=$!
for _ in $(seq 300); do grep -q '^listening on' "$OUT/train.log" && break; sleep 0.1; done
port=$(sed -n 's/^listening on 127\.0\.0\.1:\([0-9]*\)$/\1/p' "$OUT/train.log")
[ -n "$port" ] || { kill "$pid" 2>/dev/null; fail "the HTTP training run did not listen: $(tail -3 "$OUT/train.log")"; }
post() { # one POST to /mcp on 127.0.0.1:$port over bash's /dev/tcp; prints the response
  exec 3<>"/dev/tcp/127.0.0.1/$port"
  printf 'POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:%s\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n%sContent-Length: %s\r\nConnection: close\r\n\r\n%s' \
    "$port" "$2" "${#1}" "$1" >&3
  timeout 5 cat <&3 || true
  exec 3<&-
}
session=$(post "$init" "" | tr -d '\r' | sed -n 's/^[Mm]cp-[Ss]ession-[Ii]d: //p')
[ -n "$session" ] || { kill "$pid" 2>/dev/null; fail "the HTTP training run answered initialize without a session id"; }
for body in '{"jsonrpc":"2.0","method":"notifications/initialized"}' "$list" "$call"; do
  post "$body" "Mcp-Session-Id: $session"$'\r\n' >/dev/null
done
kill -TERM "$pid"
wait "$pid" || fail "the HTTP training run exited $?: $(tail -3 "$OUT/train.log")"
rm -f "$OUT/train.log"
[ -s "$OUT/stdio.jsa" ] && [ -s "$OUT/http.jsa" ] || fail "no class-data-sharing archive was written"
echo "mcp-java build: ok ($OUT/mcp-java.jar, stdio.jsa $(du -k "$OUT/stdio.jsa" | cut -f1) KiB, http.jsa $(du -k "$OUT/http.jsa" | cut -f1) KiB)" >&2
