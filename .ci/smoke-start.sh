#!/usr/bin/env bash
# Starts dist/main.js with no configuration but a scratch DATA_DIR, waits for
# /health, then stops it with SIGTERM and expects a clean exit.
set -euo pipefail
data=$(mktemp -d)
port=$((20000 + RANDOM % 20000))
log="$data/service.log"
DATA_DIR="$data" PORT="$port" HOST=127.0.0.1 node dist/main.js >"$log" 2>&1 &
pid=$!
trap 'kill "$pid" 2>/dev/null || true; rm -rf "$data"' EXIT
for _ in $(seq 1 60); do
  if curl -fsS "http://127.0.0.1:$port/health" >/dev/null 2>&1; then break; fi
  if ! kill -0 "$pid" 2>/dev/null; then cat "$log"; echo "service exited early"; exit 1; fi
  sleep 0.5
done
curl -fsS "http://127.0.0.1:$port/health"; echo
curl -fsS "http://127.0.0.1:$port/docs/json?lang=uk" >/dev/null
grep -q '/docs' "$log" || { cat "$log"; echo "start log does not say where the docs are"; exit 1; }
kill -TERM "$pid"
wait "$pid"
echo "service started, answered /health and /docs/json, and stopped cleanly"
