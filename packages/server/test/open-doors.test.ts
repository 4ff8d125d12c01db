/**
 * What a web page elsewhere, or a client without the token, must not get from the service: requests through a
 * foreign host name (DNS rebinding: the attacker's name resolving to the service's address) are refused whatever the
 * method; webhook URLs (their path is often the secret) are never shown, and their list needs the token; the UI and
 * the API send a Content-Security-Policy that forbids framing. A real server on 127.0.0.1, requests over TCP.
 */

import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/http/app.js';
import { hostAllowed, hostName } from '../src/http/host-check.js';
import { createGuardedFetch } from '../src/net/guarded-fetch.js';
import { type Database, openDatabase } from '../src/storage/connect.js';

/** A raw request with the Host header as given (fetch would not let a page, nor a test, set it). */
function send(
  port: number,
  host: string,
  method: string,
  path: string,
  body?: object,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        headers: {
          host,
          ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
          ...headers,
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

describe('the service answers only to its own names, and keeps secrets', () => {
  let database: Database;
  let open: FastifyInstance;
  let locked: FastifyInstance;
  let openPort: number;
  let lockedPort: number;
  const fetch = createGuardedFetch({ lookup: () => {} });

  beforeAll(async () => {
    database = await openDatabase({ dialect: 'sqlite', file: ':memory:' });
    open = await buildApp({ database, webRoot: false, fetch, allowedHosts: ['robots.example.test', '*.corp.test'] });
    locked = await buildApp({ database, webRoot: false, fetch, token: 'sekrit-token' });
    await open.listen({ host: '127.0.0.1', port: 0 });
    await locked.listen({ host: '127.0.0.1', port: 0 });
    openPort = (open.server.address() as AddressInfo).port;
    lockedPort = (locked.server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await open.close();
    await locked.close();
    await fetch.close();
    await database.close();
  });

  it('refuses a request through a rebinding name, reads and writes alike (before: answered, and written)', async () => {
    const read = await send(openPort, `rebind.attacker.test:${openPort}`, 'GET', '/api/properties');
    expect(read.status).toBe(403);
    expect(JSON.parse(read.body).error.code).toBe('host-not-allowed');
    const write = await send(openPort, 'rebind.attacker.test', 'POST', '/api/properties', {
      property: 'https://site.invalid/',
    });
    expect(write.status).toBe(403);
    const listed = await send(openPort, `127.0.0.1:${openPort}`, 'GET', '/api/properties');
    expect(JSON.parse(listed.body).properties).toEqual([]);
  });

  it('answers through IP addresses, localhost names, the names it is given', async () => {
    for (const host of [
      `127.0.0.1:${openPort}`,
      `[::1]:${openPort}`,
      '127.1',
      `localhost:${openPort}`,
      'LOCALHOST.',
      'ui.localhost',
      'robots.example.test',
      'a.corp.test:8080',
      'corp.test',
    ]) {
      const reply = await send(openPort, host, 'GET', '/api/health');
      expect(reply.status, host).toBe(200);
    }
    for (const host of ['robots.example.test.attacker.test', 'xcorp.test', 'localhost.attacker.test']) {
      expect((await send(openPort, host, 'GET', '/api/health')).status, host).toBe(403);
    }
  });

  it('reads host names as a Host header carries them', () => {
    expect(hostName('Example.COM:8080')).toBe('example.com');
    expect(hostName('[::1]:80')).toBe('::1');
    expect(hostName('::1')).toBe('');
    expect(hostAllowed('anything.test', ['*'])).toBe(true);
    expect(hostName('127.1')).toBe('127.0.0.1');
    expect(hostName('a b')).toBe('');
    expect(hostAllowed('', ['*'])).toBe(false);
  });

  it('sends a Content-Security-Policy that forbids framing, on every answer', async () => {
    for (const path of ['/api/health', '/api/nothing', '/']) {
      const reply = await send(openPort, 'localhost', 'GET', path);
      const csp = String(reply.headers['content-security-policy']);
      expect(csp, path).toContain("frame-ancestors 'none'");
      expect(csp, path).toContain("script-src 'self'");
      expect(reply.headers['x-frame-options'], path).toBe('DENY');
      expect(reply.headers['x-content-type-options'], path).toBe('nosniff');
    }
  });

  it('needs the token to list webhooks, and never shows their path or query', async () => {
    const auth = { authorization: 'Bearer sekrit-token' };
    const secretUrl = 'http://93.184.215.14/services/T000/B000/XXXXSECRET?key=abc';
    const created = await send(lockedPort, 'localhost', 'POST', '/api/webhooks', { url: secretUrl }, auth);
    expect(created.status, created.body).toBe(201);
    expect(created.body).not.toContain('SECRET');
    expect(JSON.parse(created.body).url).toBe('http://93.184.215.14/…');

    const anonymous = await send(lockedPort, 'localhost', 'GET', '/api/webhooks');
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).not.toContain('SECRET');
    const wrong = await send(lockedPort, 'localhost', 'GET', '/api/webhooks', undefined, {
      authorization: 'Bearer nope',
    });
    expect(wrong.status).toBe(401);

    const listed = await send(lockedPort, 'localhost', 'GET', '/api/webhooks', undefined, auth);
    expect(listed.status).toBe(200);
    expect(listed.body).not.toContain('SECRET');
    expect(listed.body).not.toContain('key=abc');
    expect(JSON.parse(listed.body).webhooks.map((w: { url: string }) => w.url)).toEqual(['http://93.184.215.14/…']);
    // Reads that reveal nothing stay open.
    expect((await send(lockedPort, 'localhost', 'GET', '/api/properties')).status).toBe(200);
  });
});
