// First paint of PriceChart with 100k candles, against the 300 ms budget and against bare
// lightweight-charts drawing the same candles (no React, no wrapper) measured in the same run.
// Builds the bench page (bench/chart-first-paint/) with Vite into a temp folder, serves it on
// loopback, and drives Debian's Chromium with playwright-core: each run is a fresh browser
// context, the two modes alternate, and the median of RUNS is printed with the ratio. A third
// figure, bare lightweight-charts with 300 candles, is the library's own floor on the machine.
// Run: `npm run bench chart` in packages/web (CHROMIUM_PATH points at another Chromium).
import { createReadStream, existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { chromium, type Browser } from 'playwright-core';
import { build } from 'vite';

const CANDLES = 100_000;
const RUNS = 7;
const BUDGET_MS = 300;
/** About one screen of candles: what the library costs before the data's size counts. */
const FLOOR_CANDLES = 300;
const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const MODES = ['reference', 'price-chart'] as const;
type Mode = (typeof MODES)[number];

const CONTENT_TYPES: Readonly<Record<string, string>> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.map': 'application/json' };

async function buildPage(outDir: string): Promise<void> {
  // Vite picks the packages' production builds (React, lightweight-charts without its data
  // checks) from NODE_ENV, not from `mode`.
  process.env.NODE_ENV = 'production';
  await build({
    configFile: false,
    root: fileURLToPath(new URL('./chart-first-paint/', import.meta.url)),
    plugins: [react()],
    logLevel: 'warn',
    mode: 'production',
    build: { outDir, emptyOutDir: true, sourcemap: false },
  });
}

function serve(root: string): Promise<Server> {
  const server = createServer((request, response) => {
    const path = normalize(decodeURIComponent(new URL(request.url ?? '/', 'http://localhost').pathname));
    const file = join(root, path === '/' ? 'index.html' : path);
    if (!file.startsWith(root) || !existsSync(file) || !statSync(file).isFile()) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'content-type': CONTENT_TYPES[extname(file)] ?? 'application/octet-stream' });
    createReadStream(file).pipe(response);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

interface Measurement {
  readonly firstPaintMs: number;
  /** Until the library holds every candle (PriceChart loads a long series whole after its first paint). */
  readonly loadedMs: number;
  /** Frame intervals while panning and zooming with the wheel after the first paint. */
  readonly panZoomFrameMs: number[];
}

async function measure(browser: Browser, target: { origin: string; mode: Mode; count?: number }): Promise<Measurement> {
  const { origin, mode, count = CANDLES } = target;
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  try {
    const page = await context.newPage();
    await page.goto(`${origin}/?mode=${mode}&count=${count}`);
    // The page's global (bench/chart-first-paint/main.tsx declares its type).
    const handle = await page.waitForFunction(() => (globalThis as unknown as { __benchResult?: unknown }).__benchResult, undefined, { timeout: 60_000 });
    const result = await handle.jsonValue() as Measurement | { error: string };
    if ('error' in result) throw new Error(`${mode}: ${result.error}`);
    return result;
  } finally {
    await context.close();
  }
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] as number : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

function percentile(values: readonly number[], share: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))] as number;
}

async function main(): Promise<void> {
  const outDir = mkdtempSync(join(tmpdir(), 'vyuha-chart-bench-'));
  let server: Server | undefined;
  let browser: Browser | undefined;
  try {
    await buildPage(outDir);
    server = await serve(outDir);
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
    // One warm-up of each mode (disk cache, Chromium start-up), not counted.
    for (const mode of MODES) await measure(browser, { origin, mode });
    const times: Record<Mode, number[]> = { reference: [], 'price-chart': [] };
    const frames: Record<Mode, number[]> = { reference: [], 'price-chart': [] };
    const loaded: Record<Mode, number[]> = { reference: [], 'price-chart': [] };
    for (let run = 0; run < RUNS; run += 1) {
      const order = run % 2 === 0 ? MODES : [...MODES].reverse();
      for (const mode of order) {
        const measured = await measure(browser, { origin, mode });
        times[mode].push(measured.firstPaintMs);
        loaded[mode].push(measured.loadedMs);
        frames[mode].push(...measured.panZoomFrameMs);
      }
    }
    // The library's floor on this machine: its first paint with a screenful of candles.
    const floorTimes: number[] = [];
    for (let run = 0; run < RUNS; run += 1) floorTimes.push((await measure(browser, { origin, mode: 'reference', count: FLOOR_CANDLES })).firstPaintMs);
    const wrapped = median(times['price-chart']);
    const bare = median(times.reference);
    const line = (label: string, ms: number, note = ''): string => `  ${label.padEnd(34)}${ms.toFixed(1).padStart(8)} ms${note}`;
    process.stdout.write(`chart first paint, ${CANDLES.toLocaleString('en-IN')} candles, median of ${RUNS} runs (Chromium ${browser.version()}, headless, software canvas)\n`);
    process.stdout.write(`${line('PriceChart (React + wrapper)', wrapped, `   budget ${BUDGET_MS} ms: ${wrapped <= BUDGET_MS ? 'within' : 'OVER'}`)}\n`);
    process.stdout.write(`${line('bare lightweight-charts (reference)', bare)}\n`);
    process.stdout.write(`${line('PriceChart, every candle loaded', median(loaded['price-chart']), '   (latest 500 painted first, the rest right after)')}\n`);
    process.stdout.write(`  ratio PriceChart / reference      ${(wrapped / bare).toFixed(2)}x\n`);
    process.stdout.write(`${line(`bare lightweight-charts, ${FLOOR_CANDLES} candles`, median(floorTimes), '   (the library\'s floor here: no data path can paint sooner)')}\n`);
    const frameLine = (label: string, mode: Mode): string => `  ${label.padEnd(34)}median ${median(frames[mode]).toFixed(1)} ms, p95 ${percentile(frames[mode], 0.95).toFixed(1)} ms per frame`;
    process.stdout.write(`pan and zoom with the wheel after the first paint (${frames['price-chart'].length} frames per mode):\n`);
    process.stdout.write(`${frameLine('PriceChart', 'price-chart')}\n${frameLine('bare lightweight-charts', 'reference')}\n`);
    process.stdout.write(`  runs (ms): PriceChart ${times['price-chart'].map((ms) => ms.toFixed(0)).join(', ')}; reference ${times.reference.map((ms) => ms.toFixed(0)).join(', ')}\n`);
  } finally {
    await browser?.close();
    server?.close();
    rmSync(outDir, { recursive: true, force: true });
  }
}

await main();
