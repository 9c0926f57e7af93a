import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { closeConversionWorkers, convertIsolated } from '../../src';
import { audioReader } from '../../src/readers/audio';
import { moonshineInstalled, moonshineStretches, withEdgeSilence } from '../../src/readers/audio/moonshine';

jest.mock('../../src/readers/audio/moonshine', () => {
  const actual = jest.requireActual('../../src/readers/audio/moonshine');
  return {
    ...actual,
    moonshineInstalled: jest.fn(actual.moonshineInstalled),
    moonshineStretches: jest.fn(actual.moonshineStretches),
  };
});

afterAll(() => closeConversionWorkers());
const limits = { timeoutMs: 120_000, maxMemoryMb: 1536 };
jest.setTimeout(180_000);
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'mw-speech-engine-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** flite's words as a file of the given extension, with silences of `gap` seconds between the sentences. */
function spoken(sentences: string[], ext: string, gap = 1.5): Buffer {
  const parts = sentences.map((s, i) => {
    const wav = path.join(tmp, `part-${i}.wav`);
    execFileSync('flite', ['-voice', 'slt', '-t', s, '-o', wav]);
    return wav;
  });
  const out = path.join(tmp, `spoken.${ext}`);
  const inputs = parts.flatMap((p) => ['-i', p]);
  const pads = parts.map((_, i) => `[${i}]aresample=16000,apad=pad_dur=${gap}[a${i}]`).join(';');
  const concat = `${parts.map((_, i) => `[a${i}]`).join('')}concat=n=${parts.length}:v=0:a=1`;
  execFileSync('ffmpeg', ['-v', 'error', '-y', ...inputs, '-filter_complex', `${pads};${concat}`, out]);
  return fs.readFileSync(out);
}

/** flite's words converted as they come, with no silence added around them (as convert-cli.test.ts makes its samples). */
function spokenAlone(sentence: string, ext: string): Buffer {
  const wav = path.join(tmp, 'alone.wav');
  execFileSync('flite', ['-voice', 'slt', '-t', sentence, '-o', wav]);
  const out = path.join(tmp, `alone.${ext}`);
  execFileSync('ffmpeg', ['-v', 'error', '-y', '-i', wav, out]);
  return fs.readFileSync(out);
}

/**
 * espeak-ng's words said one at a time, `gap` seconds apart, in groups `pause` seconds apart, as a WAV
 * (espeak-ng's voice is the one Moonshine tiny misreads most word by word).
 */
function saidApart(groups: string[][], gap: number, pause: number): Buffer {
  const words = groups.flatMap((group, g) =>
    group.map((word, i) => {
      const wav = path.join(tmp, `word-${g}-${i}.wav`);
      execFileSync('espeak-ng', ['-v', 'en-us', '-s', '160', '-w', wav, word]);
      return { wav, after: i < group.length - 1 ? gap : pause };
    }),
  );
  const out = path.join(tmp, 'apart.wav');
  const inputs = words.flatMap((w) => ['-i', w.wav]);
  const pads = words.map((w, i) => `[${i}]aresample=16000,apad=pad_dur=${w.after}[a${i}]`).join(';');
  const concat = `${words.map((_, i) => `[a${i}]`).join('')}concat=n=${words.length}:v=0:a=1`;
  execFileSync('ffmpeg', ['-v', 'error', '-y', ...inputs, '-filter_complex', `${pads};${concat}`, '-ac', '1', out]);
  return fs.readFileSync(out);
}

const converted = async (input: Buffer): Promise<string> =>
  (await convertIsolated(input, 'wav', { enhanced: false }, limits)).markdown.trim();

/** The reader's paragraphs in this process, where the engine can be replaced, for the fallbacks. */
const markdownOf = async (input: Buffer): Promise<string> =>
  (await audioReader.read(input, { enhanced: false })).blocks
    .map((b) =>
      b.type === 'paragraph'
        ? b.text.map((n) => ('text' in n ? n.text : n.type === 'raw' ? n.markdown : '')).join('')
        : '',
    )
    .join('\n\n');

