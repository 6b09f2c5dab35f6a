// Run axe-core in Debian's chromium (driven by playwright-core) on rendered pages and take
// screenshots. Usage:
//   node axe.cjs TOOLS_DIR SCREENSHOT_DIR NAME=FILE [NAME=FILE ...]
// Prints one JSON object: {"pages": [{"name", "file", "violations": [{"id", "impact", "help",
// "nodes"}]}]}. Exit status 0 when it ran (the caller judges the violations), 1 on failure.
'use strict';

const path = require('node:path');
const fs = require('node:fs');
const { createRequire } = require('node:module');

const k_viewport = { width: 1280, height: 1400 };
const k_page_timeout_ms = 30000;
const k_chromium_args = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];

async function main() {
  const [toolsDir, screenshotDir, ...pages] = process.argv.slice(2);
  const toolsRequire = createRequire(path.join(toolsDir, 'package.json'));
  const { chromium } = toolsRequire('playwright-core');
  const axeSource = fs.readFileSync(toolsRequire.resolve('axe-core/axe.min.js'), 'utf8');
  fs.mkdirSync(screenshotDir, { recursive: true });

  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: k_chromium_args,
  });
  const results = [];
  try {
    // The pages forbid every script by their Content-Security-Policy; axe-core is the tester's
    // own script, injected past it.
    const context = await browser.newContext({ viewport: k_viewport, bypassCSP: true });
    // The pages are static files: nothing may leave the machine.
    await context.route(/^https?:/, (route) => route.abort());
    for (const entry of pages) {
      const [name, file] = entry.split('=');
      const page = await context.newPage();
      await page.goto('file://' + path.resolve(file), { timeout: k_page_timeout_ms });
      await page.addScriptTag({ content: axeSource });
      const outcome = await page.evaluate(async () => {
        // eslint-disable-next-line no-undef
        const run = await axe.run(document, { resultTypes: ['violations'] });
        return run.violations.map((v) => ({
          id: v.id, impact: v.impact, help: v.help,
          nodes: v.nodes.slice(0, 5).map((n) => n.target.join(' ')),
        }));
      });
      await page.screenshot({ path: path.join(screenshotDir, name + '.png') });
      await page.screenshot({ path: path.join(screenshotDir, name + '-full.png'), fullPage: true });
      // The end of long pages (pagination, footer) at full size.
      await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
      await page.screenshot({ path: path.join(screenshotDir, name + '-end.png') });
      results.push({ name, file, violations: outcome });
      await page.close();
    }
  } finally {
    await browser.close();
  }
  process.stdout.write(JSON.stringify({ pages: results }) + '\n');
}

main().catch((error) => {
  process.stderr.write(String(error && error.stack ? error.stack : error) + '\n');
  process.exit(1);
});
