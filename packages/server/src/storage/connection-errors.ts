/**
 * Errors that mean "the database cannot be reached right now", not "the request is wrong" nor "the code is wrong":
 * PostgreSQL terminating connections (a restart, a failover, an administrator: SQLSTATE class 57 and class 08), the
 * socket reset or refused, a pooled client found broken, and SQLite still locked by another writer after its busy
 * timeout, and a query that got no answer within the query timeout (a stalled server: pg's `Query read timeout`,
 * and the health check's own limit). The API answers them with a 503 in its error shape; workers log them and try again next round. The pool
 * reconnects by itself: a broken client is dropped when released, and the next query opens a new connection.
 */

/** Node socket errors that mean the connection to the database is gone or cannot be made. */
const SOCKET_CODES = new Set(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTCONN']);

/** pg's own messages for a connection lost under it (it sets no code on them). */
const PG_LOST = [
  'Connection terminated',
  'Client has encountered a connection error and is not queryable',
  'Client was closed and is not queryable',
  'timeout exceeded when trying to connect',
];

/**
 * pg's messages for a database that did not answer in time: a query past `query_timeout`, a new connection past
 * `connect_timeout` (a server that stalled after the pool cut a timed-out connection); the health check's own limit
 * has its code.
 */
const TIMED_OUT_MESSAGES = new Set(['Query read timeout', 'timeout expired']);
const TIMED_OUT_CODE = 'database-timeout';

/** Whether `error` (or one of its causes) is a query or connection that got no answer in time. */
export function isDatabaseTimeout(error: unknown): boolean {
  for (let e = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    if (TIMED_OUT_MESSAGES.has(e.message) || (e as { code?: unknown }).code === TIMED_OUT_CODE) return true;
  }
  return false;
}

/** SQLite: the database stayed locked by another connection beyond the busy timeout. */
const SQLITE_BUSY = new Set(['SQLITE_BUSY', 'SQLITE_LOCKED']);

/** Whether `error` (or one of its causes) means the database is unavailable for now. */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (isDatabaseTimeout(error)) return true;
  for (let e = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') {
      // SQLSTATE 57P01 admin_shutdown, 57P02 crash_shutdown, 57P03 cannot_connect_now; class 08: connection exceptions.
      if (/^57P0[1-3]$/.test(code) || /^08[0-9A-Z]{3}$/.test(code)) return true;
      if (SOCKET_CODES.has(code) || SQLITE_BUSY.has(code)) return true;
    }
    if (PG_LOST.some((words) => e instanceof Error && e.message.startsWith(words))) return true;
  }
  return false;
}
