import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';

/** Debian's chromium package (.ci/install-chromium.sh installs it in CI); browser tests skip without it. */
export const CHROMIUM = '/usr/bin/chromium';

/** Whether this machine has {@link CHROMIUM}. */
export const hasChromium = existsSync(CHROMIUM);

/**
 * Launches {@link CHROMIUM} headless, without the sandbox (tests run as root
 * in containers), the GPU, QUIC, or the background traffic of a first run
 * (updates, sync), which a test never wants and which slows its start.
 */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}
