import {
  MarkwrightConnectionError,
  MarkwrightError,
  ValidationError,
  type SyncConversionResult,
} from '@markwright/client';
import { FileAccessError } from './allowed-file';
import type { ConversionArguments } from './convert-tools';

export interface ToolResult {
  [key: string]: unknown;
  content: Array<{ type: 'text'; text: string }>;
  isError?: boolean;
}

/** The parts of a sync result that go into the JSON item, in this order, when present. */
const EXTRA_FIELDS = ['chunks', 'pages', 'metadata', 'token_optimization'] as const;

/**
 * The Markdown as the first text item; when chunks, pages, metadata or token figures were asked
 * for, a second item holding them as JSON (the same fields as the API's sync body).
 */
export function toolResult(result: SyncConversionResult, args: ConversionArguments): ToolResult {
  const fields = result as unknown as Record<string, unknown>;
  const asked =
    args.chunk_max_tokens !== undefined || args.include_pages || args.include_metadata || args.optimize_tokens;
  const extras = Object.fromEntries(
    EXTRA_FIELDS.filter((key) => fields[key] !== undefined).map((key) => [key, fields[key]]),
  );
  const content: ToolResult['content'] = [{ type: 'text', text: result.markdown }];
  if (asked && Object.keys(extras).length > 0) content.push({ type: 'text', text: JSON.stringify(extras) });
  return { content };
}

/** An error the model can act on: the API's message (and per-field messages), never a stack or the token. */
export function toolFailure(err: unknown): ToolResult {
  return { content: [{ type: 'text', text: describe(err) }], isError: true };
}

function describe(err: unknown): string {
  if (err instanceof FileAccessError) return err.message;
  if (err instanceof ValidationError) {
    const fields = Object.entries(err.errors).map(([field, messages]) => `${field}: ${messages.join(' ')}`);
    return fields.length > 0 ? `Invalid request. ${fields.join('; ')}` : err.message;
  }
  if (err instanceof MarkwrightError)
    return `Markwright answered ${err.status}${err.code ? ` ${err.code}` : ''}: ${err.message}`;
  if (err instanceof MarkwrightConnectionError) return err.message;
  // stderr is the server's log (stdout carries the protocol); the model gets no internals.
  console.error(err);
  return 'The Markwright MCP server failed unexpectedly; its log (stderr) has the details.';
}
