import amqplib from 'amqplib';
import request from 'supertest';
import { eventually } from '@markwright/test-support';
import { type ConversionJob, conversionJobSchema, decode, topologyNames } from '@markwright/contracts';
import { bearer, startStack, type Stack } from './stack';

let stack: Stack;
let conn: amqplib.ChannelModel;
let ch: amqplib.Channel;
beforeAll(async () => {
  // No converter: this file reads the jobs queue itself; each sync request then ends at the deadline.
  stack = await startStack({ converter: false, env: { SYNC_TIMEOUT_MS: '1000' } });
  conn = await amqplib.connect(stack.env.config.AMQP_URL);
  ch = await conn.createChannel();
});
afterAll(async () => {
  await conn?.close();
  await stack?.stop();
});

/**
 * The job message a sync request publishes (taken off the queue), whether its conversion's row
 * holds the upload then (before the request's deadline, which fails the row and deletes it), and
 * the request's own status.
 */
async function jobOf(
  fields: Record<string, string>,
  file: Buffer,
  name: string,
): Promise<[ConversionJob, boolean, number]> {
  const { token } = await stack.workspace('starter', 10);
  let post = request(stack.gateway.url)
    .post('/convert')
    .set(...bearer(token));
  for (const [field, value] of Object.entries(fields)) post = post.field(field, value);
  const answered = post.attach('file', file, name).then((res) => res.status);
  const message = await eventually(async () => (await ch.get(topologyNames(stack.env.prefix).jobsQueue)) || undefined);
  ch.ack(message);
  const job = decode(conversionJobSchema, message.content)!;
  const stored = await stack.gateway.db.upload.findUnique({ where: { conversionId: job.conversionId } });
  return [job, stored !== null, await answered];
}

describe('The job message of a sync request', () => {
  const text = Buffer.from('The quick brown fox jumps over the lazy dog. '.repeat(23).slice(0, 1024));

  it('When it is a plain 1 KB .txt, then the job carries the upload, its name and extension, and PostgreSQL does not hold it', async () => {
    const [job, stored] = await jobOf({ include_metadata: 'true' }, text, 'small.txt');
    expect(job.upload).toEqual({ originalFilename: 'small.txt', extension: 'txt', bytes: text.toString('base64') });
    expect(stored).toBe(false);
  });

  it('When the .txt is over 4 KB, asks for optimize_tokens or is not a .txt, then the job names the conversion only and PostgreSQL holds the upload', async () => {
    const jobs = [
      await jobOf({}, Buffer.alloc(4 * 1024 + 1, 'a'), 'large.txt'),
      await jobOf({ optimize_tokens: 'true' }, text, 'small.txt'),
      await jobOf({}, text, 'small.md'),
    ];
    expect(jobs.map(([job, stored]) => [Object.keys(job), stored])).toEqual([
      [['conversionId'], true],
      [['conversionId'], true],
      [['conversionId'], true],
    ]);
  });
});
