import { Client } from 'pg';
import request from 'supertest';
import { bearer, startStack, type Stack } from './stack';
import { UPLOAD_IN_CHARGE_MAX_BYTES } from '../src/data-access/conversion-repository';

/**
 * Issue 12: a large upload is stored on its own, before the short charge statement (issue 14: a
 * small one is stored by the charge statement itself). A trigger in this file's own database
 * holds big upload writes on an advisory lock the test owns, so "a 50 MB write in progress" is a
 * state the test controls instead of a matter of machine speed.
 */
const HOLD_LOCK = 4242;
const HOOK_URL = 'https://receiver.example/hook';

let stack: Stack;
let pg: Client;
beforeAll(async () => {
  stack = await startStack({ converter: false });
  pg = new Client({ connectionString: stack.env.config.DATABASE_URL });
  await pg.connect();
  await pg.query(`
    CREATE FUNCTION hold_big_uploads() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF length(NEW.bytes) > 1048576 THEN PERFORM pg_advisory_xact_lock(${HOLD_LOCK}); END IF;
      RETURN NEW;
    END $$;
    CREATE TRIGGER hold_big_uploads BEFORE INSERT ON uploads FOR EACH ROW EXECUTE FUNCTION hold_big_uploads();`);
});
afterAll(async () => {
  await pg?.end();
  await stack?.stop();
});

const convert = (token: string, bytes: Buffer, name = 'note.txt') =>
  request(stack.gateway.url)
    .post('/convert')
    .set(...bearer(token))
    .field('webhook_url', HOOK_URL)
    .attach('file', bytes, name);

async function count(sql: string, params: unknown[]): Promise<number> {
  return Number((await pg.query<{ n: string }>(sql, params)).rows[0]!.n);
}

async function waitersOnHoldLock(): Promise<number> {
  return count(`SELECT count(*) AS n FROM pg_locks WHERE locktype = 'advisory' AND objid = $1 AND NOT granted`, [
    HOLD_LOCK,
  ]);
}

