import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';

/** Debian's package (`apt-get install chromium`); CI installs it when missing (.ci/run). */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/**
 * Browser tests never skip: without Chromium they fail, in CI and on a developer's machine alike,
 * saying how to get it, so that a green run always means the Swagger UI was driven.
 */
export function requireChromium(): void {
  if (existsSync(CHROMIUM_PATH)) return;
  const how = "install Debian's chromium (sudo apt-get install -y chromium) or set CHROMIUM_PATH";
  throw new Error(`${CHROMIUM_PATH} not found: the Swagger UI browser test needs Chromium${process.env.CI ? ' and CI has none' : ''}; ${how}`);
}

export interface Browser {
  context: BrowserContext;
  close(): Promise<void>;
}

/** Headless Chromium with a user-data directory of its own, removed on close. */
export async function launchChromium(): Promise<Browser> {
  requireChromium();
  const userDataDir = mkdtempSync(join(tmpdir(), 'rh-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, { executablePath: CHROMIUM_PATH, headless: true, args: ARGS, timeout: 60_000 });
  return {
    context,
    close: async () => {
      await context.close();
      rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}
