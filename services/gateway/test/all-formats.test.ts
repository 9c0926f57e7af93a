import request from 'supertest';
import { eventually } from '@markwright/test-support';
import { SUPPORTED_EXTENSIONS } from '@markwright/contracts';
import { holdsPhrase, makeSamples } from '../../../packages/conversion/test/samples';
import { bearer, startStack, type Stack } from './stack';

let stack: Stack;
let token: string;
let samples: Record<string, Buffer>;
beforeAll(async () => {
  stack = await startStack();
  ({ token } = await stack.workspace('business', 1000));
  samples = await makeSamples();
}, 120_000);
afterAll(() => stack?.stop());

describe('every extension through the API', () => {
  it.each(SUPPORTED_EXTENSIONS)(
    'When a .%s file is converted synchronously, then the 200 markdown holds its text',
    async (ext) => {
      const res = await request(stack.gateway.url)
        .post('/convert')
        .set(...bearer(token))
        .field('include_metadata', 'true')
        .attach('file', samples[ext]!, `sample.${ext}`);
      expect([ext, res.status]).toEqual([ext, 200]);
      expect([ext, holdsPhrase(res.body.markdown)]).toEqual([ext, true]);
      expect(Object.keys(res.body.metadata)).toEqual(['title', 'author', 'page_count']);
    },
  );

  it('When every extension is converted asynchronously, then each conversion completes and is readable by polling', async () => {
    const ids: Record<string, string> = {};
    for (const ext of SUPPORTED_EXTENSIONS) {
      const res = await request(stack.gateway.url)
        .post('/convert')
        .set(...bearer(token))
        .field('webhook_url', 'https://receiver.invalid/hook')
        .attach('file', samples[ext]!, `sample.${ext}`);
      expect(res.status).toBe(202);
      ids[ext] = res.body.id;
    }
    for (const [ext, id] of Object.entries(ids)) {
      const body = await eventually(async () => {
        const res = await request(stack.gateway.url)
          .get(`/conversions/${id}`)
          .set(...bearer(token));
        return ['completed', 'failed'].includes(res.body.status) ? res.body : undefined;
      }, 120_000);
      expect([ext, body.status]).toEqual([ext, 'completed']);
      expect([ext, holdsPhrase(body.markdown)]).toEqual([ext, true]);
    }
  }, 240_000);

  it('When a .doc upload is not a Word document, then it fails cleanly with 422 conversion_failed and a refund', async () => {
    const res = await request(stack.gateway.url)
      .post('/convert')
      .set(...bearer(token))
      .attach('file', Buffer.from('not a word file'), 'letter.doc');
    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      error: 'conversion_failed',
      message: 'The file is named .doc but is not a Word document: its content is plain text.',
    });
  });
});
