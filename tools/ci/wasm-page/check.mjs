// SPDX-License-Identifier: Apache-2.0
// Serves DIR (the page, and node_modules/dxtext-wasm installed from the
// tarball) on 127.0.0.1, opens it in Debian's headless Chromium through
// playwright-core, types a sentence, clicks, and checks that its
// privatised form appears; saves a screenshot.
//   node check.mjs DIR SCREENSHOT.png
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';

const [dir, screenshot] = process.argv.slice(2);
const SENTENCE = 'The president spoke to the nation about the war.';
const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.mjs': 'text/javascript', '.wasm': 'application/wasm', '.json': 'application/json' };

const server = http.createServer((request, response) => {
  const file = path.join(dir, decodeURIComponent(new URL(request.url, 'http://x').pathname));
  if (!file.startsWith(path.resolve(dir)) || !fs.existsSync(file) || fs.statSync(file).isDirectory()) {
    const index = path.join(file, 'index.html');
    if (fs.existsSync(index)) return send(index, response);
    response.writeHead(404).end('not found');
    return undefined;
  }
  return send(file, response);
});
function send(file, response) {
  response.writeHead(200, { 'Content-Type': TYPES[path.extname(file)] || 'application/octet-stream' });
  fs.createReadStream(file).pipe(response);
}
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const url = `http://127.0.0.1:${server.address().port}/`;

const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
let failed = false;
try {
  const page = await browser.newPage({ viewport: { width: 900, height: 520 } });
  const problems = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => { if (message.type() === 'error') problems.push(`console: ${message.text()}`); });
  await page.goto(url);
  await page.waitForSelector('#privatize:not([disabled]), #status[data-error]', { timeout: 60000 });
  const status = await page.textContent('#status');
  if (status.startsWith('error')) throw new Error(status);
  await page.click('#input');
  await page.keyboard.type(SENTENCE, { delay: 15 });
  await page.click('#privatize');
  await page.waitForSelector('#output[data-done], #status[data-error]', { timeout: 60000 });
  const output = (await page.textContent('#output')).trim();
  const report = await page.textContent('#report');
  await page.screenshot({ path: screenshot });
  console.log(`typed:      ${SENTENCE}\nprivatised: ${output}\n${report}`);
  const words = (s) => s.split(/\s+/).length;
  if (!output || words(output) !== words(SENTENCE) || !output.endsWith('.')) throw new Error(`unexpected output '${output}'`);
  if (!/9 words privatised/.test(report) || !/private: true/.test(report)) throw new Error(`unexpected report '${report}'`);
  if (problems.length > 0) throw new Error(problems.join('\n'));
} catch (error) {
  console.error(error);
  failed = true;
} finally {
  await browser.close();
  server.close();
}
process.exit(failed ? 1 : 0);
