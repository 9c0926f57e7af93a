import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Reader } from '../reader';
import { ConversionError } from '../../types';
import { text } from '../../document/model';
import { transcribeWithEndpoint, type TranscribedSegment } from '../../enhanced/transcription-endpoint';
import { moonshineInstalled, moonshineStretches } from './moonshine';

const run = promisify(execFile);
const MODEL_DIR = '/usr/share/pocketsphinx/model/en-us';
/** Audio is transcribed in chunks of about this many seconds, so memory stays bounded on long files. */
const CHUNK_SECONDS = 300;
/** A chunk may run this much longer (seconds, the longest stretch of sound), so it ends in a silence, not inside a word. */
const SEAM_SECONDS = 30;
/** A pause this long (seconds) between words starts a new paragraph. */
export const PARAGRAPH_PAUSE = 1.2;
/** A paragraph that would run past this many seconds ends at the next short pause (a sentence gap), so long speech gets timestamps. */
const PARAGRAPH_SOFT_SECONDS = 30;
/** A gap between words at least this long (seconds) is a pause between sentences. */
const SENTENCE_PAUSE = 0.05;
/** A paragraph never runs longer than this many seconds without a pause. */
const PARAGRAPH_HARD_SECONDS = 60;
const TOOL_TIMEOUT_MS = 10 * 60_000;
/** ffmpeg's output arguments for what both speech engines read: 16 kHz mono WAV. */
export const SPEECH_WAV = ['-ar', '16000', '-ac', '1', '-f', 'wav'];

export interface Word {
  /** A word, or (from a transcription endpoint) a whole segment of speech. */
  word: string;
  start: number;
  end: number;
  /** Seconds since the previous word ended (silence and fillers). */
  pause: number;
}

/**
 * wav, mp3, m4a: ffmpeg decodes to 16 kHz mono, Moonshine (an ONNX model installed with the npm
 * dependencies; `moonshine.ts`) transcribes chunk by chunk, each stretch of sound between silences
 * as its own utterance, and CMU PocketSphinx (Debian's pocketsphinx and its US-English model) does
 * when Moonshine is not installed or fails on a chunk; paragraphs start at pauses and
 * carry [mm:ss] timestamps. Title and artist come from the file's tags. In enhanced mode with a
 * transcription endpoint configured, each chunk goes there first; a chunk it fails is transcribed offline.
 */
