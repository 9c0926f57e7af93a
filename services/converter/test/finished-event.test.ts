import { FINISHED_EVENT_INLINE_MAX_CHARS } from '@markwright/contracts';
import { claimJob, completeConversion, type CompletedResult, failConversion } from '@markwright/db';
import { createTestDb, insertConversion, type TestDb } from '@markwright/test-support';
import { finishedFromStored, finishedState } from '../src/data-access/conversion-store';

/**
 * The converter announces what it has just stored without reading the row back; the waiting
 * sync request answers from that announcement, so it must equal what reading the row gives.
 */
let t: TestDb;
beforeAll(async () => (t = await createTestDb()));
afterAll(() => t?.cleanup());

async function claimedConversion(mode: 'sync' | 'async'): Promise<{ id: string; mode: 'sync' | 'async' }> {
  const id = await insertConversion(t.db, {
    mode,
    originalFilename: 'a.md',
    includeMetadata: true,
    optimizeTokens: true,
  });
  return { id, mode: (await claimJob(t.db, id, 1024))!.mode };
}

const result = (markdown: string): CompletedResult => ({
  markdown,
  metadata: { title: 'T\u0000itle \ud800', author: 'Ann', page_count: 1 },
  tokenOptimization: { original_tokens: 10, optimized_tokens: 7, reduction_percent: 30 },
});

describe('the finished announcement built from what was stored', () => {
  it('When a sync conversion completes, then the announcement equals the row read back, result included', async () => {
    const { id, mode } = await claimedConversion('sync');
    const stored = await completeConversion(t.db, id, result('# T\u0000itle\n\nA \ud83d\ude00 b \udc00\n'));
    const announced = finishedFromStored(mode, { status: 'completed', stored: stored! });
    expect(announced.result?.markdown).toBe('# Title\n\nA \ud83d\ude00 b \ufffd\n');
    expect(announced).toEqual(await finishedState(t.db, id));
  });

  it('When a sync conversion fails, then the announcement equals the row read back, error included', async () => {
    const { id, mode } = await claimedConversion('sync');
    await failConversion(t.db, id, 'bad\u0000 file');
    const announced = finishedFromStored(mode, { status: 'failed', error: 'bad\u0000 file' });
    expect(announced.result?.error).toBe('bad file');
    expect(announced).toEqual(await finishedState(t.db, id));
  });

  it('When an async conversion completes, then the announcement carries no result, as the row read back', async () => {
    const { id, mode } = await claimedConversion('async');
    const stored = await completeConversion(t.db, id, result('text\n'));
    const announced = finishedFromStored(mode, { status: 'completed', stored: stored! });
    expect(announced).toEqual({ status: 'completed', mode: 'async' });
    expect(await finishedState(t.db, id)).toEqual({ status: 'completed', mode: 'async' });
  });

  it('When the Markdown is longer than the inline limit in characters, then the result stays in the row, as the row read back', async () => {
    for (const markdown of [
      'a'.repeat(FINISHED_EVENT_INLINE_MAX_CHARS + 1),
      // Code points, not UTF-16 units: at the limit in characters though twice as long in units.
      '\ud83d\ude00'.repeat(FINISHED_EVENT_INLINE_MAX_CHARS),
    ]) {
      const { id, mode } = await claimedConversion('sync');
      const stored = await completeConversion(t.db, id, result(markdown));
      const announced = finishedFromStored(mode, { status: 'completed', stored: stored! });
      expect(announced).toEqual(await finishedState(t.db, id));
    }
  });

  it('When the row is read back before it finished, then there is nothing to announce; once failed without a sync waiter, no result rides along', async () => {
    const { id } = await claimedConversion('sync');
    expect(await finishedState(t.db, id)).toBeNull();
    const pending = await insertConversion(t.db, { mode: 'async', originalFilename: 'b.md' });
    expect(await finishedState(t.db, pending)).toBeNull();
    await failConversion(t.db, pending, 'gone');
    expect(await finishedState(t.db, pending)).toEqual({ status: 'failed', mode: 'async' });
  });

  it('When the Markdown is exactly at the inline limit in code points, then it rides along both ways (the limit is decided in one place)', async () => {
    const markdown = '\ud83d\ude00'.repeat(FINISHED_EVENT_INLINE_MAX_CHARS - 1) + 'a';
    const { id, mode } = await claimedConversion('sync');
    const stored = await completeConversion(t.db, id, result(markdown));
    const announced = finishedFromStored(mode, { status: 'completed', stored: stored! });
    expect(announced.result?.markdown).toBe(markdown);
    expect(await finishedState(t.db, id)).toEqual(announced);
  });

  it('When a sync conversion asked for pages, chunks and document, then the claim reads the options, they are stored cleaned, and the announcement leaves them to the row', async () => {
    const id = await insertConversion(t.db, { mode: 'sync', originalFilename: 'a.pdf' });
    await t.db.conversion.update({
      where: { id },
      data: { includePages: true, pageRange: '1-2,5', chunkMaxTokens: 128, includeDocument: true },
    });
    const job = (await claimJob(t.db, id, 1024))!;
    expect({
      includePages: job.includePages,
      pageRange: job.pageRange,
      chunkMaxTokens: job.chunkMaxTokens,
      includeDocument: job.includeDocument,
    }).toEqual({ includePages: true, pageRange: '1-2,5', chunkMaxTokens: 128, includeDocument: true });
    const stored = await completeConversion(t.db, id, {
      ...result('# One\n'),
      pages: [{ number: 1, markdown: '# O\u0000ne' }],
      chunks: [{ index: 0, markdown: '# One', tokens: 2, pages: [1], headings: [] }],
      document: { version: 1, blocks: [{ type: 'heading', level: 1, content: [{ type: 'text', text: 'One' }] }] },
    });
    const row = await t.db.conversion.findUniqueOrThrow({ where: { id } });
    expect(row.pages).toEqual([{ number: 1, markdown: '# One' }]);
    expect(row.chunks).toEqual(stored!.chunks);
    expect(row.document).toEqual(stored!.document);
    const announced = finishedFromStored(job.mode, { status: 'completed', stored: stored! });
    expect(announced).toEqual({ status: 'completed', mode: 'sync' });
    expect(await finishedState(t.db, id)).toEqual(announced);
  });

  it('When a conversion asked for nothing new, then its options read as absent and nothing new is stored', async () => {
    const { id, mode } = await claimedConversion('sync');
    const row = await t.db.conversion.findUniqueOrThrow({ where: { id } });
    expect([row.includePages, row.pageRange, row.chunkMaxTokens, row.includeDocument]).toEqual([
      false,
      null,
      null,
      false,
    ]);
    await completeConversion(t.db, id, result('text\n'));
    const done = await t.db.conversion.findUniqueOrThrow({ where: { id } });
    expect([done.pages, done.chunks, done.document]).toEqual([null, null, null]);
    expect(mode).toBe('sync');
  });
});
