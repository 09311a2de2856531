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

# The Debian mirror this machine already uses: the first URIs: line of a
# deb822 .sources stanza, or the first `deb` line of sources.list, that is not
# a comment and not the security suite. No host is named here, so the script
# follows whatever mirror the machine is set up with.
debian_mirror() {
  local f apt_dir="${APT_DIR:-/etc/apt}"
  for f in "$apt_dir"/sources.list.d/*.sources; do
    [ -f "$f" ] || continue
    # Stanzas are separated by blank lines; keep the URIs of those whose
    # Suites and URIs are not the security archive.
    awk '
      function flush() { if (uri != "" && suites !~ /security/ && uri !~ /security/) { print uri; found = 1; exit } uri = ""; suites = "" }
      /^[[:space:]]*#/ { next }
      /^[[:space:]]*$/ { flush(); next }
      tolower($1) == "uris:" { uri = $2 }
      tolower($1) == "suites:" { suites = $0 }
      tolower($1) == "enabled:" && tolower($2) == "no" { uri = ""; suites = "security" }
      END { if (!found) flush() }
    ' "$f"
  done
  for f in "$apt_dir"/sources.list "$apt_dir"/sources.list.d/*.list; do
    [ -f "$f" ] || continue
    # deb [options] URI suite components...
    awk '
      $1 != "deb" { next }
      { i = 2; if ($i ~ /^\[/) { while (i <= NF && $i !~ /\]$/) i++; i++ } }
      $(i + 1) ~ /security/ || $i ~ /security/ { next }
      { print $i }
    ' "$f"
  done
}
mirror=$(debian_mirror | head -1)
mirror=${mirror%/}
if [ -z "$mirror" ]; then
  echo "pgvector: no Debian mirror found in /etc/apt/sources.list or /etc/apt/sources.list.d/*.sources" >&2
  exit 1
fi
src_list=/etc/apt/sources.list.d/trixie-src.list
wanted="deb-src $mirror trixie main"
if [ "$(cat "$src_list" 2>/dev/null)" != "$wanted" ]; then
  echo "$wanted" > "$src_list"
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
