/**
 * Enhanced mode's optional model pass: the locally converted Markdown is sent to an
 * OpenAI-compatible chat endpoint (ENHANCED_AI_BASE_URL / _MODEL / _API_KEY) to repair broken
 * tables and describe figures. Any failure, timeout or implausible answer keeps the local result.
 */
export interface ModelEndpoint {
  baseUrl: string;
  model: string;
  apiKey?: string;
  timeoutMs: number;
}

export interface ModelPassResult {
  markdown: string;
  used: boolean;
  reason?: string;
}

/** Longest Markdown sent to the model; longer documents keep the local result. */
export const MODEL_PASS_MAX_CHARS = 200_000;
/** A repaired document shorter than this share of the original is treated as truncated. */
const MIN_KEPT_SHARE = 0.6;

const INSTRUCTIONS = [
  'You repair Markdown produced by a document converter.',
  'Fix tables whose rows or columns were broken apart into valid GitHub-flavoured Markdown tables.',
  'Where an image placeholder like ![alt](#) has a meaningful alt text, keep it and add a one-sentence description after it only if the surrounding text makes it clear.',
  'Keep every word of the original text, in the same order. Do not summarise, translate or add commentary.',
  'Answer with the Markdown document only.',
].join(' ');

export async function refineWithModel(markdown: string, endpoint: ModelEndpoint): Promise<ModelPassResult> {
  if (!markdown.trim()) return { markdown, used: false, reason: 'empty document' };
  if (markdown.length > MODEL_PASS_MAX_CHARS)
    return { markdown, used: false, reason: 'document too long for the model pass' };
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), endpoint.timeoutMs);
  try {
    const res = await fetch(`${endpoint.baseUrl.replace(/\/+$/, '')}/chat/completions`, {
      method: 'POST',
      signal: controller.signal,
      headers: {
        'Content-Type': 'application/json',
        ...(endpoint.apiKey ? { Authorization: `Bearer ${endpoint.apiKey}` } : {}),
      },
      body: JSON.stringify({
        model: endpoint.model,
        temperature: 0,
        messages: [
          { role: 'system', content: INSTRUCTIONS },
          { role: 'user', content: markdown },
        ],
      }),
    });
    if (!res.ok) return { markdown, used: false, reason: `model endpoint answered ${res.status}` };
    const body = (await res.json()) as { choices?: Array<{ message?: { content?: unknown } }> };
    const content = body.choices?.[0]?.message?.content;
    if (typeof content !== 'string' || !content.trim()) return { markdown, used: false, reason: 'empty model answer' };
    const repaired = stripOuterFence(content.trim());
    if (repaired.length < markdown.trim().length * MIN_KEPT_SHARE) {
      return { markdown, used: false, reason: 'model answer looks truncated' };
    }
    return { markdown: `${repaired}\n`, used: true };
  } catch (err) {
    const reason = controller.signal.aborted
      ? 'model endpoint timed out'
      : `model endpoint failed: ${(err as Error).message}`;
    return { markdown, used: false, reason };
  } finally {
    clearTimeout(timer);
  }
}

function stripOuterFence(text: string): string {
  const m = /^```(?:markdown|md)?\n([\s\S]*)\n```$/.exec(text);
  return m ? m[1]! : text;
}
