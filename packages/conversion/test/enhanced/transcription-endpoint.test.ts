import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startTranscriptionServer as transcriptionServer } from '@markwright/test-support';
import { convertDocument } from '../../src';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'mw-transcription-test-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));
const wav = path.join(tmp, 'hello.wav');
execFileSync('flite', ['-voice', 'slt', '-t', 'Hello world. This is a test of speech recognition.', '-o', wav]);
const audio = fs.readFileSync(wav);

const segments = {
  text: 'Hello world. This is a test of speech recognition.',
  segments: [
    { start: 0, end: 1.1, text: ' Hello world.' },
    { start: 1.3, end: 3.4, text: ' This is a test of speech recognition.' },
  ],
};

describe('enhanced mode speech endpoint', () => {
  it('When an endpoint is configured, then enhanced audio is its transcription with timestamps, sent as 16 kHz WAV with model and key', async () => {
    const server = await transcriptionServer({ status: 200, body: segments });
    try {
      const result = await convertDocument(audio, 'wav', {
        enhanced: true,
        transcriptionEndpoint: { baseUrl: server.url, model: 'whisper-small', apiKey: 'k-9', timeoutMs: 10_000 },
      });
      expect(result.markdown).toBe('[00:00] Hello world. This is a test of speech recognition.\n');
      expect(server.requests).toHaveLength(1);
      const request = server.requests[0]!;
      expect(request.url).toBe('/v1/audio/transcriptions');
      expect(request.headers.authorization).toBe('Bearer k-9');
      expect(request.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
      const body = request.body.toString('latin1');
      expect(body).toMatch(/name="model"\r\n\r\nwhisper-small\r\n/);
      expect(body).toMatch(/name="response_format"\r\n\r\nverbose_json\r\n/);
      // The file part is the decoded chunk: a RIFF/WAVE header declaring 16,000 Hz mono.
      const riff = request.body.indexOf('RIFF');
      expect(request.body.toString('ascii', riff + 8, riff + 12)).toBe('WAVE');
      expect(request.body.readUInt16LE(riff + 22)).toBe(1);
      expect(request.body.readUInt32LE(riff + 24)).toBe(16_000);
    } finally {
      await server.close();
    }
  });

  it('When a segment starts after a long pause, then it starts a new timestamped paragraph', async () => {
    const server = await transcriptionServer({
      status: 200,
      body: { segments: [...segments.segments, { start: 6, end: 7, text: 'After a pause.' }] },
    });
    try {
      const result = await convertDocument(audio, 'wav', {
        enhanced: true,
        transcriptionEndpoint: { baseUrl: server.url, model: 'm', timeoutMs: 10_000 },
      });
      expect(result.markdown).toBe(
        '[00:00] Hello world. This is a test of speech recognition.\n\n[00:06] After a pause.\n',
      );
    } finally {
      await server.close();
    }
  });

  it('When the conversion is standard, then the endpoint is not called and the offline engine transcribes', async () => {
    const server = await transcriptionServer({ status: 200, body: segments });
    try {
      const result = await convertDocument(audio, 'wav', {
        enhanced: false,
        transcriptionEndpoint: { baseUrl: server.url, model: 'm', timeoutMs: 10_000 },
      });
      expect(server.requests).toHaveLength(0);
      expect(result.markdown.toLowerCase()).toContain('hello');
    } finally {
      await server.close();
    }
  });

  it.each([
    ['answers 500', { status: 500, body: { error: 'overloaded' } }],
    ['answers without text', { status: 200, body: { text: '' } }],
    ['does not answer within its timeout', { status: 200, body: segments, delayMs: 5_000 }],
  ])('When the endpoint %s, then the offline transcription is kept', async (_case, answer) => {
    const server = await transcriptionServer(answer);
    try {
      const result = await convertDocument(audio, 'wav', {
        enhanced: true,
        transcriptionEndpoint: { baseUrl: server.url, model: 'm', timeoutMs: 300 },
      });
      expect(server.requests).toHaveLength(1);
      expect(result.markdown).toMatch(/^\[00:00\] /);
      expect(result.markdown.toLowerCase()).toContain('hello');
    } finally {
      await server.close();
    }
  });
});
