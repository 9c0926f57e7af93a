import { createTestEnv, type TestEnv } from '@markwright/test-support';
import { createDb, type Db, namedStatement } from '../src';

let env: TestEnv;
let db: Db;
beforeAll(async () => {
  env = await createTestEnv();
  db = createDb(env.config.DATABASE_URL, 2);
});
afterAll(async () => {
  await db.$disconnect();
  await env.cleanup();
});

describe('namedStatement', () => {
  it('When a statement names its parameters, then each value reaches its placeholder, however often it is used, and casts stay casts', async () => {
    const statement = namedStatement<{ a: number; b: string }, { sum: number; text: string; again: number }>(
      'mw_test_named_statement',
      `SELECT :a::int + 1 AS sum, :b::text AS text, :a::int * 2 AS again`,
      ['a', 'b'],
    );
    expect(await statement(db, { a: 20, b: 'x:y' })).toEqual([{ sum: 21, text: 'x:y', again: 40 }]);
  });

  it('When a placeholder is not declared, then the statement is refused where it is defined', () => {
    expect(() => namedStatement<{ a: number }, never>('mw_test_undeclared', 'SELECT :a::int, :b::int', ['a'])).toThrow(
      'statement mw_test_undeclared: :b is not a declared parameter',
    );
  });

  it('When a declared parameter is never used, then the statement is refused where it is defined', () => {
    expect(() =>
      namedStatement<{ a: number; b: number }, never>('mw_test_unused', 'SELECT :a::int', ['a', 'b']),
    ).toThrow('statement mw_test_unused: b declared but not used');
  });
});
