import { execFile, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { expectStatus, onboardClient, useBuiltService, type BuiltService } from '../helpers/built-service.js';
import { runNodeScenario } from './node-scenario.js';

// clients/conformance/scenario.json through every client, each with its own test runner (pytest,
// phpunit, go test; the Node client in ./node-scenario.ts under vitest, as installed from its
// packed tarball into a plain JavaScript project) against one built
// service: each client gets a workspace of its own, a throttled second workspace for the 429
// step, and this file's receiver for the webhook step. A missing toolchain skips its client with
// the reason (.ci/run installs all of them). Each foreign runner runs its client's whole suite
// (unit tests and the scenario). The clients do not see the database: this runs on PGlite only.
const root = path.resolve(import.meta.dirname, '../..');

interface Received {
  body: string;
  signature: string;
}

/** Records every POST; `GET /_received/<path>` answers what reached <path>. */
async function startReceiver(): Promise<{ url: string; server: Server }> {
  const received = new Map<string, Received[]>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = (req.url ?? '/').split('?')[0];
      if (req.method === 'GET' && url.startsWith('/_received/')) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(received.get(url.slice('/_received'.length)) ?? []));
        return;
      }
      const list = received.get(url) ?? [];
      list.push({ body: Buffer.concat(chunks).toString('utf8'), signature: String(req.headers['x-service-signature'] ?? '') });
      received.set(url, list);
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

/** The SHIPPING_* environment of one client's run: its workspace, a throttled one, the receiver. */
async function conformanceEnv(svc: BuiltService, receiverUrl: string, client: string): Promise<Record<string, string>> {
  const main = await onboardClient(svc, { name: `Conformance ${client}` });
  const throttled = await onboardClient(svc, { name: `Throttled ${client}` });
  // 60 a minute refills one request a second: the 429's Retry-After is about a second.
  const slow = await svc.request('PATCH', `/api/super-admin/workspaces/${throttled.workspaceId}`, {
    headers: throttled.root,
    json: { plan: 'enterprise', burst_per_minute: 60 },
  });
  expectStatus(svc, slow, 200, 'throttle the second workspace');
  return {
    SHIPPING_BASE_URL: svc.baseUrl,
    SHIPPING_API_KEY: main.apiKey,
    SHIPPING_WORKSPACE_ID: main.workspaceId,
    SHIPPING_THROTTLED_API_KEY: throttled.apiKey,
    SHIPPING_THROTTLED_WORKSPACE_ID: throttled.workspaceId,
    SHIPPING_RECEIVER_URL: receiverUrl,
    SHIPPING_RUN_ID: `${client}-${randomBytes(4).toString('hex')}`,
  };
}

const run = promisify(execFile);

const has = (cmd: string, args: string[]) => {
  const r = spawnSync(cmd, args, { encoding: 'utf8' });
  return r.status === 0;
};

interface Runner {
  name: string;
  /** Why it cannot run here, or undefined when its toolchain is installed. */
  missing: () => string | undefined;
  cmd: string;
  args: string[];
  cwd: string;
  env?: Record<string, string>;
}

const runners: Runner[] = [
  {
    name: 'python',
    missing: () =>
      has('/usr/bin/python3', ['-c', 'import sys, httpx, pytest; assert sys.version_info >= (3, 11)'])
        ? undefined
        : 'needs /usr/bin/python3 ≥ 3.11 with httpx and pytest (apt-get install python3-httpx python3-pytest)',
    cmd: '/usr/bin/python3',
    args: ['-m', 'pytest', '-q', '-p', 'no:cacheprovider', 'tests'],
    cwd: 'clients/python',
  },
  {
    name: 'php',
    missing: () =>
      has('php', ['-r', 'exit(extension_loaded("curl") && PHP_VERSION_ID >= 80200 ? 0 : 1);']) && has('phpunit', ['--version'])
        ? undefined
        : 'needs php ≥ 8.2 with ext-curl and phpunit (apt-get install php-cli php-curl phpunit)',
    cmd: 'phpunit',
    args: [],
    cwd: 'clients/php',
  },
  {
    name: 'go',
    missing: () => (has('go', ['version']) ? undefined : 'needs go ≥ 1.19 (apt-get install golang-go)'),
    cmd: 'go',
    args: ['test', '-count=1', '-v', '.'],
    cwd: 'clients/go',
    // Standard library only: never fetch a module or a toolchain.
    env: { GOTOOLCHAIN: 'local', GOFLAGS: '-mod=mod', GOPROXY: 'off' },
  },
];

