import { type Db, preparedQuery, StatementBatch, uuidv7 } from '@markwright/db';

/** A workspace as its token finds it; the plan is the stored name, checked by the domain. */
export interface WorkspaceRow {
  id: string;
  plan: string;
}

/**
 * One prepared statement, read on every request rather than cached: a revoked token answers 401
 * from the next request on. Lookups made while one is running go together in the next statement
 * (`StatementBatch`), which is sent after every one of them was made, so each still reads the
 * tokens as they are after its request arrived.
 */
export async function findWorkspaceByTokenHash(db: Db, tokenHash: string): Promise<WorkspaceRow | null> {
  let batch = tokenBatches.get(db);
  if (!batch) tokenBatches.set(db, (batch = tokenBatch(db)));
  return batch.call(tokenHash);
}

const tokenBatches = new WeakMap<Db, StatementBatch<string, WorkspaceRow | null>>();

function tokenBatch(db: Db): StatementBatch<string, WorkspaceRow | null> {
  return new StatementBatch({
    maxBatch: 64,
    run: async (hashes) => {
      const rows = await preparedQuery<WorkspaceRow & { tokenHash: string }>(
        db,
        'mw_workspaces_by_tokens',
        `SELECT t.token_hash AS "tokenHash", w.id::text, w.plan FROM api_tokens t JOIN workspaces w ON w.id = t.workspace_id
         WHERE t.token_hash = ANY($1::char(64)[]) AND t.revoked_at IS NULL`,
        [[...new Set(hashes)]],
      );
      const byHash = new Map(rows.map(({ tokenHash, ...row }) => [tokenHash, row]));
      return hashes.map((hash) => byHash.get(hash) ?? null);
    },
  });
}

/** The workspace, its first token (hashed by the caller) and its opening grant, in one transaction. */
export async function insertWorkspace(
  db: Db,
  input: { name: string; plan: string; credits: number; tokenHash: string },
): Promise<string> {
  const workspaceId = uuidv7();
  await db.$transaction(async (tx) => {
    await tx.workspace.create({
      data: { id: workspaceId, name: input.name, plan: input.plan, creditBalance: input.credits },
    });
    await tx.apiToken.create({ data: { id: uuidv7(), workspaceId, tokenHash: input.tokenHash } });
    if (input.credits > 0) {
      await tx.creditTransaction.create({ data: { id: uuidv7(), workspaceId, type: 'grant', amount: input.credits } });
    }
  });
  return workspaceId;
}

/** False when the workspace does not exist. */
export async function insertToken(db: Db, workspaceId: string, tokenHash: string): Promise<boolean> {
  const workspace = await db.workspace.findUnique({ where: { id: workspaceId } });
  if (!workspace) return false;
  await db.apiToken.create({ data: { id: uuidv7(), workspaceId, tokenHash } });
  return true;
}

/** True when the token exists (revoked now or before). */
export async function revokeTokenHash(db: Db, tokenHash: string): Promise<boolean> {
  const updated = await db.apiToken.updateMany({
    where: { tokenHash, revokedAt: null },
    data: { revokedAt: new Date() },
  });
  if (updated.count > 0) return true;
  return (await db.apiToken.count({ where: { tokenHash } })) > 0;
}

export async function grantCredits(db: Db, workspaceId: string, amount: number): Promise<number | null> {
  return db.$transaction(async (tx) => {
    const found = await tx.workspace.findUnique({ where: { id: workspaceId } });
    if (!found) return null;
    const updated = await tx.workspace.update({
      where: { id: workspaceId },
      data: { creditBalance: { increment: amount } },
    });
    await tx.creditTransaction.create({ data: { id: uuidv7(), workspaceId, type: 'grant', amount } });
    return updated.creditBalance;
  });
}

export async function findWorkspaceWithLedger(db: Db, workspaceId: string) {
  return db.workspace.findUnique({
    where: { id: workspaceId },
    include: { transactions: { orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] } },
  });
}
