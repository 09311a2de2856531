#!/usr/bin/env bash
# Validates the deploy kit without a Docker daemon (CI cannot pull images or
# build them): compose.yaml through Debian's docker-compose (installed when
# missing), and the Dockerfile through scripts/check-dockerfile.mjs. Run it
# after `npm run build`: the Dockerfile check reads what the build produced.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v docker-compose >/dev/null 2>&1; then
  echo "docker-compose: missing, installing Debian's package"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  # Without its recommends: the daemon (docker.io) is neither needed nor usable here.
  apt-get install -y -qq --no-install-recommends docker-compose >/dev/null
fi
echo "docker-compose: $(docker-compose version --short)"

# compose.yaml reads .env (env_file) and requires POSTGRES_PASSWORD; check it
# with a throwaway .env made from .env.example, in a copy of the two files so
# that a developer's own .env is neither read nor touched.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp compose.yaml "$work/compose.yaml"
sed -e 's/^POSTGRES_PASSWORD=$/POSTGRES_PASSWORD=ci-throwaway/' .env.example > "$work/.env"
(cd "$work" && docker-compose -f compose.yaml config -q)
services=$(cd "$work" && docker-compose -f compose.yaml config --services | sort | tr '\n' ' ')
if [ "$services" != "api postgres redis worker " ]; then
  echo "compose.yaml: expected the services api, postgres, redis and worker, got: $services" >&2
  exit 1
fi
echo "compose.yaml: ok (services: $services)"

# Every variable of README.md's environment table has its line in .env.example.
node --input-type=module -e '
  import { readFileSync } from "node:fs";
  const readme = readFileSync("README.md", "utf8");
  const table = readme.slice(readme.indexOf("| variable | default | meaning |")).split("\n\n")[0];
  const names = new Set();
  for (const row of table.split("\n").slice(2))
    for (const [, name] of (row.split("|")[1] ?? "").matchAll(/`([A-Z][A-Z0-9_]*[A-Z0-9])`/g)) names.add(name);
  const example = new Set([...readFileSync(".env.example", "utf8").matchAll(/^#? ?([A-Z][A-Z0-9_]*)=/gm)].map((m) => m[1]));
  const missing = [...names].filter((name) => !example.has(name));
  if (names.size === 0) { console.error(".env.example: no environment table found in README.md"); process.exit(1); }
  if (missing.length > 0) { console.error(`.env.example: missing ${missing.join(", ")} (README.md lists them)`); process.exit(1); }
  console.log(`.env.example: ok (${names.size} variables of README.md)`);
'

node scripts/check-dockerfile.mjs
