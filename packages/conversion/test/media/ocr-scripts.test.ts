import { closeConversionWorkers, convertIsolated } from '../../src';
import { CJK_SAMPLES, cjkTextImage, phraseRecall, SENTENCE, textImage, wordAccuracy } from '../media-fixtures';

afterAll(() => closeConversionWorkers());
// A CJK page is read in several models (simplified, traditional, vertical): minutes on a loaded machine.
jest.setTimeout(180_000);
const limits = { timeoutMs: 180_000, maxMemoryMb: 1536 };
const std = { enhanced: false };

describe('OCR in other scripts (language chosen from the detected script)', () => {
  it.each([
    ['Chinese', CJK_SAMPLES.chinese],
    ['Japanese', CJK_SAMPLES.japanese],
    ['Korean', CJK_SAMPLES.korean],
  ])('When an image holds %s text in rows, then at least 80%% of its phrases are read', async (_name, sample) => {
    const input = await cjkTextImage(sample.lines, 40);
    const { markdown } = await convertIsolated(input, 'png', std, limits);
    expect(phraseRecall(sample.phrases, markdown)).toBeGreaterThanOrEqual(0.8);
  });

  it('When Japanese is set in vertical columns, then at least 80% of its phrases are read', async () => {
    const input = await cjkTextImage(CJK_SAMPLES.verticalJapanese.lines, 32, true);
    const { markdown } = await convertIsolated(input, 'png', std, limits);
    expect(phraseRecall(CJK_SAMPLES.verticalJapanese.phrases, markdown)).toBeGreaterThanOrEqual(0.8);
  });

  it('When Korean words are read syllable by syllable, then the syllables of a word are joined and words keep their spaces', async () => {
    const input = await cjkTextImage(CJK_SAMPLES.korean.lines, 40);
    const { markdown } = await convertIsolated(input, 'png', std, limits);
    expect(markdown).toContain('연간 예산을');
    expect(markdown).not.toContain('위 원');
  });

  it('When an image holds Russian text, then it is read in Cyrillic', async () => {
    const input = await textImage(['Комитет утвердил годовой бюджет во вторник утром'], 16);
    const { markdown } = await convertIsolated(input, 'png', std, limits);
    expect(
      phraseRecall(['Комитет', 'утвердил', 'годовой', 'бюджет', 'вторник', 'утром'], markdown),
    ).toBeGreaterThanOrEqual(0.8);
  });

  it('When the text is English, then it is still read in English after the other scripts are loaded', async () => {
    const input = await textImage([SENTENCE], 14);
    const { markdown } = await convertIsolated(input, 'png', std, limits);
    expect(wordAccuracy(SENTENCE, markdown)).toBeGreaterThanOrEqual(0.95);
  });
});
