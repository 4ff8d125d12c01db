/**
 * Serving the web UI: built files as they are, index.html for client routes, JSON errors kept for /api, and a page
 * that says to build when the UI is missing. Uses a stand-in build folder so it runs without `vite build`.
 */

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/http/app.js';
import { type Database, openDatabase } from '../src/storage/connect.js';

const INDEX =
  '<!doctype html><title>robotskit</title><div id="app"></div><script src="/assets/index-abc123.js"></script>';
const SCRIPT = 'console.log("ui")';

describe('web UI serving', () => {
  let dir: string;
  let database: Database;
  const apps: FastifyInstance[] = [];

  async function serve(webRoot: string | false): Promise<string> {
    const app = await buildApp({ database, webRoot });
    apps.push(app);
    await app.listen({ host: '127.0.0.1', port: 0 });
    return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  }

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'robotskit-web-ui-'));
    mkdirSync(join(dir, 'web', 'assets'), { recursive: true });
    writeFileSync(join(dir, 'web', 'index.html'), INDEX);
    writeFileSync(join(dir, 'web', 'assets', 'index-abc123.js'), SCRIPT);
    writeFileSync(join(dir, 'web', 'assets', 'index-abc123.js.br'), brotliCompressSync(SCRIPT));
    writeFileSync(join(dir, 'web', 'assets', 'index-abc123.js.gz'), gzipSync(SCRIPT));
    mkdirSync(join(dir, 'empty'));
    database = await openDatabase({ dialect: 'sqlite', file: join(dir, 'db.sqlite') });
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
    await database.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves the built files, with long caching for hashed assets and revalidation for index.html', async () => {
    const base = await serve(join(dir, 'web'));
    const index = await fetch(`${base}/`);
    expect(index.status).toBe(200);
    expect(index.headers.get('content-type')).toMatch(/^text\/html/);
    expect(index.headers.get('cache-control')).toBe('no-cache');
    expect(await index.text()).toBe(INDEX);

    const asset = await fetch(`${base}/assets/index-abc123.js`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-type')).toMatch(/javascript/);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(await asset.text()).toBe(SCRIPT);
  });

  it('sends the compressed copies the build wrote to browsers that accept them', async () => {
    const base = await serve(join(dir, 'web'));
    // undici's request() does not decode bodies, so the bytes on the wire can be checked.
    const br = await request(`${base}/assets/index-abc123.js`, { headers: { 'accept-encoding': 'br, gzip' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(brotliDecompressSync(Buffer.from(await br.body.arrayBuffer())).toString()).toBe(SCRIPT);
    const plain = await request(`${base}/assets/index-abc123.js`);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(await plain.body.text()).toBe(SCRIPT);
  });

  it('answers client routes with index.html, and keeps JSON 404s for the API and missing assets', async () => {
    const base = await serve(join(dir, 'web'));
    for (const path of ['/properties', '/properties/3/files?all=true', '/a/b/c']) {
      const page = await fetch(`${base}${path}`);
      expect(page.status, path).toBe(200);
      expect(page.headers.get('content-type'), path).toMatch(/^text\/html/);
      expect(await page.text(), path).toBe(INDEX);
    }
    const api = await fetch(`${base}/api/no-such-route`);
    expect(api.status).toBe(404);
    expect(await api.json()).toEqual({ error: { code: 'not-found', message: 'no route GET /api/no-such-route' } });
    const post = await fetch(`${base}/somewhere`, {
      method: 'POST',
      body: '{}',
      headers: { 'content-type': 'application/json' },
    });
    expect(post.status).toBe(404);
    expect(((await post.json()) as { error: { code: string } }).error.code).toBe('not-found');
    expect((await fetch(`${base}/api/health`)).status).toBe(200);
  });

  it('does not serve files outside its folder', async () => {
    const base = await serve(join(dir, 'web'));
    const escaped = await fetch(`${base}/..%2fdb.sqlite`);
    expect(await escaped.text()).not.toContain('SQLite format');
  });

  it('says to build the UI when it is missing, without touching the API', async () => {
    const base = await serve(join(dir, 'empty'));
    const page = await fetch(`${base}/`);
    expect(page.status).toBe(503);
    expect(await page.text()).toContain('Run <code>npm run build</code>');
    expect((await fetch(`${base}/api/health`)).status).toBe(200);
    expect((await fetch(`${base}/api/nothing`)).status).toBe(404);
  });

  it('serves the API alone when told to', async () => {
    const base = await serve(false);
    const page = await fetch(`${base}/`);
    expect(page.status).toBe(404);
    expect(((await page.json()) as { error: { code: string } }).error.code).toBe('not-found');
  });

  it('answers an API path with an overlong parameter alike whether or not the UI is built or served', async () => {
    const path = `/api/files/${'1'.repeat(150)}`;
    for (const root of [join(dir, 'web'), join(dir, 'empty'), false] as const) {
      const reply = await fetch(`${await serve(root)}${path}`);
      expect([String(root), reply.status]).toEqual([String(root), 404]);
      expect(((await reply.json()) as { error: { code: string } }).error.code).toBe('not-found');
    }
  });
});
