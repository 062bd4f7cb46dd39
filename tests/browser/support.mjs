// Headless Chromium (Debian's package) driven by playwright-core, against
// the demo served on localhost. Screenshots go to test-output/browser/.
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { serve } from '../../scripts/serve.mjs';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const outputDir = join(repo, 'test-output', 'browser');
mkdirSync(outputDir, { recursive: true });

const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Starts the demo server and a browser page; returns helpers and a closer. */
export async function openDemo() {
  const server = await serve(0);
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: FLAGS });
  const page = await browser.newPage({ viewport: { width: 1500, height: 1000 } });
  const errors = [];
  page.on('pageerror', (e) => errors.push(e));
  await page.goto(server.url);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 20000 });
  return {
    page,
    errors,
    url: server.url,
    async close() {
      await browser.close();
      await server.close();
    },
  };
}
