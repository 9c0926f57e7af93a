import { SplitsInHand } from '../src/domain/splits-in-hand';

describe('SplitsInHand: what a converter holds of the conversions it split (issue 22)', () => {
  it('When a conversion is split here, then its upload and its ranges read here are handed to its other ranges', () => {
    const inHand = new SplitsInHand(4, 1024);
    const bytes = Buffer.from('%PDF-1.7');
    inHand.keepUpload('a', bytes);
    inHand.keepPart('a', 1, { texts: ['one'] });
    expect(inHand.upload('a')).toBe(bytes);
    expect([...inHand.parts('a')]).toEqual([[1, { texts: ['one'] }]]);
    expect(inHand.upload('b')).toBeUndefined();
    expect(inHand.parts('b').size).toBe(0);
  });

  it('When the conversion is written or fails, then nothing of it is held', () => {
    const inHand = new SplitsInHand(4, 1024);
    inHand.keepUpload('a', Buffer.alloc(600));
    inHand.keepPart('a', 1, 'one');
    inHand.drop('a');
    expect(inHand.upload('a')).toBeUndefined();
    expect(inHand.parts('a').size).toBe(0);
    // Its bytes no longer count against the limit.
    inHand.keepUpload('b', Buffer.alloc(600));
    expect(inHand.upload('b')).toHaveLength(600);
  });

  it('When uploads would exceed the byte limit, then the next one is not held (its ranges read it from PostgreSQL)', () => {
    const inHand = new SplitsInHand(4, 1000);
    inHand.keepUpload('a', Buffer.alloc(600));
    inHand.keepUpload('b', Buffer.alloc(600));
    expect(inHand.upload('a')).toHaveLength(600);
    expect(inHand.upload('b')).toBeUndefined();
  });

  it('When more conversions are held than the limit, then the oldest is let go', () => {
    const inHand = new SplitsInHand(2, 1000);
    inHand.keepUpload('a', Buffer.alloc(400));
    inHand.keepPart('b', 1, 'b1');
    inHand.keepPart('c', 1, 'c1');
    expect(inHand.upload('a')).toBeUndefined();
    expect(inHand.parts('b').get(1)).toBe('b1');
    expect(inHand.parts('c').get(1)).toBe('c1');
    // The let-go upload's bytes were given back.
    inHand.keepUpload('c', Buffer.alloc(1000));
    expect(inHand.upload('c')).toHaveLength(1000);
  });
});
