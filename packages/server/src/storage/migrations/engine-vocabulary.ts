/**
 * Migration 0003: the stored words become the engine's. Fetch and version outcomes were stored as `fetched` /
 * `not-found` / `error`, a one-to-one renaming of the engine's `rules` / `allow-all` / `disallow-all`; they are now
 * the engine's words (in `content_key` too, so the next fetch of an unchanged failure is no new version). Error
 * kinds are the engine's: `address-refused` is its `blocked`; `http-status` was invented for 5xx and 429 answers,
 * whose status is `http_status`, so it goes; a retrieval that threw (`retrieval-failed`) is the engine's `unknown`.
 * The engine's error code and phase get columns (`fetchStatusOf` reads the code: an FTP 550 is a "not found"); for
 * rows stored before, the FTP reply code is read back from the message, the only place it was kept.
 * `not_found_since`, the start of a run of `allow-all` outcomes, is `allow_all_since`.
 */

import { type Kysely, type Migration, sql } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations are written against the schema of their time, not today's.
type AnyDb = Kysely<any>;

/** The stored words before this migration and the engine's, one to one. */
const OUTCOMES = [
  ['fetched', 'rules'],
  ['not-found', 'allow-all'],
  ['error', 'disallow-all'],
] as const;

/** An FTP reply in a stored message (`FTP 550 …`, `FTP login refused: FTP 530 …`), as `fetch/ftp.ts` words it. */
const FTP_REPLY = /\bFTP (\d{3})\b/;

async function renameOutcomes(db: AnyDb, direction: 0 | 1): Promise<void> {
  const to = direction === 0 ? 1 : 0;
  for (const pair of OUTCOMES) {
    for (const table of ['fetches', 'versions']) {
      await db.updateTable(table).set({ outcome: pair[to] }).where('outcome', '=', pair[direction]).execute();
    }
    // Bodies are keyed by hash (`sha256:…`); every other content key is an outcome.
    await db.updateTable('fetches').set({ content_key: pair[to] }).where('content_key', '=', pair[direction]).execute();
  }
}

/** Fills `error_code` of stored FTP answers from their messages. */
async function ftpCodesFromMessages(db: AnyDb): Promise<void> {
  const rows = await db
    .selectFrom('fetches')
    .select(['id', 'error_message'])
    .where('error_kind', '=', 'protocol')
    .where('error_message', 'like', '%FTP %')
    .execute();
  const idsByCode = new Map<string, number[]>();
  for (const row of rows as { id: number | string; error_message: string }[]) {
    const reply = FTP_REPLY.exec(row.error_message)?.[1];
    if (reply === undefined) continue;
    const code = `FTP_${reply}`;
    idsByCode.set(code, [...(idsByCode.get(code) ?? []), Number(row.id)]);
  }
  for (const [code, ids] of idsByCode) {
    for (let i = 0; i < ids.length; i += 500) {
      await db
        .updateTable('fetches')
        .set({ error_code: code })
        .where('id', 'in', ids.slice(i, i + 500))
        .execute();
    }
  }
}

/** The migration. */
export const engineVocabulary: Migration = {
  async up(db: AnyDb) {
    await renameOutcomes(db, 0);
    await db
      .updateTable('fetches')
      .set({ error_kind: 'blocked' })
      .where('error_kind', '=', 'address-refused')
      .execute();
    await db
      .updateTable('fetches')
      .set({ error_kind: null, error_message: null })
      .where('error_kind', '=', 'http-status')
      .execute();
    await db
      .updateTable('fetches')
      .set({ error_kind: 'unknown' })
      .where('error_kind', '=', 'retrieval-failed')
      .execute();
    await db.schema.alterTable('fetches').addColumn('error_code', 'text').execute();
    await db.schema.alterTable('fetches').addColumn('error_phase', 'text').execute();
    await ftpCodesFromMessages(db);
    await db.schema.alterTable('robots_files').renameColumn('not_found_since', 'allow_all_since').execute();
  },
  /** Back to the old words; `unknown` stays `unknown` (it was an engine kind before too). */
  async down(db: AnyDb) {
    await db.schema.alterTable('robots_files').renameColumn('allow_all_since', 'not_found_since').execute();
    await db.schema.alterTable('fetches').dropColumn('error_phase').execute();
    await db.schema.alterTable('fetches').dropColumn('error_code').execute();
    await db
      .updateTable('fetches')
      .set({ error_kind: 'address-refused' })
      .where('error_kind', '=', 'blocked')
      .execute();
    await db
      .updateTable('fetches')
      .set({ error_kind: 'http-status', error_message: sql`'HTTP ' || http_status` })
      .where('outcome', '=', 'disallow-all')
      .where('error_kind', 'is', null)
      .where('http_status', 'is not', null)
      .execute();
    await renameOutcomes(db, 1);
  },
};
