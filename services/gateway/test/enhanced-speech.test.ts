import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { startTranscriptionServer } from '@markwright/test-support';
import { bearer, startStack, type Stack } from './stack';

let stack: Stack;
let speech: Awaited<ReturnType<typeof startTranscriptionServer>>;
let audio: Buffer;
beforeAll(async () => {
  speech = await startTranscriptionServer({
    status: 200,
    body: { segments: [{ start: 0, end: 2, text: 'Hello from the transcription server.' }] },
  });
  stack = await startStack({ env: { TRANSCRIPTION_BASE_URL: speech.url, TRANSCRIPTION_MODEL: 'whisper-tiny' } });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mw-speech-'));
  execFileSync('flite', ['-voice', 'slt', '-t', 'Hello world.', '-o', path.join(dir, 'a.wav')]);
  audio = fs.readFileSync(path.join(dir, 'a.wav'));
  fs.rmSync(dir, { recursive: true, force: true });
});
afterAll(async () => {
  await stack?.stop();
  await speech?.close();
});

describe('enhanced audio with a configured transcription endpoint', () => {
  it('When an enhanced .wav conversion runs, then the answer is the endpoint’s transcription, asked for with the configured model', async () => {
    const { token } = await stack.workspace('starter', 10);
    const res = await request(stack.gateway.url)
      .post('/convert')
      .set(...bearer(token))
      .field('use_enhanced_ai', 'true')
      .attach('file', audio, 'greeting.wav');
    expect(res.status).toBe(200);
    expect(res.body.markdown).toBe('[00:00] Hello from the transcription server.\n');
    expect(speech.requests).toHaveLength(1);
    expect(speech.requests[0]!.body.toString('latin1')).toMatch(/name="model"\r\n\r\nwhisper-tiny\r\n/);
  });
});
