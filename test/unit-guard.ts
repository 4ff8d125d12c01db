/**
 * Setup file of the `unit` test project: a unit test opens no socket and starts no process. Listening, connecting and
 * spawning throw, so a test that needs a server, a database, a browser or a child process fails here with a message
 * saying where it belongs (the `integration` project, listed in `vitest.config.ts`), instead of passing by luck.
 */

import { ChildProcess } from 'node:child_process';
import { Server, Socket } from 'node:net';

function refuse(what: string): never {
  throw new Error(
    `a unit test ${what}: list this test file in the integration project (vitest.config.ts, INTEGRATION)`,
  );
}

Server.prototype.listen = function listen(): never {
  return refuse('opened a listening socket');
};
Socket.prototype.connect = function connect(): never {
  return refuse('opened a network connection');
};
// `spawn` is ChildProcess's internal start, used by spawn, exec, execFile and fork alike; it is not in Node's types.
(ChildProcess.prototype as unknown as { spawn: () => never }).spawn = function spawn(): never {
  return refuse('started a process');
};