describe.runIf(inject('testDb').engine === 'pglite')('the clients against the built service', () => {
  const service = useBuiltService({ env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: '1' } });
  let svc: BuiltService;
  let receiver: { url: string; server: Server };
  const results = new Map<string, Promise<{ code: number | null; output: string }>>();

  beforeAll(async () => {
    svc = service();
    receiver = await startReceiver();
    // The three runs share the service and go in parallel: each has its own workspaces.
    for (const r of runners) {
      if (r.missing()) continue;
      const env = await conformanceEnv(svc, receiver.url, r.name);
      results.set(
        r.name,
        new Promise((resolve) => {
          const child = spawn(r.cmd, r.args, { cwd: path.join(root, r.cwd), env: { ...process.env, ...r.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
          let output = '';
          child.stdout.on('data', (d) => (output += d));
          child.stderr.on('data', (d) => (output += d));
          child.on('error', (e) => resolve({ code: -1, output: `${output}\n${e.message}` }));
          child.on('close', (code) => resolve({ code, output }));
        }),
      );
    }
  }, 120_000);

  /**
   * A plain JavaScript project (no TypeScript, no loader) with the client installed from its packed
   * tarball, and openapi-fetch packed from this repository's node_modules (no network: --offline).
   */
  async function installPackedClient(dir: string): Promise<void> {
    // Asynchronous: this process also hosts the webhook receiver the other clients' runs wait on.
    const npm = (args: string[], cwd = dir) =>
      run('npm', args, { cwd, env: { ...process.env, npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' } });
    writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'client-user', private: true, type: 'module' }));
    await npm(['pack', path.join(root, 'packages/client'), '--pack-destination', dir]);
    await npm([
      'pack',
      '--ignore-scripts',
      path.join(root, 'node_modules/openapi-fetch'),
      path.join(root, 'node_modules/openapi-typescript-helpers'),
      '--pack-destination',
      dir,
    ]);
    const tarballs = readdirSync(dir)
      .filter((f) => f.endsWith('.tgz'))
      .map((f) => `./${f}`);
    await npm(['install', '--offline', '--no-package-lock', ...tarballs]);
  }

  describe('the Node client as packed', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'client-pack-'));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));
    beforeAll(() => installPackedClient(dir), 180_000);

    it('ships ESM JavaScript, types and a README, and imports in plain Node', async () => {
      const pkg = path.join(dir, 'node_modules/@shipping-service/client');
      const files = readdirSync(path.join(pkg, 'dist')).sort();
      expect(files).toEqual(expect.arrayContaining(['index.js', 'index.d.ts', 'retry.js', 'schema.d.ts', 'webhooks.js']));
      expect(files.filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))).toEqual([]);
      expect(readdirSync(pkg)).toContain('README.md');
      writeFileSync(
        path.join(dir, 'smoke.js'),
        [
          "import { readFileSync } from 'node:fs';",
          "import { createShippingClient, verifyWebhookSignature } from '@shipping-service/client';",
          `const v = JSON.parse(readFileSync(${JSON.stringify(path.join(root, 'clients/conformance/webhook-vectors.json'))}, 'utf8'));`,
          'const wrong = v.vectors.filter((x) => verifyWebhookSignature(v.body, x.header, x.secrets, v.tolerance, x.now) !== x.valid).map((x) => x.name);',
          "createShippingClient({ baseUrl: 'http://127.0.0.1:1', apiKey: 'sk_test_x', workspaceId: 'ws_x' });",
          'console.log(JSON.stringify({ vectors: v.vectors.length, wrong }));',
        ].join('\n'),
      );
      const out = JSON.parse((await run(process.execPath, ['smoke.js'], { cwd: dir })).stdout) as { vectors: number; wrong: string[] };
      expect(out.wrong).toEqual([]);
      expect(out.vectors).toBeGreaterThanOrEqual(10);
    });

    it('passes the conformance scenario', { timeout: 120_000 }, async () => {
      const env = await conformanceEnv(svc, receiver.url, 'node');
      const mod = await import(pathToFileURL(path.join(dir, 'node_modules/@shipping-service/client/dist/index.js')).href);
      await runNodeScenario(mod, env);
    });
  });

  afterAll(async () => {
    await Promise.allSettled(results.values());
    await new Promise((resolve) => receiver?.server.close(resolve));
  });

  describe('the Postman collection', () => {
    it('runs its Getting started folder under newman with no failure', { timeout: 120_000 }, async () => {
      const newman = createRequire(import.meta.url)('newman') as {
        run: (
          options: Record<string, unknown>,
          cb: (
            err: Error | null,
            summary: {
              run: {
                failures: Array<{ source?: { name?: string }; error: { message: string } }>;
                stats: { requests: { total: number }; assertions: { total: number; failed: number } };
              };
            },
          ) => void,
        ) => void;
      };
      const c = await onboardClient(svc, { name: 'Postman user' });
      const read = (file: string) => JSON.parse(readFileSync(path.join(root, file), 'utf8'));
      const environment = read('postman/shipping-service.postman_environment.json') as { values: Array<{ key: string; value: string }> };
      const values: Record<string, string> = { base_url: svc.baseUrl, api_key: c.apiKey, workspace_id: c.workspaceId };
      for (const v of environment.values) v.value = values[v.key] ?? v.value;
      const summary = await new Promise<Parameters<Parameters<typeof newman.run>[1]>[1]>((resolve, reject) =>
        newman.run(
          {
            collection: read('postman/shipping-service.postman_collection.json'),
            environment,
            folder: 'Getting started',
            reporters: [],
            timeoutRequest: 30_000,
          },
          (err, s) => (err ? reject(err) : resolve(s)),
        ),
      );
      const failures = summary.run.failures.map((f) => `${f.source?.name}: ${f.error.message}`);
      expect(failures, svc.output().slice(-2000)).toEqual([]);
      expect(summary.run.stats.requests.total).toBeGreaterThanOrEqual(10);
      expect(summary.run.stats.assertions.failed).toBe(0);
      expect(summary.run.stats.assertions.total).toBeGreaterThanOrEqual(summary.run.stats.requests.total);
    });
  });

  describe('the conformance scenario', () => {
    for (const r of runners) {
      const missing = r.missing();
      if (missing) console.warn(`conformance: skipping the ${r.name} client: ${missing}`);
      it.skipIf(Boolean(missing))(`passes in the ${r.name} client (${r.cmd} ${r.args.join(' ')})`, { timeout: 240_000 }, async () => {
        const { code, output } = await results.get(r.name)!;
        expect(code, `${output}\n--- service output ---\n${svc.output().slice(-3000)}`).toBe(0);
        // A skipped scenario would exit 0 too: the runner must say it ran the scenario and skipped nothing.
        expect(output).toMatch(r.name === 'python' ? /\b\d+ passed in\b/ : r.name === 'php' ? /^OK \(\d+ tests/m : /--- PASS: TestConformance/);
        expect(output).not.toMatch(/skipped|SKIP/i);
      });
    }
  });
});
