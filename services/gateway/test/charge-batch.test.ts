import { Client } from 'pg';
import { newConversion as conversion, startStack, type Stack, recordCommitModes } from './stack';
import { chargeAndCreateConversion, UPLOAD_IN_BATCH_MAX_BYTES } from '../src/data-access/conversion-repository';

/**
 * Charges of other workspaces made at once share one statement and one commit; a workspace's
 * second charge waits for the next statement, so it reads the balance the first left. A trigger
 * in this file's own database records the commit setting each conversion row was inserted under.
 */
let stack: Stack;
let pg: Client;
beforeAll(async () => {
  stack = await startStack({ converter: false });
  pg = new Client({ connectionString: stack.env.config.DATABASE_URL });
  await pg.connect();
  await recordCommitModes(pg, 'id');
});
afterAll(async () => {
  await pg?.end();
  await stack?.stop();
});

/** Per conversion: the transaction that inserted it and the commit setting it was inserted under. */
async function written(ids: string[]): Promise<Array<[string, string] | undefined>> {
  const { rows } = await pg.query<{ id: string; xmin: string; synchronous_commit: string }>(
    `SELECT c.id::text, c.xmin::text, m.synchronous_commit FROM conversions c JOIN commit_modes m ON m.key = c.id::text
     WHERE c.id = ANY($1::uuid[])`,
    [ids],
  );
  const byId = new Map(rows.map((r) => [r.id, [r.xmin, r.synchronous_commit] as [string, string]]));
  return ids.map((id) => byId.get(id));
}

async function uploadOf(id: string): Promise<string | undefined> {
  const { rows } = await pg.query<{ bytes: Buffer }>('SELECT bytes FROM uploads WHERE conversion_id = $1', [id]);
  return rows[0]?.bytes.toString();
}

describe('charges made at once', () => {
  it('When sync conversions of several workspaces are charged at once, then one statement charges them all, each from its own balance, without waiting for the flush', async () => {
    const workspaces = await Promise.all([3, 5, 7].map((credits) => stack.workspace('free', credits)));
    const items = workspaces.map((w, i) => conversion(w.workspaceId, { bytes: Buffer.from(`upload ${i}`) }));
    const charged = await Promise.all(items.map((c) => chargeAndCreateConversion(stack.gateway.db, c)));
    expect(charged.map((c) => ('creditsRemaining' in c ? c.creditsRemaining : c))).toEqual([2, 4, 6]);
    const rows = await written(items.map((c) => c.id));
    expect(new Set(rows.map((r) => r?.[0])).size).toBe(1);
    expect(rows.map((r) => r?.[1])).toEqual(['off', 'off', 'off']);
    expect(await Promise.all(items.map((c) => uploadOf(c.id)))).toEqual(['upload 0', 'upload 1', 'upload 2']);
    for (const w of workspaces) {
      expect(await stack.ledger(w.workspaceId)).toEqual([
        { type: 'grant', amount: expect.any(Number) },
        { type: 'charge', amount: -1 },
      ]);
    }
  });

  it('When an async conversion is charged with sync ones, then their statement waits for the flush', async () => {
    const [a, b] = await Promise.all([stack.workspace('free', 5), stack.workspace('free', 5)]);
    const items = [
      conversion(a!.workspaceId),
      conversion(b!.workspaceId, { mode: 'async', webhookUrl: 'https://receiver.example/hook' }),
    ];
    await Promise.all(items.map((c) => chargeAndCreateConversion(stack.gateway.db, c)));
    const rows = await written(items.map((c) => c.id));
    expect(rows[0]![0]).toBe(rows[1]![0]);
    expect(rows.map((r) => r?.[1])).toEqual(['on', 'on']);
  });

  it('When one workspace is charged twice at once with credits for one, then the second reads the first one`s balance and is refused', async () => {
    const [poor, other] = await Promise.all([stack.workspace('free', 1), stack.workspace('free', 5)]);
    const items = [conversion(poor!.workspaceId), conversion(poor!.workspaceId), conversion(other!.workspaceId)];
    const charged = await Promise.all(items.map((c) => chargeAndCreateConversion(stack.gateway.db, c)));
    expect(charged.map((c) => ('creditsRemaining' in c ? c.creditsRemaining : c))).toEqual([
      0,
      { insufficient: true, available: 0 },
      4,
    ]);
    const rows = await written(items.map((c) => c.id));
    // The refused one created nothing; the workspace's first charge went with the other workspace's.
    expect(rows[1]).toBeUndefined();
    expect(rows[0]![0]).toBe(rows[2]![0]);
    expect(await uploadOf(items[1]!.id)).toBeUndefined();
    expect(await stack.ledger(poor!.workspaceId)).toEqual([
      { type: 'grant', amount: 1 },
      { type: 'charge', amount: -1 },
    ]);
  });

  it('When an upload is over the batch size, then its charge is a statement of its own and stores it intact', async () => {
    const [a, b] = await Promise.all([stack.workspace('free', 5), stack.workspace('free', 5)]);
    const large = Buffer.alloc(UPLOAD_IN_BATCH_MAX_BYTES + 1, 0x61);
    const items = [conversion(a!.workspaceId, { bytes: large }), conversion(b!.workspaceId)];
    await Promise.all(items.map((c) => chargeAndCreateConversion(stack.gateway.db, c)));
    const rows = await written(items.map((c) => c.id));
    expect(rows[0]![0]).not.toBe(rows[1]![0]);
    expect(await uploadOf(items[0]!.id)).toBe(large.toString());
  });
});
