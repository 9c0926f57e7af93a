import { Client } from 'pg';
import request from 'supertest';
import { bearer, startStack, type Stack, recordCommitModes } from './stack';

/**
 * Issue 14: a sync conversion's charge commits without waiting for the WAL flush (its answer
 * waits for a later synchronous commit that flushes it); an async conversion's charge, whose
 * 202 promises the job, waits. A trigger in this file's own database records the setting each
 * charge statement commits under.
 */
const HOOK_URL = 'https://receiver.example/hook';

let stack: Stack;
let pg: Client;
beforeAll(async () => {
  stack = await startStack({ converter: false, env: { SYNC_TIMEOUT_MS: '1000' } });
  pg = new Client({ connectionString: stack.env.config.DATABASE_URL });
  await pg.connect();
  await recordCommitModes(pg, 'original_filename');
});
afterAll(async () => {
  await pg?.end();
  await stack?.stop();
});

async function commitModeOf(file: string): Promise<string | undefined> {
  const { rows } = await pg.query<{ synchronous_commit: string }>(
    'SELECT synchronous_commit FROM commit_modes WHERE key = $1',
    [file],
  );
  return rows[0]?.synchronous_commit;
}

describe('how the charge commits', () => {
  it('When the conversion is async, then its charge commits waiting for the WAL flush, as configured', async () => {
    const { token } = await stack.workspace('free', 5);
    const res = await request(stack.gateway.url)
      .post('/convert')
      .set(...bearer(token))
      .field('webhook_url', HOOK_URL)
      .attach('file', Buffer.from('hello'), 'async.txt');
    expect(res.status).toBe(202);
    expect(await commitModeOf('async.txt')).toBe('on');
  });

  it('When the conversion is sync, then its charge commits without waiting, and the refund of its failure is exact', async () => {
    const { token, workspaceId } = await stack.workspace('free', 5);
    const res = await request(stack.gateway.url)
      .post('/convert')
      .set(...bearer(token))
      .attach('file', Buffer.from('hello'), 'sync.txt');
    // No converter runs here: the sync deadline fails the conversion and refunds it.
    expect(res.status).toBe(422);
    expect(await commitModeOf('sync.txt')).toBe('off');
    expect(await stack.ledger(workspaceId)).toEqual([
      { type: 'grant', amount: 5 },
      { type: 'charge', amount: -1 },
      { type: 'refund', amount: 1 },
    ]);
  });
});
