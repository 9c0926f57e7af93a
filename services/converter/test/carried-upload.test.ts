import { uuidv7 } from '@markwright/db';
import type { CarriedUpload } from '@markwright/contracts';
import { silentLogger } from '@markwright/test-support';
import { newConversion, startStack, type Stack } from '../../gateway/test/stack';
import { chargeAndCreateConversion } from '../../gateway/src/data-access/conversion-repository';
import type { FinishedState } from '../src/data-access/conversion-store';
import { runConversion, type RunDeps } from '../src/domain/run-conversion';
import { RunningConversions } from '../src/domain/running-conversions';
import { WorkSlots } from '../src/domain/work-slots';

let stack: Stack;
beforeAll(async () => {
  // No converter of the stack's own: this file runs the jobs itself.
  stack = await startStack({ converter: false });
});
afterAll(() => stack?.stop());

/** A pending sync conversion of `bytes`, as the gateway's charge creates it: with its upload stored, or not when its job carries it. */
async function pendingSync(bytes: Buffer, name: string, stored = true): Promise<string> {
  const { workspaceId } = await stack.workspace('starter', 10);
  const id = uuidv7();
  await chargeAndCreateConversion(
    stack.gateway.db,
    newConversion(workspaceId, {
      id,
      originalFilename: name,
      fileSizeBytes: bytes.length,
      bytes: stored ? bytes : null,
    }),
  );
  return id;
}

function depsWith(announced: Array<FinishedState | undefined>): RunDeps {
  return {
    db: stack.gateway.db,
    logger: silentLogger,
    limits: { timeoutMs: 30_000, maxMemoryMb: 256 },
    slots: new WorkSlots(1, 1024 * 1024),
    announce: async (_id, known) => void announced.push(known),
    observe: { finished: () => undefined, refunded: () => undefined },
    running: new RunningConversions(),
  };
}

const carried = (bytes: Buffer, name: string): CarriedUpload => ({
  originalFilename: name,
  extension: 'txt',
  bytes: bytes.toString('base64'),
});

async function rowOf(id: string) {
  const row = await stack.gateway.db.conversion.findUniqueOrThrow({ where: { id } });
  const upload = await stack.gateway.db.upload.findUnique({ where: { conversionId: id } });
  return { ...row, uploadLeft: upload !== null };
}

describe('A sync job that carries its small upload', () => {
  const text = Buffer.from(`# Title\n\n${'The quick brown fox jumps over the lazy dog. '.repeat(23).slice(0, 1024)}`);

  it('When it is plain text, then one statement takes the row from pending to completed, with what a claimed job stores and announces', async () => {
    const claimedId = await pendingSync(text, 'small.txt');
    const carriedId = await pendingSync(text, 'small.txt', false);
    const claimedAnnounced: Array<FinishedState | undefined> = [];
    const carriedAnnounced: Array<FinishedState | undefined> = [];

    await runConversion(depsWith(claimedAnnounced), claimedId);
    await runConversion(depsWith(carriedAnnounced), carriedId, undefined, carried(text, 'small.txt'));

    const claimed = await rowOf(claimedId);
    const row = await rowOf(carriedId);
    // The claim's own transaction started earlier than the completion's: only one statement sets both to its now().
    expect(claimed.startedAt!.getTime()).toBeLessThan(claimed.completedAt!.getTime());
    expect(row.startedAt).toEqual(row.completedAt);
    const stored = (r: typeof row) => ({
      status: r.status,
      markdown: r.markdown,
      metadata: r.metadata,
      tokenOptimization: r.tokenOptimization,
      uploadLeft: r.uploadLeft,
    });
    expect(stored(row)).toEqual(stored(claimed));
    expect(stored(row)).toMatchObject({ status: 'completed', uploadLeft: false });
    expect(carriedAnnounced).toEqual(claimedAnnounced);
    expect(carriedAnnounced[0]).toMatchObject({ status: 'completed', mode: 'sync' });
  });

  it('When its bytes are not plain text, then it is claimed and converted from the carried bytes as any job', async () => {
    const binary = Buffer.from([0x00, 0x01, 0x02, 0xff, 0xfe, 0x00, 0x10, 0x20]);
    const claimedId = await pendingSync(binary, 'odd.txt');
    const carriedId = await pendingSync(binary, 'odd.txt', false);

    await runConversion(depsWith([]), claimedId);
    await runConversion(depsWith([]), carriedId, undefined, carried(binary, 'odd.txt'));

    const claimed = await rowOf(claimedId);
    const row = await rowOf(carriedId);
    expect(row.startedAt!.getTime()).toBeLessThan(row.completedAt!.getTime());
    expect({ status: row.status, error: row.error, markdown: row.markdown }).toEqual({
      status: claimed.status,
      error: claimed.error,
      markdown: claimed.markdown,
    });
  });

  it('When the conversion finished before the job came (a sync timeout), then the late result is dropped and the row is announced as it is', async () => {
    const id = await pendingSync(text, 'late.txt', false);
    await stack.gateway.db.conversion.update({
      where: { id },
      data: { status: 'failed', error: 'The conversion did not finish within 60 seconds.', completedAt: new Date() },
    });
    const announced: Array<FinishedState | undefined> = [];

    await runConversion(depsWith(announced), id, undefined, carried(text, 'late.txt'));

    const row = await rowOf(id);
    expect({ status: row.status, markdown: row.markdown }).toEqual({ status: 'failed', markdown: null });
    // Nothing known to announce: the announcer reads the finished row.
    expect(announced).toEqual([undefined]);
  });
});
