import { createTestDb, insertConversion, type TestDb } from '@markwright/test-support';
import { planParts, readParts, storePart } from '../src';

let t: TestDb;
beforeAll(async () => (t = await createTestDb(4)));
afterAll(() => t?.cleanup());

const two = [
  { firstPage: 1, lastPage: 200 },
  { firstPage: 201, lastPage: 400 },
];
const three = [
  { firstPage: 1, lastPage: 134 },
  { firstPage: 135, lastPage: 267 },
  { firstPage: 268, lastPage: 400 },
];

describe('the page ranges of a split conversion (issue 22)', () => {
  it('When a job plans its ranges again with another number of slots, then the first plan stays and no ranges overlap', async () => {
    const id = await insertConversion(t.db, { status: 'processing' });
    expect(await planParts(t.db, id, two)).toEqual(two);
    expect(await planParts(t.db, id, three)).toEqual(two);
    // Two planners at once (a redelivered job beside the first): one plan only.
    const other = await insertConversion(t.db, { status: 'processing' });
    const [a, b] = await Promise.all([planParts(t.db, other, two), planParts(t.db, other, three)]);
    expect(a).toEqual(b);
    expect([two, three]).toContainEqual(a);
  });

  it('When ranges are stored, then the last one unread is not written (its converter merges it from memory) and the others come back as written', async () => {
    const id = await insertConversion(t.db, { status: 'processing' });
    await planParts(t.db, id, three);
    const text = '{"blocks":[{"type":"paragraph","text":"a\\u0000b \\ud800"}]}';
    expect(await storePart(t.db, id, 135, () => text)).toEqual({ live: true, last: false });
    expect(await storePart(t.db, id, 1, () => '{"blocks":[]}')).toEqual({ live: true, last: false });
    let written = false;
    expect(
      await storePart(t.db, id, 268, () => {
        written = true;
        return '{}';
      }),
    ).toEqual({ live: true, last: true });
    expect(written).toBe(false);
    expect(await readParts(t.db, id)).toEqual([
      { firstPage: 1, read: '{"blocks":[]}' },
      { firstPage: 135, read: text },
      { firstPage: 268, read: null },
    ]);
  });

  it('When the merging converter holds some ranges already, then only the others come back with their text', async () => {
    const id = await insertConversion(t.db, { status: 'processing' });
    await planParts(t.db, id, three);
    await storePart(t.db, id, 1, () => '{"a":1}');
    await storePart(t.db, id, 135, () => '{"b":2}');
    expect(await readParts(t.db, id, [1])).toEqual([
      { firstPage: 1, read: null },
      { firstPage: 135, read: '{"b":2}' },
      { firstPage: 268, read: null },
    ]);
  });

  it('When the two last ranges are stored at once, then exactly one of them is last', async () => {
    const id = await insertConversion(t.db, { status: 'processing' });
    await planParts(t.db, id, two);
    const results = await Promise.all([storePart(t.db, id, 1, () => '{}'), storePart(t.db, id, 201, () => '{}')]);
    expect(results.filter((r) => r.last)).toHaveLength(1);
  });

  it('When the conversion finished meanwhile (cancelled), then the range is dropped', async () => {
    const id = await insertConversion(t.db, { status: 'processing' });
    await planParts(t.db, id, two);
    await t.db.conversion.update({ where: { id }, data: { status: 'failed' } });
    expect(await storePart(t.db, id, 1, () => '{}')).toEqual({ live: false, last: false });
  });
});
