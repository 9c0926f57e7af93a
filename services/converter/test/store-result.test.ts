import { Client } from 'pg';
import request from 'supertest';
import { bearer, startStack, type Stack } from '../../gateway/test/stack';
import { RESULT_NOT_STORED } from '../src/domain/run-conversion';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack?.stop());

describe('storing a result', () => {
  it('When a text file contains NUL characters, then it converts and the stored Markdown has them removed', async () => {
    const { token } = await stack.workspace('starter', 10);
    const res = await request(stack.gateway.url)
      .post('/convert')
      .set(...bearer(token))
      .attach('file', Buffer.from('before\u0000after\n'), 'nul.txt');
    expect(res.status).toBe(200);
    expect(res.body.markdown).toBe('beforeafter\n');
  });

  it('When a title holds NUL and metadata is asked for, then the stored metadata has it removed too', async () => {
    const { token } = await stack.workspace('starter', 10);
    const res = await request(stack.gateway.url)
      .post('/convert')
      .set(...bearer(token))
      .field('include_metadata', 'true')
      .attach('file', Buffer.from('# Ti\u0000tle\n'), 'nul.md');
    expect(res.status).toBe(200);
    expect({ markdown: res.body.markdown, title: res.body.metadata.title }).toEqual({
      markdown: '# Title\n',
      title: 'Title',
    });
  });

  it('When the database refuses a result, then the conversion fails once with an honest message and a refund, without being converted again', async () => {
    // A real refusal from PostgreSQL, in this file's own database: a check the stored Markdown breaks.
    const admin = new Client({ connectionString: stack.env.config.DATABASE_URL });
    await admin.connect();
    await admin.query(
      `ALTER TABLE conversions ADD CONSTRAINT test_refuses_marker CHECK (markdown IS NULL OR markdown NOT LIKE '%REFUSED-BY-DB%')`,
    );
    try {
      const { token, workspaceId } = await stack.workspace('starter', 10);
      const res = await request(stack.gateway.url)
        .post('/convert')
        .set(...bearer(token))
        .attach('file', Buffer.from('# REFUSED-BY-DB\n'), 'refused.md');
      expect(res.status).toBe(422);
      expect(res.body.message).toContain(RESULT_NOT_STORED);
      const row = await stack.gateway.db.conversion.findFirstOrThrow({ where: { workspaceId } });
      // A redelivered job would have ended as "stopped its worker repeatedly".
      expect({ status: row.status, error: row.error }).toEqual({ status: 'failed', error: RESULT_NOT_STORED });
      expect((await stack.ledger(workspaceId)).map((r) => r.type)).toEqual(['grant', 'charge', 'refund']);
    } finally {
      await admin.query('ALTER TABLE conversions DROP CONSTRAINT test_refuses_marker');
      await admin.end();
    }
  });
});
