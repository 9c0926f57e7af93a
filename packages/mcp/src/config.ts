import path from 'node:path';
import { z } from 'zod';

/** The server's settings, read once from the environment; a bad value stops it with a message naming the variable. */
const EnvSchema = z.object({
  MARKWRIGHT_BASE_URL: z.url({
    protocol: /^https?$/,
    error: 'must be the API address, e.g. http://127.0.0.1:8080/api/v1',
  }),
  MARKWRIGHT_TOKEN: z
    .string({ error: 'is required: a workspace token (mwk_…)' })
    .min(1, 'is required: a workspace token (mwk_…)'),
  MARKWRIGHT_MCP_ROOTS: z.string().optional(),
});

export interface McpConfig {
  baseUrl: string;
  token: string;
  /** Folders convert_file may read from (absolute; default: the working folder). */
  roots: string[];
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

export function readConfig(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): McpConfig {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ConfigError(`markwright mcp: ${String(issue.path[0])} ${issue.message}`);
  }
  const listed = (parsed.data.MARKWRIGHT_MCP_ROOTS ?? '').split(path.delimiter).filter((p) => p.trim() !== '');
  return {
    baseUrl: parsed.data.MARKWRIGHT_BASE_URL,
    token: parsed.data.MARKWRIGHT_TOKEN,
    roots: (listed.length > 0 ? listed : [cwd]).map((root) => path.resolve(cwd, root)),
  };
}
