import type { Page } from 'playwright-core';
import { DEV_CODE, startAuthApp } from '../auth/auth-helpers';
import { launchChromium, type Browser } from '../support/chromium';
import type { TestApp } from '../support/test-app';

/** Generous: the machine may be busy. */
const UI_TIMEOUT = 30_000;

/** One app, one Chromium tab on its console, and what the tab complained about. */
export interface ConsoleSession {
  t: TestApp;
  page: Page;
  /** Script errors and CSP refusals seen in the page: a test ends by expecting none. */
  complaints: string[];
  /** Through the console's own forms, with the fixed development code (as every sign-in test reads it). */
  signIn(email: string): Promise<void>;
  /** A link of the navigation. */
  nav(label: string): Promise<void>;
  close(): Promise<void>;
}

export async function openConsole(env: Record<string, string> = {}): Promise<ConsoleSession> {
  const browser: Browser = await launchChromium();
  const t = await startAuthApp(env);
  const page = browser.context.pages()[0] ?? (await browser.context.newPage());
  page.setDefaultTimeout(UI_TIMEOUT);
  await page.setViewportSize({ width: 1280, height: 860 });
  const complaints: string[] = [];
  page.on('console', (message) => {
    // A refused call is logged by Chromium as a failed resource; only script and policy errors count.
    if (message.type() === 'error' && !/Failed to load resource/.test(message.text())) complaints.push(message.text());
  });
  page.on('pageerror', (error) => complaints.push(error.message));
  return {
    t,
    page,
    complaints,
    async signIn(email) {
      await page.goto(`${t.baseUrl}/console`);
      // The tab keeps its session across page loads: a signed-in operator signs out first.
      await page.locator('#send-code, #sign-out').first().waitFor();
      if (await page.locator('#sign-out').count()) await page.locator('#sign-out').click();
      await page.locator('#send-code input[name=email]').fill(email);
      await page.locator('#send-code button[type=submit]').click();
      await page.locator('#verify-code input[name=otp]').fill(DEV_CODE);
      await page.locator('#verify-code button[type=submit]').click();
    },
    nav: (label) => page.locator('header.top nav a', { hasText: label }).click(),
    async close() {
      await browser.close();
      await t.close();
    },
  };
}
