import type { ConversionOutput, ConvertOptions, DocumentMetadata } from './types';
import { ConversionError } from './types';
import { converterFor } from './registry';
import type { TokenOptimization } from './tokens/optimize';
import type { ModelEndpoint } from './enhanced/model-pass';

export interface ConvertDocumentOptions extends ConvertOptions {
  optimizeTokens?: boolean;
  /** Enhanced mode only: an OpenAI-compatible endpoint for a final repair pass. */
  modelEndpoint?: ModelEndpoint;
}

export interface ConvertDocumentResult {
  markdown: string;
  metadata: DocumentMetadata;
  tokenOptimization?: TokenOptimization;
}

/** One document to Markdown, in this thread: pick the converter, convert, optionally optimise. */
export async function convertDocument(
  input: Buffer,
  extension: string,
  options: ConvertDocumentOptions,
): Promise<ConvertDocumentResult> {
  const converter = converterFor(extension);
  let output: ConversionOutput;
  try {
    output = await converter.convert(input, options);
  } catch (err) {
    if (err instanceof ConversionError) throw err;
    if (err instanceof RangeError && /memory|allocation|Array buffer/i.test(err.message)) {
      throw new ConversionError('out_of_memory', 'The document needs more memory than a conversion may use.');
    }
    throw new ConversionError(
      'corrupt_file',
      `The .${extension.toLowerCase()} file could not be read: ${describe(err)}`,
    );
  }
  const metadata = normaliseMetadata(output.metadata);
  let markdown = output.markdown;
  if (options.enhanced && options.modelEndpoint) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on use, as in registry.ts
    const { refineWithModel } = require('./enhanced/model-pass') as typeof import('./enhanced/model-pass');
    markdown = (await refineWithModel(markdown, options.modelEndpoint)).markdown;
  }
  if (!options.optimizeTokens) return { markdown, metadata };
  // The tokenizer's tables are large: loaded only when a conversion asks for optimisation.
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on use, as in registry.ts
  const { optimizeTokens } = require('./tokens/optimize') as typeof import('./tokens/optimize');
  const optimized = optimizeTokens(markdown);
  return { markdown: optimized.markdown, metadata, tokenOptimization: optimized.stats };
}

function normaliseMetadata(m: Partial<DocumentMetadata> | undefined): DocumentMetadata {
  return {
    title: typeof m?.title === 'string' ? m.title.trim() : '',
    author: typeof m?.author === 'string' ? m.author.trim() : '',
    page_count: Number.isInteger(m?.page_count) && (m?.page_count ?? 0) >= 0 ? (m?.page_count as number) : 0,
  };
}

function describe(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  return message.split('\n')[0]!.slice(0, 300) || 'unknown error';
}
