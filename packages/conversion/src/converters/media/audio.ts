import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Converter } from '../../types';
import { ConversionError } from '../../types';
import { text } from '../../markdown/model';
import { documentOutput } from '../../markdown/writer';
import { transcribeWithEndpoint, type TranscribedSegment } from '../../enhanced/transcription-endpoint';

const run = promisify(execFile);
const MODEL_DIR = '/usr/share/pocketsphinx/model/en-us';
/** Audio is transcribed in chunks of this many seconds, so memory stays bounded on long files. */
const CHUNK_SECONDS = 300;
/** A pause this long (seconds) between words starts a new paragraph. */
const PARAGRAPH_PAUSE = 1.2;
/** Past this many seconds a paragraph ends at the next short pause (a sentence gap), so long speech gets timestamps. */
const PARAGRAPH_SOFT_SECONDS = 30;
/** A gap between words at least this long (seconds) is a pause between sentences. */
const SENTENCE_PAUSE = 0.05;
/** A paragraph never runs longer than this many seconds without a pause. */
const PARAGRAPH_HARD_SECONDS = 60;
const TOOL_TIMEOUT_MS = 10 * 60_000;

interface Word {
  /** A word, or (from a transcription endpoint) a whole segment of speech. */
  word: string;
  start: number;
  end: number;
  /** Seconds since the previous word ended (silence and fillers). */
  pause: number;
}

/**
 * wav, mp3, m4a: ffmpeg decodes to 16 kHz mono, CMU PocketSphinx (Debian's pocketsphinx and its
 * US-English model, both offline) transcribes chunk by chunk; paragraphs start at pauses and
 * carry [mm:ss] timestamps. Title and artist come from the file's tags. In enhanced mode with a
 * transcription endpoint configured, each chunk goes there first; a chunk it fails is transcribed offline.
 */
export const audioConverter: Converter = {
  name: 'audio',
  extensions: ['wav', 'mp3', 'm4a'],
  async convert(input, options) {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'mw-audio-'));
    try {
      const source = path.join(dir, 'in');
      await fs.writeFile(source, input);
      const tags = await probe(source);
      const paragraphs: Array<{ at: number; words: string[] }> = [];
      for (let offset = 0; offset < Math.max(tags.duration, 0.1); offset += CHUNK_SECONDS) {
        const chunk = path.join(dir, `chunk.wav`);
        await tool('ffmpeg', [
          '-v',
          'error',
          '-y',
          '-ss',
          String(offset),
          '-t',
          String(CHUNK_SECONDS),
          '-i',
          source,
          '-ar',
          '16000',
          '-ac',
          '1',
          '-f',
          'wav',
          chunk,
        ]);
        const remote =
          options.enhanced && options.transcriptionEndpoint
            ? await transcribeWithEndpoint(await fs.readFile(chunk), options.transcriptionEndpoint)
            : undefined;
        for (const w of remote ? segmentsAsWords(remote) : await transcribe(chunk)) {
          const at = w.start + offset;
          const current = paragraphs[paragraphs.length - 1];
          const length = current ? at - current.at : 0;
          const breakHere =
            !current ||
            w.pause >= PARAGRAPH_PAUSE ||
            (length >= PARAGRAPH_SOFT_SECONDS && w.pause >= SENTENCE_PAUSE) ||
            length >= PARAGRAPH_HARD_SECONDS;
          if (breakHere) paragraphs.push({ at, words: [] });
          paragraphs[paragraphs.length - 1]!.words.push(w.word);
        }
        await fs.rm(chunk, { force: true });
      }
      const blocks = paragraphs.map((p) => ({
        type: 'paragraph' as const,
        // The bracketed time is the transcript's own notation (docs/decisions.md), not link syntax to escape.
        text: [{ type: 'raw' as const, markdown: `[${timestamp(p.at)}] ` }, text(p.words.join(' '))],
      }));
      return documentOutput(blocks, { title: tags.title, author: tags.artist, page_count: 1 });
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  },
};

async function tool(cmd: string, args: string[]): Promise<string> {
  try {
    const { stdout } = await run(cmd, args, { timeout: TOOL_TIMEOUT_MS, maxBuffer: 64 * 1024 * 1024 });
    return stdout;
  } catch (err) {
    const e = err as NodeJS.ErrnoException & { stderr?: string };
    if (e.code === 'ENOENT')
      throw new ConversionError(
        'not_implemented',
        `Audio conversion needs ${cmd}, which is not installed (run scripts/setup.sh).`,
      );
    throw new ConversionError(
      'corrupt_file',
      `The audio could not be decoded: ${(e.stderr ?? e.message).split('\n')[0]}`,
    );
  }
}

async function probe(file: string): Promise<{ duration: number; title: string; artist: string }> {
  const out = JSON.parse(await tool('ffprobe', ['-v', 'error', '-print_format', 'json', '-show_format', file])) as {
    format?: { duration?: string; tags?: Record<string, string> };
  };
  const tags = Object.fromEntries(Object.entries(out.format?.tags ?? {}).map(([k, v]) => [k.toLowerCase(), v]));
  const duration = Number(out.format?.duration ?? 0);
  if (!out.format) throw new ConversionError('corrupt_file', 'The file is not a readable audio file.');
  return {
    duration: Number.isFinite(duration) ? duration : 0,
    title: tags.title ?? '',
    artist: tags.artist ?? tags.album_artist ?? '',
  };
}

/** PocketSphinx word timings ("word start end prob" lines); fillers and silences dropped. */
async function transcribe(wav: string): Promise<Word[]> {
  const out = await tool('pocketsphinx_continuous', [
    '-infile',
    wav,
    '-hmm',
    path.join(MODEL_DIR, 'en-us'),
    '-lm',
    path.join(MODEL_DIR, 'en-us.lm.bin'),
    '-dict',
    path.join(MODEL_DIR, 'cmudict-en-us.dict'),
    '-time',
    'yes',
    '-logfn',
    '/dev/null',
  ]);
  const words: Word[] = [];
  let lastEnd = 0;
  for (const line of out.split('\n')) {
    const m = /^(\S+) (\d+\.\d+) (\d+\.\d+) [\d.]+$/.exec(line.trim());
    if (!m) continue;
    const [start, end] = [Number(m[2]), Number(m[3])];
    // <s>, </s>, <sil>, [NOISE], ++FILLER++ are time without words: they count into the pause.
    if (/^<|^\[|^\+\+/.test(m[1]!)) continue;
    words.push({ word: m[1]!.replace(/\(\d+\)$/, ''), start, end, pause: words.length ? start - lastEnd : 0 });
    lastEnd = end;
  }
  return words;
}

/** Segments as timed "words", so paragraphs and timestamps follow the same rules as offline words. */
function segmentsAsWords(segments: TranscribedSegment[]): Word[] {
  return segments.map((segment, i) => ({
    word: segment.text,
    start: segment.start,
    end: segment.end,
    pause: i ? Math.max(0, segment.start - segments[i - 1]!.end) : 0,
  }));
}

function timestamp(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  return `${String(Math.floor(s / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
}
