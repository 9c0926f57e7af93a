import { type Db, preparedQuery, uuidv7 } from '@markwright/db';

/** A workspace as its token finds it; the plan is the stored name, checked by the domain. */
export interface WorkspaceRow {
  id: string;
  plan: string;
}

/**
 * One prepared statement per request (Prisma's nested select would be two), read on every
 * request rather than cached: a revoked token answers 401 from the next request on.
 */
export async function findWorkspaceByTokenHash(db: Db, tokenHash: string): Promise<WorkspaceRow | null> {
  const rows = await preparedQuery<WorkspaceRow>(
    db,
    'mw_workspace_by_token',
    `SELECT w.id::text, w.plan FROM api_tokens t JOIN workspaces w ON w.id = t.workspace_id
     WHERE t.token_hash = $1 AND t.revoked_at IS NULL`,
    [tokenHash],
  );
  return rows[0] ?? null;
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
