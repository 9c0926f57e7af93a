import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';
import request from 'supertest';
import { startStack, type Stack } from './stack';

const CHROMIUM = '/usr/bin/chromium';
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
/** A safety net only: the page renders in a few seconds even on a busy machine. */
const RENDER_DEADLINE_MS = 90_000;

let stack: Stack;
let origin: string;
let profile: string;
let browser: BrowserContext;
beforeAll(async () => {
  stack = await startStack({ converter: false });
  origin = `http://127.0.0.1:${stack.gateway.port}`;
  profile = fs.mkdtempSync(path.join(os.tmpdir(), 'markwright-chromium-'));
  // A persistent context is how playwright takes a fresh --user-data-dir.
  browser = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ARGS,
    viewport: { width: 1400, height: 1000 },
  });
}, 120_000);
afterAll(async () => {
  await browser?.close();
  fs.rmSync(profile, { recursive: true, force: true });
  await stack?.stop();
});

describe('GET /docs', () => {
  it('When /docs is fetched, then it is HTML with a CSP that names no other host', async () => {
    const res = await request(origin).get('/docs');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    const csp = res.headers['content-security-policy'] as string;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/https?:|\*/);
    expect(res.text).not.toMatch(/<script[^>]*>[^<\s]/);
  });

  it('When a browser opens /docs, then the endpoints and the webhook are on the page, from this origin only', async () => {
    const page = await browser.newPage();
    const foreign: string[] = [];
    const refused: string[] = [];
    page.on('request', (req) => {
      const url = new URL(req.url());
      if (url.protocol.startsWith('http') && url.origin !== origin) foreign.push(req.url());
    });
    page.on('console', (msg) => {
      if (/Content Security Policy|Refused to/i.test(msg.text())) refused.push(msg.text());
    });
    const response = await page.goto(`${origin}/docs`);
    expect(response?.status()).toBe(200);

    const sidebar = ['Convert a file to Markdown', 'List conversions', 'Get a conversion', 'Conversion finished'];
    for (const title of sidebar) {
      await page.getByText(title, { exact: true }).first().waitFor({ timeout: RENDER_DEADLINE_MS });
    }
    const top = path.join(os.tmpdir(), `markwright-docs-${process.pid}.png`);
    await page.screenshot({ path: top });

    // Scalar renders sections as they scroll into view: open each from the sidebar, then find its method and path.
    const shows = (pattern: RegExp) =>
      page.waitForFunction(`new RegExp(${JSON.stringify(pattern.source)}).test(document.body.innerText)`, undefined, {
        timeout: RENDER_DEADLINE_MS,
      });
    const endpoints: Array<[string, RegExp]> = [
      ['Convert a file to Markdown', /POST\s*\/convert\b/],
      ['List conversions', /GET\s*\/conversions\b/],
      ['Get a conversion', /GET\s*\/conversions\/\{id\}/],
    ];
    for (const [title, route] of endpoints) {
      await page.getByText(title, { exact: true }).first().click();
      await shows(route);
    }
    await page.getByText('Conversion finished', { exact: true }).first().click();
    await shows(/Webhooks/);
    await shows(/X-Webhook-Signature/);
    await shows(/X-Webhook-Conversion-Id/);
    const webhook = path.join(os.tmpdir(), `markwright-docs-webhook-${process.pid}.png`);
    await page.screenshot({ path: webhook });
    for (const shot of [top, webhook]) expect(fs.statSync(shot).size).toBeGreaterThan(10_000);
    console.log(`docs page screenshots: ${top} ${webhook}`);

    expect(foreign).toEqual([]);
    expect(refused).toEqual([]);
    await page.close();
  }, 150_000);
});
