import type { ConversionOutput, ConvertOptions, DocumentMetadata } from './types';
import { userFacingError } from './user-facing-errors';
import { converterForContent, isSupportedExtension } from './formats/table';
import { isTextExtension } from './formats/sniff';
import type { TokenOptimization } from './tokens/count';
import { optimizeMarkdownText } from './filters/optimize-tokens-text';
import { renderMarkdown } from './writers/markdown';
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
  // An empty file of a binary type is a valid, empty document (docs/decisions.md); text types read it themselves.
  if (input.length === 0 && isSupportedExtension(extension) && !isTextExtension(extension)) {
    return { markdown: '', metadata: { title: '', author: '', page_count: 0 } };
  }
  let output: ConversionOutput;
  try {
    const converter = await converterForContent(input, extension);
    output = await converter.convert(input, options);
  } catch (err) {
    throw userFacingError(err, extension);
  }
  const metadata = normaliseMetadata(output.metadata);
  let markdown = withoutControlCharacters(output.markdown);
  let model = output.blocks;
  if (options.enhanced && options.modelEndpoint) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on use, as in registry.ts
    const { refineWithModel } = require('./enhanced/model-pass') as typeof import('./enhanced/model-pass');
    markdown = (await refineWithModel(markdown, options.modelEndpoint)).markdown;
    model = undefined; // the model's answer is text: the document model no longer describes it
  }
  if (!options.optimizeTokens) return { markdown, metadata };
  // The tokenizer's tables are large: loaded only when a conversion asks for optimisation.
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on use, as in registry.ts
  const { tokenOptimization } = require('./tokens/count') as typeof import('./tokens/count');
  // The writer optimises what the model knows; text without a model goes through the string pass.
  const optimized = model
    ? withoutControlCharacters(renderMarkdown(model, { optimizeTokens: true }))
    : optimizeMarkdownText(markdown);
  return { markdown: optimized, metadata, tokenOptimization: tokenOptimization(markdown, optimized) };
}

function normaliseMetadata(m: Partial<DocumentMetadata> | undefined): DocumentMetadata {
  return {
    title: typeof m?.title === 'string' ? withoutControlCharacters(m.title).trim() : '',
    author: typeof m?.author === 'string' ? withoutControlCharacters(m.author).trim() : '',
    page_count: Number.isInteger(m?.page_count) && (m?.page_count ?? 0) >= 0 ? (m?.page_count as number) : 0,
  };
}

/** NUL and other C0 controls (tab and line breaks kept): no reader of Markdown wants them, and PostgreSQL cannot store NUL. */
function withoutControlCharacters(text: string): string {
  return text.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, '');
}
