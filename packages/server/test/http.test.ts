import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/http/app';
import { freshDatabase, type TestDatabase } from './helpers/db';

let db: TestDatabase;
let webDist: string;

beforeAll(async () => {
  db = await freshDatabase();
  webDist = await mkdtemp(join(tmpdir(), 'vyuha-web-'));
  await mkdir(join(webDist, 'assets'));
  await writeFile(join(webDist, 'index.html'), '<!doctype html><title>Vyuha test build</title>');
  await writeFile(join(webDist, 'assets', 'app-1234.js'), 'console.log(1)');
});
afterAll(() => db.close());

async function app(overrides: { pool?: pg.Pool; webDistDir?: string } = {}) {
  return buildApp({ pool: overrides.pool ?? db.pool, version: '9.9.9+test', webDistDir: overrides.webDistDir ?? webDist, logLevel: 'silent' });
}

describe('health and version', () => {
  it('GET /healthz is 200 when the database answers', async () => {
    const response = await (await app()).inject('/healthz');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok', database: 'ok', version: '9.9.9+test' });
  });

  it('GET /healthz is 503 when the database does not answer', async () => {
    const deadPool = new pg.Pool({ connectionString: 'postgres://nobody:wrong@127.0.0.1:1/none', connectionTimeoutMillis: 500 });
    const response = await (await app({ pool: deadPool })).inject('/healthz');
    expect(response.statusCode).toBe(503);
    expect(response.json()).toMatchObject({ status: 'error', database: 'unreachable' });
    await deadPool.end();
  });

  it('GET /version.json gives the deployed version, never cached', async () => {
    // Regression: a web build containing version.json made the static plugin declare a clashing route.
    await writeFile(join(webDist, 'version.json'), '{"version":"from-the-file"}');
    const response = await (await app()).inject('/version.json?r=0.42');
    expect(response.json()).toEqual({ version: '9.9.9+test', updateMode: false });
    expect(response.headers['cache-control']).toBe('no-store');
  });

  it('says updateMode while app_meta.update_mode is true', async () => {
    await db.pool.query(`INSERT INTO app_meta (key, value) VALUES ('update_mode', 'true') ON CONFLICT (key) DO UPDATE SET value = 'true'`);
    expect((await (await app()).inject('/version.json')).json()).toEqual({ version: '9.9.9+test', updateMode: true });
    await db.pool.query(`UPDATE app_meta SET value = 'false' WHERE key = 'update_mode'`);
    expect((await (await app()).inject('/version.json')).json()).toMatchObject({ updateMode: false });
  });
});

describe('the web app', () => {
  it.each(['/', '/dashboard', '/backtest/42', '/no/such/page'])('serves index.html for the client route %s', async (path) => {
    const response = await (await app()).inject(path);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(response.body).toContain('Vyuha test build');
  });

  it('serves hashed assets with a long cache life', async () => {
    const response = await (await app()).inject('/assets/app-1234.js');
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toContain('immutable');
  });

  it('answers a JSON 404 for unknown API paths instead of the page', async () => {
    for (const path of ['/v1/nothing', '/api/nothing']) {
      const response = await (await app()).inject(path);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({ error: 'not-found' });
    }
    const post = await (await app()).inject({ method: 'POST', url: '/dashboard' });
    expect(post.statusCode).toBe(404);
  });

  it('says how to build the web app when it is not built', async () => {
    const response = await (await app({ webDistDir: join(webDist, 'missing') })).inject('/');
    expect(response.statusCode).toBe(503);
    expect(response.body).toContain('npm start');
  });
});