export const audioReader: Reader = {
  name: 'audio',
  async read(input, options) {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'mw-audio-'));
    try {
      const source = path.join(dir, 'in');
      await fs.writeFile(source, input);
      const tags = await probe(source);
      const paragraphs: Array<{ at: number; words: string[] }> = [];
      let lastEnd: number | undefined;
      for (let offset = 0, kept = 0; offset < Math.max(tags.duration, 0.1); offset += kept) {
        const chunk = path.join(dir, `chunk.wav`);
        const decode = (filters: string[]) =>
          tool('ffmpeg', [
            '-v',
            'error',
            '-y',
            '-ss',
            String(offset),
            '-t',
            String(CHUNK_SECONDS + SEAM_SECONDS),
            '-i',
            source,
            ...filters,
            ...SPEECH_WAV,
            chunk,
          ]);
        await decode([]);
        // Channels in opposite phase (a wrongly wired microphone) cancel in the mix: the first one alone is heard.
        if (tags.channels > 1 && !(await hasSound(chunk))) await decode(['-af', 'pan=mono|c0=c0']);
        kept = await keepUntilSeam(chunk);
        const remote =
          options.enhanced && options.transcriptionEndpoint
            ? await transcribeWithEndpoint(await fs.readFile(chunk), options.transcriptionEndpoint)
            : undefined;
        for (const [i, w] of (remote ? segmentsAsWords(remote) : await transcribeOffline(chunk)).entries()) {
          const at = w.start + offset;
          // A chunk's first piece counts its pause from the previous chunk's last one.
          const pause = i === 0 && lastEnd !== undefined ? at - lastEnd : w.pause;
          lastEnd = w.end + offset;
          const current = paragraphs[paragraphs.length - 1];
          const length = current ? at - current.at : 0;
          // Measured to the piece's end: a Moonshine piece is a whole stretch of sound, up to 30 s.
          const lengthWith = current ? w.end + offset - current.at : 0;
          const breakHere =
            !current ||
            pause >= PARAGRAPH_PAUSE ||
            (lengthWith >= PARAGRAPH_SOFT_SECONDS && pause >= SENTENCE_PAUSE) ||
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
      return { blocks, metadata: { title: tags.title, author: tags.artist, page_count: 1 } };
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

async function probe(file: string): Promise<{ duration: number; title: string; artist: string; channels: number }> {
  const out = JSON.parse(
    await tool('ffprobe', ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', file]),
  ) as {
    format?: { duration?: string; tags?: Record<string, string> };
    streams?: Array<{ codec_type?: string; channels?: number }>;
  };
  const tags = Object.fromEntries(Object.entries(out.format?.tags ?? {}).map(([k, v]) => [k.toLowerCase(), v]));
  const duration = Number(out.format?.duration ?? 0);
  if (!out.format) throw new ConversionError('corrupt_file', 'The file is not a readable audio file.');
  return {
    duration: Number.isFinite(duration) ? duration : 0,
    title: tags.title ?? '',
    artist: tags.artist ?? tags.album_artist ?? '',
    channels: Math.max(
      0,
      ...(out.streams ?? []).filter((st) => st.codec_type === 'audio').map((st) => st.channels ?? 0),
    ),
  };
}

/** PocketSphinx's frame rate: ctl ranges and word timings are in 10 ms frames. */
const FRAMES_PER_SECOND = 100;
const SAMPLE_RATE = 16_000;
/** Silence is any run of samples this many dB under the chunk's loudest sample... */
const SILENCE_BELOW_PEAK_DB = 30;
/** ...kept between these levels (dBFS), so near-silent or clipping recordings still split sensibly. */
const SILENCE_FLOOR_DB: [min: number, max: number] = [-60, -25];
/** A silence at least this long (seconds) separates two stretches of speech. */
const SILENCE_SECONDS = 0.3;
/** Sound shorter than this (seconds) between two silences is a click, not speech. */
const MIN_SOUND_SECONDS = 0.1;
/** Each stretch keeps this much (seconds) of the silence around it, so soft word edges are not cut. */
export const STRETCH_PADDING = 0.15;
/** A stretch longer than this (seconds) is cut at its quietest 10 ms inside the last third. */
const MAX_STRETCH_SECONDS = 30;

/** Whether a 16 kHz mono WAV holds any stretch of sound. */
async function hasSound(wav: string): Promise<boolean> {
  return speechStretches(wavSamples(await fs.readFile(wav)).samples).length > 0;
}

/**
 * Cuts a chunk's WAV where the next chunk should begin: at the start of the first stretch of sound
 * that begins after CHUNK_SECONDS (stretches are separated by silence, or cut at their quietest
 * frame), so no word is split between two chunks. Returns the seconds kept: all of a chunk with no
 * stretch starting there (the end of the audio, or silence to the end of the chunk).
 */
export async function keepUntilSeam(wav: string): Promise<number> {
  const bytes = await fs.readFile(wav);
  const { offset, samples } = wavSamples(bytes);
  const perFrame = SAMPLE_RATE / FRAMES_PER_SECOND;
  const next = speechStretches(samples).find(([start]) => start >= CHUNK_SECONDS * FRAMES_PER_SECOND);
  if (!next) return Math.max(samples.length / SAMPLE_RATE, CHUNK_SECONDS);
  const kept = next[0] * perFrame;
  const out = Buffer.from(bytes.subarray(0, offset + kept * 2));
  out.writeUInt32LE(out.length - 8, 4);
  out.writeUInt32LE(kept * 2, offset - 4);
  await fs.writeFile(wav, out);
  return kept / SAMPLE_RATE;
}

/** Where the samples of a 16-bit PCM WAV file start, and how many there are. */
export function wavSamples(wav: Buffer): { offset: number; samples: Int16Array } {
  for (let at = 12; at + 8 <= wav.length;) {
    const size = wav.readUInt32LE(at + 4);
    if (wav.toString('latin1', at, at + 4) === 'data') {
      const offset = at + 8;
      const bytes = Math.min(size, wav.length - offset) & ~1;
      const copy = Buffer.from(wav.subarray(offset, offset + bytes));
      return { offset, samples: new Int16Array(copy.buffer, copy.byteOffset, bytes / 2) };
    }
    at += 8 + size + (size & 1);
  }
  throw new ConversionError('corrupt_file', 'The audio could not be decoded.');
}

/**
 * Stretches of sound in 16 kHz samples, as [start, end) frame ranges: silences are runs of at
 * least SILENCE_SECONDS whose samples all stay SILENCE_BELOW_PEAK_DB under the loudest one (as
 * ffmpeg's silencedetect would find them with that threshold); over-long stretches are cut at
 * their quietest frame. Decoding stretches one by one beat PocketSphinx's own voice detection on
 * the speech bench (docs/performance.md, "Speech (offline)").
 */
export function speechStretches(
  samples: Int16Array,
  silenceSeconds = SILENCE_SECONDS,
): Array<[start: number, end: number]> {
  const perFrame = SAMPLE_RATE / FRAMES_PER_SECOND;
  const frames = Math.ceil(samples.length / perFrame);
  let peak = 0;
  for (const s of samples) peak = Math.max(peak, Math.abs(s));
  const peakDb = 20 * Math.log10(Math.max(peak, 1) / 32768);
  const [floorMin, floorMax] = SILENCE_FLOOR_DB;
  const threshold = 32768 * 10 ** (Math.min(floorMax, Math.max(floorMin, peakDb - SILENCE_BELOW_PEAK_DB)) / 20);
  const minSilent = Math.round(silenceSeconds * SAMPLE_RATE);
  const minSound = Math.round(MIN_SOUND_SECONDS * SAMPLE_RATE);
  const pad = Math.round(STRETCH_PADDING * FRAMES_PER_SECOND);
  const stretches: Array<[number, number]> = [];
  const addSound = (from: number, to: number): void => {
    if (to - from <= minSound) return;
    const start = Math.max(0, Math.floor(from / perFrame) - pad);
    const end = Math.min(frames, Math.ceil(to / perFrame) + pad);
    stretches.push(...splitLong(samples, start, end));
  };
  let soundFrom = 0;
  let quietFrom = -1;
  for (let i = 0; i <= samples.length; i++) {
    const quiet = i < samples.length && Math.abs(samples[i]!) < threshold;
    if (quiet) {
      if (quietFrom < 0) quietFrom = i;
      continue;
    }
    if (quietFrom >= 0 && (i - quietFrom >= minSilent || i === samples.length)) {
      if (quietFrom > soundFrom) addSound(soundFrom, quietFrom);
      soundFrom = i;
    }
    quietFrom = -1;
  }
  if (soundFrom < samples.length && quietFrom < 0) addSound(soundFrom, samples.length);
  return stretches;
}

/** [start, end) frames as pieces of at most MAX_STRETCH_SECONDS, each cut at the quietest frame of its last third. */
function splitLong(samples: Int16Array, start: number, end: number): Array<[number, number]> {
  const max = MAX_STRETCH_SECONDS * FRAMES_PER_SECOND;
  const perFrame = SAMPLE_RATE / FRAMES_PER_SECOND;
  const pieces: Array<[number, number]> = [];
  let from = start;
  while (end - from > max) {
    let cut = from + max;
    let quietest = Infinity;
    for (let f = from + Math.floor((max * 2) / 3); f < from + max; f++) {
      let energy = 0;
      for (let i = f * perFrame; i < (f + 1) * perFrame && i < samples.length; i++) energy += samples[i]! ** 2;
      if (energy < quietest) [quietest, cut] = [energy, f];
    }
    pieces.push([from, cut]);
    from = cut;
  }
  pieces.push([from, end]);
  return pieces;
}

/** Offline words of a 16 kHz mono WAV: Moonshine's, or PocketSphinx's when Moonshine is not installed or fails. */
async function transcribeOffline(wav: string): Promise<Word[]> {
  if (moonshineInstalled()) {
    try {
      return await transcribeWithMoonshine(wav);
    } catch {
      // The chunk is transcribed by PocketSphinx below, as when the model is not installed.
    }
  }
  return transcribe(wav);
}

/**
 * Moonshine's text for each stretch of sound (speechStretches) as one timed "word", so paragraphs
 * and timestamps follow the same pauses as PocketSphinx's words (the model gives no word times).
 */
export async function transcribeWithMoonshine(wav: string): Promise<Word[]> {
  const stretches = speechStretches(wavSamples(await fs.readFile(wav)).samples);
  if (!stretches.length) return [];
  const texts = await moonshineStretches(wav, stretches);
  const words: Word[] = [];
  let lastEnd = 0;
  for (const [i, [from, to]] of stretches.entries()) {
    const said = texts[i]?.trim();
    // Times of the sound itself: a stretch carries STRETCH_PADDING of silence at each end that has one.
    const start = from / FRAMES_PER_SECOND + (from > 0 ? STRETCH_PADDING : 0);
    const end = Math.max(start, to / FRAMES_PER_SECOND - STRETCH_PADDING);
    const previous = words[words.length - 1];
    // A stretch read together with the one before: its words are in that one's text, which now ends here.
    if (texts[i] === null && previous) previous.end = end;
    else if (!said) continue;
    else words.push({ word: said, start, end, pause: words.length ? Math.max(0, start - lastEnd) : 0 });
    lastEnd = end;
  }
  return words;
}

/**
 * PocketSphinx word timings for a 16 kHz mono WAV: each stretch of sound (speechStretches) is one
 * utterance of a single pocketsphinx_batch run (a control file of frame ranges, so the model loads
 * once); fillers and silences are dropped and count into the pause before the next word.
 */
export async function transcribe(wav: string, flags: string[] = [], silenceSeconds?: number): Promise<Word[]> {
  const { offset, samples } = wavSamples(await fs.readFile(wav));
  const stretches = speechStretches(samples, silenceSeconds);
  if (!stretches.length) return [];
  const ctl = `${wav}.ctl`;
  const hypseg = `${wav}.seg`;
  const name = path.basename(wav, '.wav');
  await fs.writeFile(ctl, stretches.map(([a, b], i) => `${name} ${a} ${b} ${i}\n`).join(''));
  try {
    await tool('pocketsphinx_batch', [
      '-ctl',
      ctl,
      '-cepdir',
      path.dirname(wav),
      '-cepext',
      '.wav',
      '-adcin',
      'yes',
      '-adchdr',
      String(offset),
      '-hmm',
      path.join(MODEL_DIR, 'en-us'),
      '-lm',
      path.join(MODEL_DIR, 'en-us.lm.bin'),
      '-dict',
      path.join(MODEL_DIR, 'cmudict-en-us.dict'),
      '-hypseg',
      hypseg,
      '-logfn',
      '/dev/null',
      // Its own voice detection would drop silent frames inside a stretch and shift the word times;
      // with it off the words are the same on the speech bench and the times are the audio's.
      '-remove_silence',
      'no',
      ...flags,
    ]);
    return wordsOfHypseg(await fs.readFile(hypseg, 'utf8'), stretches);
  } finally {
    await fs.rm(ctl, { force: true });
    await fs.rm(hypseg, { force: true });
  }
}

/**
 * Words of pocketsphinx_batch's -hypseg lines ("uttid S n T n A n L n" then "startframe ascr lscr
 * word" per word and the end frame), timed from the chunk's start; <s>, </s>, <sil>, [NOISE] and
 * ++FILLER++ are time without words: they count into the pause.
 */
export function wordsOfHypseg(text: string, stretches: Array<[number, number]>): Word[] {
  const words: Word[] = [];
  let lastEnd = 0;
  for (const line of text.split('\n')) {
    const t = line.trim().split(/\s+/);
    const stretch = stretches[Number(t[0])];
    if (!stretch || t[1] !== 'S') continue;
    for (let i = 9; i + 4 < t.length; i += 4) {
      const word = t[i + 3]!;
      if (/^<|^\[|^\+\+/.test(word)) continue;
      const start = (stretch[0] + Number(t[i])) / FRAMES_PER_SECOND;
      const end = (stretch[0] + Number(t[i + 4])) / FRAMES_PER_SECOND;
      words.push({ word: word.replace(/\(\d+\)$/, ''), start, end, pause: words.length ? start - lastEnd : 0 });
      lastEnd = end;
    }
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
