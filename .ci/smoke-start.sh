#!/usr/bin/env bash
# Starts dist/main.js with no configuration but a scratch DATA_DIR, waits for
# /health, then stops it with SIGTERM and expects a clean exit.
set -euo pipefail
data=$(mktemp -d)
log="$data/service.log"
pid=
trap 'if [ -n "$pid" ]; then kill "$pid" 2>/dev/null || true; fi; rm -rf "$data"' EXIT
# A random port below Linux's ephemeral range (32768 and up), where outgoing
# connections take theirs; one that is taken all the same gets another try.
for attempt in 1 2 3; do
  port=$((20000 + RANDOM % 12000))
  DATA_DIR="$data" PORT="$port" HOST=127.0.0.1 node dist/main.js >"$log" 2>&1 &
  pid=$!
  up=
  for _ in $(seq 1 60); do
    if curl -fsS "http://127.0.0.1:$port/health" >/dev/null 2>&1; then up=1; break; fi
    if ! kill -0 "$pid" 2>/dev/null; then break; fi
    sleep 0.5
  done
  [ -n "$up" ] && break
  if ! kill -0 "$pid" 2>/dev/null && grep -q "already in use" "$log" && [ "$attempt" -lt 3 ]; then
    echo "port $port is taken; trying another"
    continue
  fi
  cat "$log"; echo "service exited early or did not answer /health"; exit 1
done
curl -fsS "http://127.0.0.1:$port/health"; echo
curl -fsS "http://127.0.0.1:$port/docs/json?lang=uk" >/dev/null
grep -q '/docs' "$log" || { cat "$log"; echo "start log does not say where the docs are"; exit 1; }
kill -TERM "$pid"
wait "$pid"
echo "service started, answered /health and /docs/json, and stopped cleanly"
