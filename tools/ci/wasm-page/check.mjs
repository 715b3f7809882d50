// SPDX-License-Identifier: Apache-2.0
// Serves DIR (the browser recipe of docs/bindings/wasm.md,
// bindings/wasm/examples/browser/, and node_modules/dxtext-wasm installed
// from the tarball) on 127.0.0.1, opens it in Debian's headless Chromium
// through playwright-core, types a sentence, clicks twice, and checks that
// its privatised form appears under the readable preset; prints the page's
// timings (opening the model, the first call, the second) and writes them
// as JSON to TIMINGS; saves a screenshot.
//   node check.mjs DIR SCREENSHOT.png [TIMINGS.json]
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';

const [dir, screenshot, timingsFile] = process.argv.slice(2);
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
  const loaded = await page.textContent('#status');
  if (loaded.startsWith('error')) throw new Error(loaded);
  await page.click('#input');
  await page.keyboard.type(SENTENCE, { delay: 15 });
  await page.click('#privatize');
  await page.waitForSelector('#output[data-done="1"], #status[data-error]', { timeout: 60000 });
  await page.click('#privatize');
  await page.waitForSelector('#output[data-done="2"], #status[data-error]', { timeout: 60000 });
  const status = await page.textContent('#status');
  if (status.startsWith('error')) throw new Error(status);
  const output = (await page.textContent('#output')).trim();
  const report = await page.textContent('#report');
  const timings = (await page.textContent('#timings')).trim();
  await page.screenshot({ path: screenshot });
  console.log(`typed:      ${SENTENCE}\nprivatised: ${output}\n${report}\n${timings}`);
  // readable keeps the sentence's marks (normalize) and replaces few words.
  if (!output || !output.endsWith('.') || output.split(/\s+/).length < 5) throw new Error(`unexpected output '${output}'`);
  if (!/^preset readable \(/.test(report) || !/private: true/.test(report)) throw new Error(`unexpected report '${report}'`);
  const m = /open (\d+) ms; call 1: (\d+) ms; call 2: (\d+) ms/.exec(timings);
  if (!m) throw new Error(`unexpected timings '${timings}'`);
  if (timingsFile) {
    fs.writeFileSync(timingsFile, JSON.stringify({ open_ms: +m[1], first_call_ms: +m[2], second_call_ms: +m[3] }) + '\n');
  }
  if (problems.length > 0) throw new Error(problems.join('\n'));
} catch (error) {
  console.error(error);
  failed = true;
} finally {
  await browser.close();
  server.close();
}
process.exit(failed ? 1 : 0);
