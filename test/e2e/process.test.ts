import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { freePort } from '../helpers/built-service.js';

// The real process, started by `npm start` itself as users start it (package.json's start script:
// node with its memory settings, scripts/start.mjs, the built, bundled tree, rebuilt first when
// the sources are newer): start on a fresh embedded data dir, refuse a second process on it, shut
// down on SIGTERM sent to npm.
const dataDir = mkdtempSync(path.join(tmpdir(), 'ship-e2e-'));
const children: ChildProcess[] = [];
afterAll(() => {
  // npm's whole group: a SIGKILL to npm alone would leave its node running.
  for (const c of children) if (c.exitCode === null) process.kill(-c.pid!, 'SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

function start(port: number, env: Record<string, string> = {}) {
  let output = '';
  const child = spawn('npm', ['start', '--silent'], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      NODE_ENV: 'development',
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
      SEED_DEMO: '1',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  children.push(child);
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, exited, output: () => output };
}

async function healthy(port: number, timeoutMs: number, child?: ChildProcess): Promise<boolean> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until && child?.exitCode == null) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/health`)).ok) return true;
    } catch {
      /* not yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}

/** The node process npm started (the start script execs it in place of its shell). */
function serviceProcess(npm: ChildProcess): { argv: string[]; env: string[] } {
  const [pid] = readFileSync(`/proc/${npm.pid}/task/${npm.pid}/children`, 'utf8').trim().split(' ');
  const read = (file: string) => readFileSync(`/proc/${pid}/${file}`, 'utf8').split('\0').filter(Boolean);
  return { argv: read('cmdline'), env: read('environ') };
}

describe.runIf(inject('testDb').engine === 'pglite')('the service process on the embedded database', () => {
  it('starts, seeds once, refuses a second process on the data dir, and stops cleanly on SIGTERM', { timeout: 240_000 }, async () => {
    const port = await freePort();
    const first = start(port);
    expect(await healthy(port, 120_000, first.child), first.output()).toBe(true);
    // The seed is printed once on the first start, after listening (an account, a workspace and a
    // key: a few scrypt hashes, seconds on a loaded machine). Waited for, not guessed.
    for (let i = 0; i < 1_200 && !first.output().includes('Test API key') && first.child.exitCode === null; i++) await new Promise((r) => setTimeout(r, 100));
    expect(first.output()).toMatch(/Test API key:\s+sk_test_[0-9A-Za-z]{43}/);
    expect(first.output()).toMatch(/Dashboard:\s+http:\/\/\S+\/dashboard/);
    // The start script's settings reach node (docs/architecture.md, "Memory"), and npm runs no
    // shell between them.
    const node = serviceProcess(first.child);
    // The demo day buys labels: the render threads start under those settings (a worker refuses V8's options).
    for (let i = 0; i < 1_200 && !/Demo day ready|demo seed failed/.test(first.output()) && first.child.exitCode === null; i++)
      await new Promise((r) => setTimeout(r, 100));
    expect(first.output()).toContain('Demo day ready');
    expect(node.argv.slice(1)).toEqual(['--max-semi-space-size=4', 'scripts/start.mjs']);
    expect(node.env).toContain('MALLOC_ARENA_MAX=2');
    expect(node.env).toContain('MALLOC_MMAP_THRESHOLD_=131072');

    const second = start(await freePort());
    expect(await second.exited).toBe(1);
    expect(second.output()).toContain('in use by process');
    expect(second.output()).toContain('DATABASE_URL');

    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    expect(existsSync(path.join(dataDir, 'service.lock'))).toBe(false);

    // A restart on the same data dir keeps the data and does not seed again.
    const thirdPort = await freePort();
    const third = start(thirdPort, { SHUTDOWN_GRACE_MS: '300' });
    expect(await healthy(thirdPort, 120_000, third.child), third.output()).toBe(true);
    expect(third.output()).not.toContain('Test API key');
    // The built tree serves the API: carriers discovered beside the bundle, a real quote, the docs.
    const [, workspace] = /Workspace:\s+(ws_\S+)/.exec(first.output())!;
    const [, key] = /Test API key:\s+(sk_test_\S+)/.exec(first.output())!;
    const quote = await fetch(`http://127.0.0.1:${thirdPort}/v1/rates/query`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'x-service-workspace': workspace, 'content-type': 'application/json' },
      body: JSON.stringify({
        ship_from: { country: 'US', postal_code: '94105' },
        ship_to: { country: 'US', postal_code: '10001' },
        parcel: { weight_oz: 16, length_in: 10, width_in: 8, height_in: 4 },
      }),
    });
    expect(quote.status).toBe(200);
    const carriers = new Set(((await quote.json()) as { data: { carrier: string }[] }).data.map((o) => o.carrier));
    expect([...carriers].sort()).toEqual(['fedex', 'ups', 'usps']);
    for (const url of ['/openapi.json', '/docs/static/swagger-ui.css']) {
      const res = await fetch(`http://127.0.0.1:${thirdPort}${url}`);
      expect(res.status, url).toBe(200);
      await res.arrayBuffer(); // read to the end, so the kept-alive connection is idle at shutdown
    }
    // The dashboard is served from the built tree (start.mjs builds web/dist when missing), under its CSP.
    const page = await fetch(`http://127.0.0.1:${thirdPort}/dashboard/orders`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    const script = /src="(\/dashboard\/assets\/[^"]+\.js)"/.exec(await page.text());
    expect(script, 'index.html names its script').not.toBeNull();
    const asset = await fetch(`http://127.0.0.1:${thirdPort}${script![1]}`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-type')).toMatch(/javascript/);
    await asset.arrayBuffer();
    // A client that stops reading (1.4 MB left unread on a kept-alive connection) does not hold
    // the shutdown: after SHUTDOWN_GRACE_MS the connection is cut and the process exits cleanly.
    const unread = await fetch(`http://127.0.0.1:${thirdPort}/docs/static/swagger-ui-bundle.js`);
    expect(unread.status).toBe(200);
    const stopping = Date.now();
    third.child.kill('SIGTERM');
    expect(await third.exited).toBe(0);
    expect(Date.now() - stopping).toBeLessThan(8_000);
    expect(existsSync(path.join(dataDir, 'service.lock'))).toBe(false);
  });
});
