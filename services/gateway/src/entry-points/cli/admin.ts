import { parseArgs } from 'node:util';
import { ConfigError, DependencyUnavailableError, loadConfig } from '@markwright/config';
import { isPlanName, PLAN_NAMES } from '../../domain/plans';
import { formatTimestamp } from '@markwright/contracts';
import { createToken, createWorkspace, grantCredits, revokeToken, showWorkspace } from '../../domain/workspaces';
import { deleteConversion, sweepExpiredResults } from '../../domain/delete-conversion';
import { AppError } from '../../domain/app-error';
import { openAdminContext } from '../../admin-context';

/** `pnpm --silent admin …`: exactly one JSON object on stdout; errors as JSON on stderr with exit 1. */
class UsageError extends Error {}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

async function main(argv: string[]): Promise<Record<string, unknown>> {
  const [noun, verb, ...rest] = argv;
  const { values } = parseArgs({
    args: rest,
    options: {
      name: { type: 'string' },
      plan: { type: 'string' },
      credits: { type: 'string' },
      workspace: { type: 'string' },
      token: { type: 'string' },
      amount: { type: 'string' },
      conversion: { type: 'string' },
      'older-than-hours': { type: 'string' },
    },
  });
  const config = loadConfig();
  const context = await openAdminContext(config);
  const { db } = context;
  try {
    switch (`${noun} ${verb}`) {
      case 'workspace create': {
        const name = required(values.name, 'name');
        const plan = required(values.plan, 'plan');
        if (!isPlanName(plan)) throw new UsageError(`--plan must be one of ${PLAN_NAMES.join(', ')}`);
        const credits = nonNegativeInt(required(values.credits, 'credits'), 'credits');
        const { workspaceId, token } = await createWorkspace(db, { name, plan, credits });
        return { workspace_id: workspaceId, token };
      }
      case 'token create': {
        const token = await createToken(db, workspaceId(values.workspace));
        if (!token) throw new UsageError('workspace not found');
        return { token };
      }
      case 'token revoke': {
        if (!(await revokeToken(db, required(values.token, 'token')))) throw new UsageError('token not found');
        return { revoked: true };
      }
      case 'credits grant': {
        const amount = nonNegativeInt(required(values.amount, 'amount'), 'amount');
        if (amount === 0) throw new UsageError('--amount must be a positive integer');
        const balance = await grantCredits(db, workspaceId(values.workspace), amount);
        if (balance === null) throw new UsageError('workspace not found');
        return { balance };
      }
      case 'workspace show': {
        const ws = await showWorkspace(db, workspaceId(values.workspace));
        if (!ws) throw new UsageError('workspace not found');
        return {
          workspace_id: ws.id,
          plan: ws.plan,
          credit_balance: ws.creditBalance,
          transactions: ws.transactions.map((t) => ({
            type: t.type,
            amount: t.amount,
            conversion_id: t.conversionId,
            created_at: formatTimestamp(t.createdAt),
          })),
        };
      }
      case 'conversion delete': {
        const conversion = required(values.conversion, 'conversion');
        try {
          await deleteConversion(context.jobControl, workspaceId(values.workspace), conversion);
        } catch (err) {
          if (err instanceof AppError) throw new UsageError(String(err.body.message));
          throw err;
        }
        return { deleted: true };
      }
      case 'retention run': {
        const given = values['older-than-hours'];
        const hours = given === undefined ? config.RESULT_RETENTION_HOURS : nonNegativeInt(given, 'older-than-hours');
        if (hours === undefined)
          throw new UsageError('--older-than-hours is required when RESULT_RETENTION_HOURS is unset');
        let deleted = 0;
        // One sweep is bounded; an operator's run goes on until nothing past the limit is left.
        for (;;) {
          const swept = await sweepExpiredResults(context.jobControl, hours);
          deleted += swept;
          if (swept === 0) break;
        }
        return { deleted, older_than_hours: hours };
      }
      default:
        throw new UsageError(
          'usage: admin workspace create|show, token create|revoke, credits grant, conversion delete, retention run (see docs/operations.md)',
        );
    }
  } finally {
    await context.close();
  }
}

function required(value: string | undefined, name: string): string {
  if (value === undefined || value === '') throw new UsageError(`--${name} is required`);
  return value;
}

function workspaceId(value: string | undefined): string {
  const id = required(value, 'workspace');
  if (!UUID.test(id)) throw new UsageError('workspace not found');
  return id.toLowerCase();
}

function nonNegativeInt(value: string, name: string): number {
  if (!/^\d{1,9}$/.test(value)) throw new UsageError(`--${name} must be a non-negative integer`);
  return Number(value);
}

main(process.argv.slice(2)).then(
  (result) => {
    process.stdout.write(`${JSON.stringify(result)}\n`);
    process.exit(0);
  },
  (err: unknown) => {
    const known = err instanceof UsageError || err instanceof ConfigError || err instanceof DependencyUnavailableError;
    const message = err instanceof Error ? err.message : String(err);
    process.stderr.write(`${JSON.stringify({ error: known ? message : `unexpected error: ${message}` })}\n`);
    process.exit(1);
  },
);
