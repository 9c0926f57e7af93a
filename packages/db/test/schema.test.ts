import { Client } from 'pg';
import { createTestEnv, type TestEnv } from '@markwright/test-support';
import fs from 'node:fs';
import path from 'node:path';

interface SchemaField {
  column: string;
  type: string;
  required: boolean;
}

/** The scalar fields of each model of prisma/schema.prisma, by table name (relations skipped). */
function prismaTables(): Map<string, SchemaField[]> {
  const schema = fs.readFileSync(path.join(__dirname, '..', 'prisma', 'schema.prisma'), 'utf8');
  const tables = new Map<string, SchemaField[]>();
  for (const [, name, body] of schema.matchAll(/^model (\w+) \{([\s\S]*?)^\}/gm)) {
    const table = /@@map\("([^"]+)"\)/.exec(body!)?.[1] ?? name!;
    const fields: SchemaField[] = [];
    for (const line of body!.split('\n')) {
      const m = /^\s+(\w+)\s+(\w+)(\[\])?(\?)?(.*)$/.exec(line);
      if (!m || !PRISMA_TO_PG[m[2]!] || m[3]) continue;
      fields.push({ column: /@map\("([^"]+)"\)/.exec(m[5]!)?.[1] ?? m[1]!, type: m[2]!, required: !m[4] });
    }
    tables.set(table, fields);
  }
  return tables;
}

let env: TestEnv;
let client: Client;
beforeAll(async () => {
  env = await createTestEnv();
  client = new Client({ connectionString: env.config.DATABASE_URL });
  await client.connect();
});
afterAll(async () => {
  await client?.end();
  await env?.cleanup();
});

const PRISMA_TO_PG: Record<string, string[]> = {
  String: ['text', 'uuid', 'character'],
  Int: ['integer'],
  Boolean: ['boolean'],
  DateTime: ['timestamp with time zone'],
  Json: ['jsonb'],
  Bytes: ['bytea'],
};

describe('migrations against the Prisma schema', () => {
  it('When the SQL migrations are applied, then every model field is a column of a compatible type and nullability', async () => {
    const { rows } = await client.query<{
      table_name: string;
      column_name: string;
      data_type: string;
      is_nullable: string;
    }>(
      `SELECT table_name, column_name, data_type, is_nullable FROM information_schema.columns WHERE table_schema = 'public'`,
    );
    const columns = new Map(rows.map((r) => [`${r.table_name}.${r.column_name}`, r]));
    const problems: string[] = [];
    let checked = 0;
    for (const [table, fields] of prismaTables()) {
      for (const field of fields) {
        const column = columns.get(`${table}.${field.column}`);
        checked++;
        if (!column) {
          problems.push(`${table}.${field.column} missing`);
          continue;
        }
        if (!PRISMA_TO_PG[field.type]?.includes(column.data_type))
          problems.push(`${table}.${column.column_name} is ${column.data_type}, Prisma says ${field.type}`);
        if ((column.is_nullable === 'YES') !== !field.required)
          problems.push(`${table}.${column.column_name} nullability differs`);
      }
      const modelColumns = fields.map((f) => f.column);
      for (const r of rows.filter((r) => r.table_name === table)) {
        if (!modelColumns.includes(r.column_name))
          problems.push(`${table}.${r.column_name} is not in the Prisma schema`);
      }
    }
    expect(problems).toEqual([]);
    expect(checked).toBeGreaterThan(40);
  });

  it('When the balance would go below zero, then the CHECK constraint refuses it', async () => {
    await client.query(
      `INSERT INTO workspaces (id, name, plan, credit_balance) VALUES ('00000000-0000-7000-8000-000000000001', 'w', 'free', 0)`,
    );
    await expect(client.query(`UPDATE workspaces SET credit_balance = -1`)).rejects.toThrow(/check constraint/);
  });

  it('When a second refund row is inserted for one conversion, then the unique key refuses it', async () => {
    const ws = '00000000-0000-7000-8000-000000000002';
    const conv = '00000000-0000-7000-8000-000000000003';
    await client.query(`INSERT INTO workspaces (id, name, plan, credit_balance) VALUES ($1, 'w', 'free', 1)`, [ws]);
    await client.query(
      `INSERT INTO conversions (id, workspace_id, status, original_filename, extension, file_size_bytes, use_enhanced_ai, include_metadata, optimize_tokens, mode, credits_charged, created_at)
       VALUES ($1, $2, 'failed', 'a.txt', 'txt', 1, false, false, false, 'sync', 1, now())`,
      [conv, ws],
    );
    const refund = `INSERT INTO credit_transactions (id, workspace_id, conversion_id, type, amount) VALUES (gen_random_uuid(), $1, $2, 'refund', 1)`;
    await client.query(refund, [ws, conv]);
    await expect(client.query(refund, [ws, conv])).rejects.toThrow(/duplicate key/);
  });

  it('When the migrations are applied, then uploads are stored uncompressed and results compressed with lz4', async () => {
    const { rows } = await client.query<{ col: string; storage: string; compression: string }>(
      `SELECT attrelid::regclass || '.' || attname AS col, attstorage AS storage, attcompression AS compression
       FROM pg_attribute WHERE attrelid IN ('uploads'::regclass, 'conversions'::regclass)
         AND attname IN ('bytes', 'markdown', 'pages', 'chunks', 'document') ORDER BY 1`,
    );
    // 'e': EXTERNAL (moved out of line, never compressed); 'x': EXTENDED with 'l': lz4.
    expect(rows).toEqual([
      { col: 'conversions.chunks', storage: 'x', compression: 'l' },
      { col: 'conversions.document', storage: 'x', compression: 'l' },
      { col: 'conversions.markdown', storage: 'x', compression: 'l' },
      { col: 'conversions.pages', storage: 'x', compression: 'l' },
      { col: 'uploads.bytes', storage: 'e', compression: '' },
    ]);
  });
});
