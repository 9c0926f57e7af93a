import type { Db } from '@markwright/db';
import type { CountingReceiver } from './receiver';

/** One conversion request of a burst: what is sent, and what the client saw. */
interface Sent {
  mode: 'sync' | 'async';
  answer: number | 'no answer';
}

/** The documents of a burst: mostly small texts, some corrupt files (they fail and refund), some text holding NUL. */
function documentFor(i: number): { name: string; bytes: Buffer } {
  if (i % 10 === 3) return { name: `broken-${i}.docx`, bytes: Buffer.from(`not a zip archive ${i}`) };
  if (i % 25 === 7) return { name: `nul-${i}.txt`, bytes: Buffer.from(`before\u0000after ${i}\n`) };
  if (i % 25 === 17) return { name: `nul-${i}.json`, bytes: Buffer.from(JSON.stringify({ text: `a\u0000b ${i}` })) };
  return { name: `doc-${i}.md`, bytes: Buffer.from(`# Document ${i}\n\nSome text for conversion ${i}.\n`) };
}

/** A client gives up on a gateway that refuses connections for this long (it is down, not restarting). */
const GIVE_UP_AFTER_MS = 120_000;

const isRefused = (err: unknown) =>
  /ECONNREFUSED/.test(String((err as { cause?: { code?: string } }).cause?.code ?? (err as Error).message));

/**
 * Sends `count` conversions (even: async with a webhook, odd: sync), `concurrency` at a time,
 * spread over the workspaces' tokens, and runs `fault` once `faultAfter` of them have been sent.
 * A request the gateway refused to connect to never reached it, so it is sent again, as any
 * client would; one that broke mid-flight is not (it may have been accepted).
 */
export async function sendBurst(options: {
  gatewayUrl: () => string;
  tokens: string[];
  webhookUrl: string;
  count: number;
  concurrency: number;
  faultAfter: number;
  fault: () => Promise<void>;
}): Promise<{ sent: Sent[]; asyncIds: string[]; faultDone: Promise<void> }> {
  const sent: Sent[] = [];
  const asyncIds: string[] = [];
  let next = 0;
  let faultDone: Promise<void> = Promise.resolve();
  const one = async (i: number): Promise<void> => {
    const mode = i % 2 === 0 ? 'async' : 'sync';
    const doc = documentFor(i);
    const record: Sent = { mode, answer: 'no answer' };
    sent.push(record);
    const giveUpAt = Date.now() + GIVE_UP_AFTER_MS;
    for (;;) {
      const form = new FormData();
      form.append('file', new Blob([doc.bytes]), doc.name);
      if (mode === 'async') form.append('webhook_url', options.webhookUrl);
      try {
        const res = await fetch(`${options.gatewayUrl()}/convert`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${options.tokens[i % options.tokens.length]}` },
          body: form,
        });
        record.answer = res.status;
        const body = (await res.json().catch(() => ({}))) as { id?: string };
        if (res.status === 202 && body.id) asyncIds.push(body.id);
        return;
      } catch (err) {
        if (!isRefused(err) || Date.now() > giveUpAt) return;
        await new Promise((r) => setTimeout(r, 250));
      }
    }
  };
  const worker = async (): Promise<void> => {
    while (next < options.count) {
      const i = next++;
      if (i === options.faultAfter) faultDone = options.fault();
      await one(i);
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, worker));
  return { sent, asyncIds, faultDone };
}

export interface Outcome {
  accepted: number;
  completed: number;
  failed: number;
  lost: number;
  webhooksExpected: number;
  webhooksDelivered: number;
  duplicates: number;
  /** Async conversions reached 0 or more than 3 times. */
  outsideOneToThree: number;
  /** Rows whose webhook_delivered differs from whether the receiver acknowledged. */
  disagreements: number;
  /** Sum over workspaces of |balance − ledger sum|, plus refunds missing or extra. */
  ledgerDifference: number;
  /** Attempts whose outcome was never recorded ("in progress" after everything settled). */
  unknownOutcomes: number;
  /** Conversion ids the receiver saw more than once, for the log. */
  duplicateIds: string[];
}

/** Reads the rows of the burst's workspaces and compares them with the receiver and the ledger. */
export async function measure(db: Db, workspaceIds: string[], receiver: CountingReceiver): Promise<Outcome> {
  const rows = await db.conversion.findMany({
    where: { workspaceId: { in: workspaceIds } },
    select: {
      id: true,
      status: true,
      mode: true,
      webhookAttempts: { select: { succeeded: true, error: true } },
      transactions: { select: { type: true } },
    },
  });
  const finished = rows.filter((r) => r.status === 'completed' || r.status === 'failed');
  const asyncRows = finished.filter((r) => r.mode === 'async');
  let duplicates = 0;
  let outside = 0;
  let disagreements = 0;
  let delivered = 0;
  const duplicateIds: string[] = [];
  for (const r of asyncRows) {
    const got = receiver.received(r.id);
    duplicates += Math.max(0, got - 1);
    if (got > 1) duplicateIds.push(r.id);
    if (got < 1 || got > 3) outside += 1;
    const webhookDelivered = r.webhookAttempts.some((a) => a.succeeded);
    if (webhookDelivered) delivered += 1;
    if (webhookDelivered !== receiver.acknowledged(r.id) > 0) disagreements += 1;
  }
  let ledgerDifference = 0;
  for (const r of finished) {
    const refunds = r.transactions.filter((t) => t.type === 'refund').length;
    const charges = r.transactions.filter((t) => t.type === 'charge').length;
    ledgerDifference += Math.abs(refunds - (r.status === 'failed' ? 1 : 0)) + Math.abs(charges - 1);
  }
  const workspaces = await db.workspace.findMany({
    where: { id: { in: workspaceIds } },
    select: { creditBalance: true, transactions: { select: { amount: true } } },
  });
  for (const w of workspaces) {
    ledgerDifference += Math.abs(w.creditBalance - w.transactions.reduce((sum, t) => sum + t.amount, 0));
  }
  return {
    accepted: rows.length,
    completed: finished.filter((r) => r.status === 'completed').length,
    failed: finished.filter((r) => r.status === 'failed').length,
    lost: rows.length - finished.length,
    webhooksExpected: rows.filter((r) => r.mode === 'async').length,
    webhooksDelivered: delivered,
    duplicates,
    outsideOneToThree: outside,
    disagreements,
    ledgerDifference,
    unknownOutcomes: asyncRows.reduce(
      (n, r) => n + r.webhookAttempts.filter((a) => a.error === 'in progress').length,
      0,
    ),
    duplicateIds,
  };
}

/** Settled: nothing left to happen (every row finished, every webhook delivered or out of attempts, none in progress). */
export async function settled(db: Db, workspaceIds: string[], maxAttempts: number): Promise<boolean> {
  const rows = await db.conversion.findMany({
    where: { workspaceId: { in: workspaceIds } },
    select: { status: true, mode: true, webhookAttempts: { select: { succeeded: true, error: true } } },
  });
  return rows.every((r) => {
    if (r.status !== 'completed' && r.status !== 'failed') return false;
    if (r.mode !== 'async') return true;
    const attempts = r.webhookAttempts;
    if (attempts.some((a) => a.error === 'in progress')) return false;
    return attempts.some((a) => a.succeeded) || attempts.length >= maxAttempts;
  });
}
