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

/**
 * A blank page on the demo server's origin (the package at /pkg/ is
 * importable, nothing is loaded yet): for tests of loading itself.
 */
export async function openBlank(options = {}) {
  const server = await serve(0, '127.0.0.1', options);
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: FLAGS,
  });
  const page = await browser.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e));
  await page.route('**/__blank.html', (route) =>
    route.fulfill({
      contentType: 'text/html; charset=utf-8',
      body: '<!doctype html><meta charset="utf-8"><title>blank</title>',
    }),
  );
  await page.goto(`${server.url}__blank.html`);
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

/**
 * Starts the demo server and a browser page; returns helpers and a closer.
 * `options.fixtures`: the folder served at /fixtures/siyuan/ (default: the
 * shared fixtures; null serves none, so the page uses its built-in notebook).
 */
export async function openDemo(options = {}) {
  const server = await serve(
    0,
    '127.0.0.1',
    options.fixtures === undefined ? {} : { fixtures: options.fixtures },
  );
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: FLAGS,
  });
  const page = await browser.newPage({ viewport: { width: 1500, height: 1000 } });
  const errors = [];
  page.on('pageerror', (e) => errors.push(e));
  // Console errors too (a failed request, a 404): the page must have none.
  const consoleErrors = [];
  page.on('console', (m) => {
    if (m.type() === 'error') consoleErrors.push(`${m.text()} @ ${m.location()?.url ?? ''}`);
  });
  await page.goto(server.url);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 20000 });
  return {
    page,
    errors,
    consoleErrors,
    url: server.url,
    /** Switches the page's language and waits for the labels to follow. */
    async setLang(lang) {
      await page.getByTestId('lang').selectOption(lang);
      await page.waitForFunction(
        (l) => document.documentElement.lang === (l === 'zh' ? 'zh-CN' : 'en'),
        lang,
      );
    },
    /** Switches to the built-in sample notebook (a no-op when it is already shown). */
    async useBuiltin() {
      await page.getByTestId('source-memory').check();
      await page.waitForFunction(
        () =>
          document.body.dataset.sample === 'builtin' &&
          document.querySelector('[data-testid="doc-view"]').textContent.includes('intro01'),
      );
    },
    async close() {
      await browser.close();
      await server.close();
    },
  };
}
