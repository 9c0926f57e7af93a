import type { MarkwrightClient, SyncConversionResult } from '@markwright/client';
import { readAllowedFile } from './allowed-file';
import { toolFailure, toolResult, type ToolResult } from './tool-result';

/** The options both tools take, named as the API's form fields. */
export interface ConversionArguments {
  include_pages?: boolean;
  page_range?: string;
  chunk_max_tokens?: number;
  include_metadata?: boolean;
  optimize_tokens?: boolean;
}

export interface ToolContext {
  client: MarkwrightClient;
  /** Folders convert_file may read from. */
  roots: string[];
}

/** convert_file: a local file inside the allowed folders, uploaded and converted synchronously. */
export async function convertFile(
  context: ToolContext,
  args: ConversionArguments & { path: string },
): Promise<ToolResult> {
  try {
    const file = await readAllowedFile(args.path, context.roots);
    return toolResult(await context.client.convert(file, clientOptions(args)), args);
  } catch (err) {
    return toolFailure(err);
  }
}

/** convert_url: the service downloads the https URL itself (file_url) and converts it synchronously. */
export async function convertUrl(
  context: ToolContext,
  args: ConversionArguments & { url: string },
): Promise<ToolResult> {
  try {
    const result: SyncConversionResult = await context.client.convert(null, {
      ...clientOptions(args),
      fileUrl: args.url,
    });
    return toolResult(result, args);
  } catch (err) {
    return toolFailure(err);
  }
}

function clientOptions(args: ConversionArguments) {
  return {
    includePages: args.include_pages,
    pageRange: args.page_range,
    chunkMaxTokens: args.chunk_max_tokens,
    includeMetadata: args.include_metadata,
    optimizeTokens: args.optimize_tokens,
  };
}
