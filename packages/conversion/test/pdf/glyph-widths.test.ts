import { isMonospacedFont, letterPositions } from '../../src/readers/pdf/glyph-widths';

describe('where letters stand inside a run poppler gives as a whole', () => {
  it('When a run holds narrow and wide letters, then each takes its share of the width by its own width, and the run ends at its right edge', () => {
    const at = letterPositions('il MW', 100, 100);
    expect(at).toHaveLength(6);
    expect(at[0]).toBe(100);
    expect(at[5]).toBeCloseTo(200, 6);
    // "i" and "l" (222 each) take less than "M" (833) alone.
    expect(at[2]! - at[0]!).toBeLessThan(at[4]! - at[3]!);
    expect(at[1]! - at[0]!).toBeCloseTo(at[2]! - at[1]!, 6);
  });

  it('When a run holds letters outside ASCII, then they count as a lower-case letter', () => {
    const at = letterPositions('aé', 0, 20);
    expect(at[1]).toBeCloseTo(10, 6);
  });
});

describe('monospaced faces by name', () => {
  it("When a face is Courier, a Mono family, or one of TeX's typewriter faces, then it is monospaced; text faces are not", () => {
    expect(
      ['Courier', 'DejaVuSansMono', 'LiberationMono-Regular', 'CMTT9', 'ABCDEF+LMTT10', 'SFTT1000', 'Consolas'].map(
        isMonospacedFont,
      ),
    ).toEqual([true, true, true, true, true, true, true]);
    expect(['Helvetica', 'CMR10', 'Times-Roman', 'Scott-Regular', 'Matterhorn'].map(isMonospacedFont)).toEqual([
      false,
      false,
      false,
      false,
      false,
    ]);
  });
});