describe('the offline speech engine', () => {
  it('When speech is transcribed offline, then Moonshine writes it with sentence capitals and punctuation', async () => {
    const md = await converted(spoken(['Please send the quarterly report to the finance team by Friday.'], 'wav'));
    expect(md).toMatch(/^\[00:00\] Please send the quarterly report to the [A-Za-z ]+ by Friday\.$/);
  });

  it('When sentences are 3 s apart, then each is a paragraph stamped with the time it starts', async () => {
    const md = await converted(
      spoken(['The meeting starts at nine.', 'The train leaves every twenty minutes.'], 'wav', 3),
    );
    const paragraphs = md.split('\n\n');
    expect(paragraphs).toHaveLength(2);
    expect(paragraphs[0]).toBe('[00:00] The meeting starts at nine.');
    // flite says the first sentence in about two seconds, then 3 s of silence.
    expect(paragraphs[1]).toMatch(/^\[00:0[45]\] The train leaves every twenty minutes/);
  });

  it('When a sentence straddles the 5-minute chunk seam, then each of its words is transcribed once', async () => {
    const said = [
      'The council will vote on the new library budget next week.',
      'Several residents asked for longer opening hours.',
    ];
    const speech = path.join(tmp, 'seam-speech.wav');
    fs.writeFileSync(speech, spoken(said, 'wav', 0.5));
    const out = path.join(tmp, 'seam.mp3');
    // 298.8 s of silence, so the first sentence starts 1.2 s before the seam.
    execFileSync('ffmpeg', [
      '-v',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      'anullsrc=r=16000:cl=mono:d=298.8',
      '-i',
      speech,
      '-filter_complex',
      '[0][1]concat=n=2:v=0:a=1',
      '-b:a',
      '32k',
      out,
    ]);
    const md = await convertIsolated(fs.readFileSync(out), 'mp3', { enhanced: false }, limits);
    const words = md.markdown.toLowerCase().split(/[^a-z]+/);
    for (const word of ['council', 'vote', 'library', 'budget', 'residents', 'opening', 'hours'])
      expect(words.filter((w) => w === word)).toEqual([word]);
    expect(md.markdown).toMatch(/^\[04:5[89]\] /);
  });

  it('When the two channels are in opposite phase, then the speech is transcribed from one of them', async () => {
    const mono = path.join(tmp, 'phase-mono.wav');
    fs.writeFileSync(mono, spoken(['Please send the quarterly report to the finance team by Friday.'], 'wav'));
    const out = path.join(tmp, 'phase.wav');
    // The right channel is the left one inverted: their mix is silence.
    execFileSync('ffmpeg', ['-v', 'error', '-y', '-i', mono, '-af', 'pan=stereo|c0=c0|c1=-1*c0', out]);
    const md = (await convertIsolated(fs.readFileSync(out), 'wav', { enhanced: false }, limits)).markdown;
    expect(md).toMatch(/^\[00:00\] Please send the quarterly report to the [A-Za-z ]+ by Friday\.\n*$/);
  });

  it('When a conversion is stopped while Moonshine transcribes, then the process lives on and the next conversion works', async () => {
    const sentences = Array.from({ length: 8 }, (_, i) => `Item ${i + 1}: the committee approved the annual budget.`);
    // 27 s of speech looped to half an hour: on a quiet machine Moonshine reads 160 s in under 4 s,
    // so only a recording far longer than the deadline is sure to be stopped while the model runs.
    const once = path.join(tmp, 'items.wav');
    fs.writeFileSync(once, spoken(sentences, 'wav', 0.6));
    const looped = path.join(tmp, 'items-looped.wav');
    execFileSync('ffmpeg', ['-v', 'error', '-y', '-stream_loop', '66', '-i', once, '-c', 'copy', looped]);
    await expect(
      convertIsolated(fs.readFileSync(looped), 'wav', { enhanced: false }, { timeoutMs: 4000, maxMemoryMb: 1536 }),
    ).rejects.toMatchObject({ code: 'timeout' });
    const md = await converted(spoken(['Hello world.'], 'wav'));
    expect(md).toMatch(/^\[00:00\] Hello,? world\.?$/);
  });

  it('When a one-second phrase fills a whole MP3, then Moonshine reads it as said', async () => {
    const md = (await convertIsolated(spokenAlone('Hello world.', 'mp3'), 'mp3', { enhanced: false }, limits)).markdown;
    expect(md.trim()).toBe('[00:00] Hello, world.');
  });

  it('When a stretch touches the start or the end of the file, then it is also read with silence added on that side', () => {
    const samples = Int16Array.from([16384, 16384, 16384, 16384]);
    expect(Array.from(withEdgeSilence(samples, 0, 2, 3))).toEqual([0, 0, 0, 0.5, 0.5]);
    expect(Array.from(withEdgeSilence(samples, 1, 3, 3))).toEqual([0.5, 0.5]);
    expect(Array.from(withEdgeSilence(samples, 2, 5, 2))).toEqual([0.5, 0.5, 0, 0]);
  });

  it('When words are said one by one, then they are read together, and a paragraph pause still starts a new paragraph', async () => {
    const md = await converted(
      saidApart(
        [
          ['red', 'green', 'blue', 'yellow'],
          ['monday', 'tuesday', 'wednesday'],
        ],
        0.5,
        2.5,
      ),
    );
    const paragraphs = md.split('\n\n');
    expect(paragraphs).toHaveLength(2);
    const words = paragraphs.map((p) =>
      p
        .toLowerCase()
        .split(/[^a-z]+/)
        .filter(Boolean),
    );
    expect(words[0]).toEqual(['red', 'green', 'blue', 'yellow']);
    expect(words[1]).toEqual(['monday', 'tuesday', 'wednesday']);
    // Four words of about 0.5 s, 0.5 s apart, then 2.5 s of silence: the second group starts at about 6 s.
    expect(paragraphs[0]).toMatch(/^\[00:00\] /);
    expect(paragraphs[1]).toMatch(/^\[00:0[5-7]\] /);
  });

  it('When Moonshine fails on a chunk, then PocketSphinx transcribes it instead', async () => {
    jest.mocked(moonshineStretches).mockRejectedValueOnce(new Error('onnxruntime failed'));
    const md = await markdownOf(spoken(['Hello world.'], 'wav'));
    // PocketSphinx writes lower-case words without punctuation.
    expect(md).toMatch(/^\[00:00\] [a-z ]*hello world[a-z ]*$/);
  });

  it('When Moonshine is not installed, then PocketSphinx transcribes the audio', async () => {
    jest.mocked(moonshineInstalled).mockReturnValueOnce(false);
    const md = await markdownOf(spoken(['Hello world.'], 'wav'));
    expect(md).toMatch(/^\[00:00\] [a-z ]*hello world[a-z ]*$/);
  });
});
