/**
 * The `/mcp` mount (`AppOptions.mcp`), without any MCP library: a handler given by the embedder answers POST /mcp
 * behind the API's own checks (the Host check, the token for a service that has one), with its security headers, and
 * is handed the service's guarded network: a fetch that reports a refused address as the engine's `blocked`, and the
 * guard's checks (refusalOf, lookup) for connections of its own. A real server on 127.0.0.1, requests over TCP.
 */

import { request as httpRequest } from 'node:http';
import type { AddressInfo, LookupFunction } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { BlockedFetchError } from 'robotskit/fetch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/http/app.js';
import type { McpNetwork } from '../src/http/mcp-route.js';
import { AddressRefusedError } from '../src/net/address-refused-error.js';
import { createGuardedFetch } from '../src/net/guarded-fetch.js';
import { type Database, openDatabase } from '../src/storage/connect.js';

function send(
  port: number,
  method: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, method, path: '/mcp', headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        text += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('the /mcp mount', () => {
  let database: Database;
  let app: FastifyInstance;
  let bare: FastifyInstance;
  let port: number;
  let network: McpNetwork | undefined;
  const seen: unknown[] = [];
  const fetch = createGuardedFetch();

  beforeAll(async () => {
    database = await openDatabase({ dialect: 'sqlite', file: ':memory:' });
    app = await buildApp({
      database,
      webRoot: false,
      fetch,
      token: 'sekrit-token',
      mcp: (net) => {
        network = net;
        return async (_request, response, body) => {
          seen.push(body);
          response.writeHead(200, { 'content-type': 'application/json' }).end('{"jsonrpc":"2.0","id":1,"result":{}}');
        };
      },
    });
    bare = await buildApp({ database, webRoot: false, fetch });
    await app.listen({ host: '127.0.0.1', port: 0 });
    port = (app.server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await app.close();
    await bare.close();
    await fetch.close();
    await database.close();
  });

  const json = { 'content-type': 'application/json', host: '127.0.0.1' };
  const message = '{"jsonrpc":"2.0","id":1,"method":"tools/list"}';

  it('hands each POST and its parsed body to the handler, behind the token and the Host check', async () => {
    const without = await send(port, 'POST', json, message);
    expect(without.status).toBe(401);
    expect(JSON.parse(without.body).error.code).toBe('unauthorized');
    const rebound = await send(port, 'POST', { ...json, host: 'rebind.attacker.test' }, message);
    expect(rebound.status).toBe(403);
    expect(seen).toEqual([]);
    const ok = await send(port, 'POST', { ...json, authorization: 'Bearer sekrit-token' }, message);
    expect(ok.status).toBe(200);
    expect(ok.body).toBe('{"jsonrpc":"2.0","id":1,"result":{}}');
    expect(ok.headers['x-frame-options']).toBe('DENY');
    expect(seen).toEqual([{ jsonrpc: '2.0', id: 1, method: 'tools/list' }]);
  });

  it('has no other method, and no /mcp at all without a mount', async () => {
    const get = await send(port, 'GET', { host: '127.0.0.1', accept: 'text/event-stream' });
    expect(get.status).toBe(405);
    expect(get.headers.allow).toBe('POST');
    expect(JSON.parse(get.body).error.code).toBe('method-not-allowed');
    const none = await bare.inject({ method: 'POST', url: '/mcp', headers: json, payload: message });
    expect(none.statusCode).toBe(404);
  });

  it('gives the handler the guarded network: loopback refused by its fetch, its checks and its lookup', async () => {
    const net = network!;
    await expect(
      net.fetch('http://127.0.0.1:8080/robots.txt', {
        method: 'GET',
        redirect: 'manual',
        headers: {},
        signal: AbortSignal.timeout(5000),
      }),
    ).rejects.toBeInstanceOf(BlockedFetchError);
    expect(await net.refusalOf('http://127.0.0.1/')).toBeInstanceOf(AddressRefusedError);
    expect(await net.refusalOf('http://[::1]/')).toBeInstanceOf(AddressRefusedError);
    const looked = await new Promise<unknown>((resolve) =>
      (net.lookup as unknown as (h: string, o: object, cb: (e: unknown) => void) => void)('localhost', {}, resolve),
    );
    expect(looked).toBeInstanceOf(AddressRefusedError);
    expect(net.userAgent).toMatch(/^robotskit-server\//);
    expect(typeof net.ftp).toBe('function');
    expect(net.lookup satisfies LookupFunction).toBeDefined();
  });
});
