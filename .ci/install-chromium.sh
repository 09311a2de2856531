#!/usr/bin/env bash
# Installs Debian's chromium package when it is missing: the queue dashboard's
# browser test (src/modules/admin/queue-board.browser.test.ts) drives it with
# playwright-core at /usr/bin/chromium, and skips with a message without it.
set -euo pipefail

if [ -x /usr/bin/chromium ]; then
  echo "chromium: available ($(/usr/bin/chromium --version 2>/dev/null || echo 'version unknown'))"
  exit 0
fi
echo "chromium: missing, installing Debian's chromium package"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq chromium >/dev/null
echo "chromium: installed ($(/usr/bin/chromium --version 2>/dev/null || echo 'version unknown'))"
