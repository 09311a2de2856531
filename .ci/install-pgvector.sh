#!/usr/bin/env bash
# Builds and installs pgvector for the local PostgreSQL server when the
# extension is missing. Debian bookworm ships no pgvector package, so the
# trixie source package is built against this server's pg_config.
set -euo pipefail

PGHOST="${PGHOST:-127.0.0.1}"
if psql -h "$PGHOST" -U postgres -d postgres -qtAc "CREATE EXTENSION IF NOT EXISTS vector; SELECT 1" >/dev/null 2>&1; then
  echo "pgvector: available"
  exit 0
fi

pg_major=$(psql -h "$PGHOST" -U postgres -d postgres -qtAc "SHOW server_version_num" | cut -c1-2)
echo "pgvector: missing, building from the Debian trixie source package for PostgreSQL ${pg_major}"

src_list=/etc/apt/sources.list.d/trixie-src.list
if [ ! -f "$src_list" ]; then
  echo "deb-src http://deb.debian.org/debian trixie main" > "$src_list"
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq dpkg-dev "postgresql-server-dev-${pg_major}" >/dev/null

work=$(mktemp -d)
(
  cd "$work"
  apt-get source -qq pgvector >/dev/null 2>&1
  cd pgvector-*/
  pg_config="/usr/lib/postgresql/${pg_major}/bin/pg_config"
  make -s PG_CONFIG="$pg_config" >/dev/null
  make -s PG_CONFIG="$pg_config" install >/dev/null
)
rm -rf "$work"
psql -h "$PGHOST" -U postgres -d postgres -qtAc "CREATE EXTENSION IF NOT EXISTS vector" >/dev/null
echo "pgvector: installed"
