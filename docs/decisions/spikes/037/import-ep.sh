#!/usr/bin/env bash
# db:import of the bundled data into a fresh database of the spike's embedded-postgres cluster, N times.
# usage: import-ep.sh <port> <runs>
set -uo pipefail
port=$1; runs=${2:-3}
cd /work/main
for n in $(seq 1 "$runs"); do
  db=spike37_import_$n
  psql -q -h 127.0.0.1 -p "$port" -U pressguard -d postgres -c "drop database if exists $db with (force)" -c "create database $db"
  load=$(cut -d' ' -f1 /proc/loadavg)
  start=$(date +%s.%N)
  DATABASE_URL="postgres://pressguard@127.0.0.1:$port/$db" npm run -s db:import -- data/seed/wordpress-vulns/plugins.jsonl.gz data/seed/wordpress-vulns/vulns.jsonl.gz 2>/dev/null | grep -E "imported"
  end=$(date +%s.%N)
  psql -q -h 127.0.0.1 -p "$port" -U pressguard -d "$db" -c "checkpoint" 
  size=$(psql -tA -h 127.0.0.1 -p "$port" -U pressguard -d "$db" -c "select pg_database_size(current_database())/1048576")
  echo "run $n: load $load, whole command $(echo "$end - $start" | bc) s, database size $size MB"
  [ "$n" -lt "$runs" ] && psql -q -h 127.0.0.1 -p "$port" -U pressguard -d postgres -c "drop database $db with (force)"
done