describe('uploads are stored outside the charge transaction', () => {
  it('When a 50 MB upload is still being written, then another request of the same workspace is charged and answered meanwhile', async () => {
    const { token, workspaceId } = await stack.workspace('business', 10);
    await pg.query('SELECT pg_advisory_lock($1)', [HOLD_LOCK]);
    let big: Promise<request.Response> | undefined;
    try {
      big = convert(token, Buffer.alloc(50 * 1024 * 1024, 0x61), 'big.txt').then((r) => r);
      for (let i = 0; i < 600 && (await waitersOnHoldLock()) === 0; i++) await new Promise((r) => setTimeout(r, 100));
      expect(await waitersOnHoldLock()).toBe(1);

      const small = await convert(token, Buffer.from('hello'));
      expect(small.status).toBe(202);
      expect(small.body.credits_remaining).toBe(9);
      // The big write is still held: the small request did not wait for it, and nothing timed it out.
      expect(await waitersOnHoldLock()).toBe(1);
      expect(await count('SELECT count(*) AS n FROM conversions WHERE workspace_id = $1', [workspaceId])).toBe(1);
    } finally {
      await pg.query('SELECT pg_advisory_unlock($1)', [HOLD_LOCK]);
    }
    const res = await big;
    expect(res.status).toBe(202);
    expect(res.body.credits_remaining).toBe(8);
  });

  it('When the upload is small, then the charge statement stores it (one transaction); when it is larger, then it is stored before, in its own', async () => {
    const { token, workspaceId } = await stack.workspace('business', 10);
    const small = await convert(token, Buffer.alloc(UPLOAD_IN_CHARGE_MAX_BYTES, 0x61), 'small.txt');
    const large = await convert(token, Buffer.alloc(UPLOAD_IN_CHARGE_MAX_BYTES + 1, 0x61), 'large.txt');
    expect([small.status, large.status]).toEqual([202, 202]);
    const rows = await pg.query<{ name: string; same: boolean; size: number }>(
      `SELECT c.original_filename AS name, u.xmin::text = c.xmin::text AS same, length(u.bytes) AS size
       FROM conversions c JOIN uploads u ON u.conversion_id = c.id WHERE c.workspace_id = $1 ORDER BY name DESC`,
      [workspaceId],
    );
    expect(rows.rows).toEqual([
      { name: 'small.txt', same: true, size: UPLOAD_IN_CHARGE_MAX_BYTES },
      { name: 'large.txt', same: false, size: UPLOAD_IN_CHARGE_MAX_BYTES + 1 },
    ]);
  });

  it.each([
    ['small, stored by the charge', 5],
    ['larger, stored before the charge', UPLOAD_IN_CHARGE_MAX_BYTES + 1],
  ])(
    'When the balance is too low (402) and the upload is %s, then no upload is left and nothing is charged',
    async (_, size) => {
      const { token, workspaceId } = await stack.workspace('free', 0);
      const before = await count('SELECT count(*) AS n FROM uploads', []);
      const res = await convert(token, Buffer.alloc(size, 0x61));
      expect(res.status).toBe(402);
      expect(res.body.error).toBe('insufficient_credits');
      expect(await count('SELECT count(*) AS n FROM uploads', [])).toBe(before);
      expect(await count('SELECT count(*) AS n FROM credit_transactions WHERE workspace_id = $1', [workspaceId])).toBe(
        0,
      );
    },
  );

  it.each([
    ['small, stored by the charge', 5],
    ['larger, stored before the charge', UPLOAD_IN_CHARGE_MAX_BYTES + 1],
  ])(
    'When storing an upload that is %s fails, then it answers 500 without internals and charges nothing',
    async (_, size) => {
      const { token, workspaceId } = await stack.workspace('free', 5);
      await pg.query(`
      CREATE FUNCTION refuse_uploads() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'disk full at /var/lib/postgresql'; END $$;
      CREATE TRIGGER refuse_uploads BEFORE INSERT ON uploads FOR EACH ROW EXECUTE FUNCTION refuse_uploads();`);
      try {
        const res = await convert(token, Buffer.alloc(size, 0x61));
        expect(res.status).toBe(500);
        expect(res.body).toEqual({ error: 'internal_error', message: 'Something went wrong on our side.' });
      } finally {
        await pg.query('DROP TRIGGER refuse_uploads ON uploads; DROP FUNCTION refuse_uploads();');
      }
      expect(await count('SELECT credit_balance AS n FROM workspaces WHERE id = $1', [workspaceId])).toBe(5);
      expect(await count('SELECT count(*) AS n FROM conversions WHERE workspace_id = $1', [workspaceId])).toBe(0);
      expect(
        await count('SELECT count(*) AS n FROM credit_transactions WHERE workspace_id = $1 AND type = $2', [
          workspaceId,
          'charge',
        ]),
      ).toBe(0);
    },
  );

  it('When an upload has had no conversion for ten minutes (its gateway stopped), then the sweeper deletes it', async () => {
    const stale = '00000000-0000-7000-8000-0000000000aa';
    const fresh = '00000000-0000-7000-8000-0000000000bb';
    await pg.query(
      `INSERT INTO uploads (conversion_id, bytes, created_at) VALUES ($1, 'x', now() - interval '11 minutes')`,
      [stale],
    );
    await pg.query(`INSERT INTO uploads (conversion_id, bytes) VALUES ($1, 'x')`, [fresh]);
    await stack.gateway.sweeper.sweepOnce();
    const left = await pg.query<{ id: string }>(
      'SELECT conversion_id::text AS id FROM uploads WHERE conversion_id = ANY($1::uuid[])',
      [[stale, fresh]],
    );
    expect(left.rows.map((r) => r.id)).toEqual([fresh]);
  });
});
