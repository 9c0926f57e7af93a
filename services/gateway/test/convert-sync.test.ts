import request from 'supertest';
import { FINISHED_EVENT_INLINE_MAX_CHARS } from '@markwright/contracts';
import { bearer, startStack, type Stack } from './stack';

let stack: Stack;
const realSetTimeout = global.setTimeout;
const realClearTimeout = global.clearTimeout;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack?.stop());

describe('POST /convert, synchronous', () => {
  it('When a sync conversion has been answered, then the timer of its row poll is not left running', async () => {
    const { token } = await stack.workspace('starter', 10);
    const started = new Map<unknown, number>();
    const cleared = new Set<unknown>();
    const setTimer = jest.spyOn(global, 'setTimeout').mockImplementation(((
      fn: (...args: unknown[]) => void,
      ms?: number,
      ...args: unknown[]
    ) => {
      const timer = realSetTimeout(fn, ms, ...args);
      started.set(timer, ms ?? 0);
      return timer;
    }) as typeof setTimeout);
    const clearTimer = jest.spyOn(global, 'clearTimeout').mockImplementation((timer) => {
      cleared.add(timer);
      realClearTimeout(timer as NodeJS.Timeout);
    });
    try {
      const res = await request(stack.gateway.url)
        .post('/convert')
        .set(...bearer(token))
        .attach('file', Buffer.from('polled\n'), 'poll.txt');
      expect(res.status).toBe(200);
    } finally {
      setTimer.mockRestore();
      clearTimer.mockRestore();
    }
    // The poll waits SYNC_POLL_MS (2 s); every such timer of the request was cleared with its answer.
    const polls = [...started].filter(([, ms]) => ms === 2_000).map(([timer]) => timer);
    expect(polls.length).toBeGreaterThan(0);
    expect(polls.filter((timer) => !cleared.has(timer))).toEqual([]);
  });
  it('When the markdown is longer than the finished event carries, then the answer still holds all of it', async () => {
    const { token } = await stack.workspace('starter', 10);
    const paragraph = 'A line of plain text that is long enough to fill the document quickly.\n\n';
    const text = paragraph.repeat(Math.ceil((FINISHED_EVENT_INLINE_MAX_CHARS + 1000) / paragraph.length));
    const res = await request(stack.gateway.url)
      .post('/convert')
      .set(...bearer(token))
      .attach('file', Buffer.from(text), 'long.txt');
    expect(res.status).toBe(200);
    expect(res.body.markdown.length).toBeGreaterThan(FINISHED_EVENT_INLINE_MAX_CHARS);
    expect(res.body.markdown).toBe(text.trimEnd() + '\n');
  });

  it('When a Markdown file converts, then it answers 200 with exactly success, markdown, credits_used, credits_remaining', async () => {
    const { token } = await stack.workspace('starter', 10);
    const res = await request(stack.gateway.url)
      .post('/convert')
      .set(...bearer(token))
      .attach('file', Buffer.from('# Title\n\nBody text.\n'), 'note.md');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      markdown: '# Title\n\nBody text.\n',
      credits_used: 1,
      credits_remaining: 9,
    });
  });

  it('When include_metadata is true, then metadata has title, author and page_count', async () => {
    const { token } = await stack.workspace('starter', 10);
    const html =
      '<html><head><title>Quarterly</title><meta name="author" content="Lee"></head><body><p>x</p></body></html>';
    const res = await request(stack.gateway.url)
      .post('/convert')
      .set(...bearer(token))
      .field('include_metadata', 'true')
      .attach('file', Buffer.from(html), 'q.html');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      markdown: 'x\n',
      credits_used: 1,
      credits_remaining: 9,
      metadata: { title: 'Quarterly', author: 'Lee', page_count: 1 },
    });
  });

  it('When optimize_tokens is true, then the optimized markdown and o200k token counts are returned', async () => {
    const { token } = await stack.workspace('starter', 10);
    const res = await request(stack.gateway.url)
      .post('/convert')
      .set(...bearer(token))
      .field('optimize_tokens', 'true')
      .attach('file', Buffer.from('a,b\n1,2\n3,4\n'), 't.csv');
    expect(res.status).toBe(200);
    expect(res.body.markdown).toBe('|a|b|\n|-|-|\n|1|2|\n|3|4|\n');
    const t = res.body.token_optimization;
    expect(Object.keys(t)).toEqual(['original_tokens', 'optimized_tokens', 'reduction_percent']);
    expect(t.optimized_tokens).toBeLessThan(t.original_tokens);
    expect(t.reduction_percent).toBe(
      Math.round((10000 * (t.original_tokens - t.optimized_tokens)) / t.original_tokens) / 100,
    );
  });

  it('When the file is corrupt, then it answers 422 conversion_failed and the credit is refunded as its own row', async () => {
    const { token, workspaceId } = await stack.workspace('starter', 10);
    const res = await request(stack.gateway.url)
      .post('/convert')
      .set(...bearer(token))
      .attach('file', Buffer.from('{"broken": '), 'data.json');
    expect(res.status).toBe(422);
    expect(res.body.error).toBe('conversion_failed');
    expect(res.body.message).toMatch(/^The JSON file is not valid JSON/);
    expect(Object.keys(res.body)).toEqual(['error', 'message']);
    const ws = await stack.gateway.db.workspace.findUniqueOrThrow({ where: { id: workspaceId } });
    expect(ws.creditBalance).toBe(10);
    expect(await stack.ledger(workspaceId)).toEqual([
      { type: 'grant', amount: 10 },
      { type: 'charge', amount: -1 },
      { type: 'refund', amount: 1 },
    ]);
  });

  it('When the balance is below the cost, then it answers 402 insufficient_credits with required and available', async () => {
    const { token } = await stack.workspace('starter', 2);
    const res = await request(stack.gateway.url)
      .post('/convert')
      .set(...bearer(token))
      .field('use_enhanced_ai', 'true')
      .attach('file', Buffer.from('x'), 'a.txt');
    expect(res.status).toBe(402);
    expect(res.body).toEqual({
      error: 'insufficient_credits',
      message: 'This conversion costs 3 credits but the workspace has 2.',
      credits_required: 3,
      credits_available: 2,
    });
  });

  it.each([
    ['free', false, 1],
    ['free', true, 3],
    ['starter', true, 3],
    ['professional', true, 2],
    ['business', true, 2],
    ['business', false, 1],
  ] as const)('When the plan is %s and enhanced is %s, then the conversion costs %i', async (plan, enhanced, cost) => {
    const { token } = await stack.workspace(plan, 10);
    const res = await request(stack.gateway.url)
      .post('/convert')
      .set(...bearer(token))
      .field('use_enhanced_ai', String(enhanced))
      .attach('file', Buffer.from('hello'), 'a.txt');
    expect(res.status).toBe(200);
    expect(res.body.credits_used).toBe(cost);
    expect(res.body.credits_remaining).toBe(10 - cost);
  });

  it('When 50 requests race for a balance of 10, then exactly 10 are accepted and the balance ends at 0', async () => {
    const { token, workspaceId } = await stack.workspace('business', 10);
    const responses = await Promise.all(
      Array.from({ length: 50 }, () =>
        request(stack.gateway.url)
          .post('/convert')
          .set(...bearer(token))
          .field('webhook_url', 'https://receiver.invalid/hook')
          .attach('file', Buffer.from('hello'), 'a.txt'),
      ),
    );
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 202)).toHaveLength(10);
    expect(statuses.filter((s) => s === 402)).toHaveLength(40);
    const ws = await stack.gateway.db.workspace.findUniqueOrThrow({ where: { id: workspaceId } });
    expect(ws.creditBalance).toBe(0);
    expect(await stack.gateway.db.creditTransaction.count({ where: { workspaceId, type: 'charge' } })).toBe(10);
  });
});
