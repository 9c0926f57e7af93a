import { speechStretches, wordsOfHypseg } from '../../src/readers/audio';

const RATE = 16_000;

/** 16 kHz samples: [seconds, dBFS] pieces of a 220 Hz tone, or silence where dBFS is null. */
function audio(pieces: Array<[seconds: number, dbfs: number | null]>): Int16Array {
  const parts = pieces.map(([seconds, dbfs]) =>
    Int16Array.from({ length: Math.round(seconds * RATE) }, (_, i) =>
      dbfs === null ? 0 : Math.round(32767 * 10 ** (dbfs / 20) * Math.sin((2 * Math.PI * 220 * i) / RATE)),
    ),
  );
  const all = new Int16Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    all.set(p, at);
    at += p.length;
  }
  return all;
}

describe('stretches of sound the offline transcriber decodes one by one', () => {
  it('When sound is broken by silences of 0.3 s or more, then each stretch is its own range, padded by 0.15 s', () => {
    const stretches = speechStretches(
      audio([
        [0.5, null],
        [1, -10],
        [0.5, null],
        [1, -10],
        [0.5, null],
      ]),
    );
    expect(stretches).toEqual([
      [35, 165],
      [185, 315],
    ]);
  });

  it('When a gap is shorter than 0.3 s, then the sound on both sides stays one stretch', () => {
    expect(
      speechStretches(
        audio([
          [1, -10],
          [0.2, null],
          [1, -10],
        ]),
      ),
    ).toEqual([[0, 220]]);
  });

  it('When the recording is quiet, then silence is judged against its own peak and it still splits', () => {
    const stretches = speechStretches(
      audio([
        [1, -45],
        [0.5, -90],
        [1, -45],
      ]),
    );
    expect(stretches).toHaveLength(2);
  });

  it('When there is a background hum 40 dB under the speech, then the gaps still count as silence', () => {
    const hum = audio([[2.5, -50]]);
    const speech = audio([
      [1, -10],
      [0.5, null],
      [1, -10],
    ]);
    const mixed = Int16Array.from(speech, (s, i) => s + hum[i]!);
    expect(speechStretches(mixed)).toHaveLength(2);
  });

  it('When a click is shorter than 0.1 s, then it is not a stretch', () => {
    expect(
      speechStretches(
        audio([
          [0.5, null],
          [0.05, -6],
          [0.5, null],
          [1, -10],
        ]),
      ),
    ).toEqual([[90, 205]]);
  });

  it('When sound runs on without a pause for more than 30 s, then it is cut into pieces of at most 30 s that join up', () => {
    const stretches = speechStretches(audio([[75, -10]]));
    expect(stretches.length).toBeGreaterThanOrEqual(3);
    expect(stretches[0]![0]).toBe(0);
    expect(stretches[stretches.length - 1]![1]).toBe(7500);
    for (const [i, [start, end]] of stretches.entries()) {
      expect(end - start).toBeLessThanOrEqual(3000);
      if (i) expect(start).toBe(stretches[i - 1]![1]);
    }
  });

  it('When the audio is all silence, then there is nothing to decode', () => {
    expect(speechStretches(audio([[2, null]]))).toEqual([]);
  });
});

describe('word timings of the batch decoder', () => {
  it('When two stretches are decoded, then word times are counted from the chunk start and fillers add to the pause', () => {
    const hypseg = [
      '0 S 0 T -100 A -90 L -10 0 -1 0 <s> 7 -1 -1 hello 41 -1 -1 world(2) 77 -1 -1 </s> 80',
      '1 S 0 T -100 A -90 L -10 0 -1 0 <s> 5 -1 -1 again 30 -1 -1 <sil> 40 -1 -1 [NOISE] 45 -1 -1 now 60 -1 -1 </s> 62',
    ].join('\n');
    const words = wordsOfHypseg(hypseg, [
      [100, 180],
      [300, 362],
    ]);
    expect(words.map((w) => w.word)).toEqual(['hello', 'world', 'again', 'now']);
    expect(words[0]).toMatchObject({ start: 1.07, end: 1.41, pause: 0 });
    expect(words[2]).toMatchObject({ start: 3.05, end: 3.3 });
    expect(words[2]!.pause).toBeCloseTo(3.05 - 1.77);
    expect(words[3]!.pause).toBeCloseTo(3.45 - 3.3);
  });
});
