import type { TranscriptionEndpoint } from '../types';

export type { TranscriptionEndpoint };

export interface TranscribedSegment {
  /** Seconds from the start of the audio sent. */
  start: number;
  end: number;
  text: string;
}

/**
 * Enhanced mode's optional speech pass: audio goes to an OpenAI-compatible transcription endpoint
 * (`POST {base}/audio/transcriptions`, as whisper.cpp's server, faster-whisper servers, vLLM and
 * LocalAI serve it). Any failure, timeout or empty answer returns undefined: the caller keeps the
 * offline transcription.
 */
export async function transcribeWithEndpoint(
  wav: Buffer,
  endpoint: TranscriptionEndpoint,
): Promise<TranscribedSegment[] | undefined> {
  const form = new FormData();
  form.append('file', new Blob([wav], { type: 'audio/wav' }), 'audio.wav');
  form.append('model', endpoint.model);
  // verbose_json carries segment timestamps; servers that only know json still answer with text.
  form.append('response_format', 'verbose_json');
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), endpoint.timeoutMs);
  try {
    const res = await fetch(`${endpoint.baseUrl.replace(/\/+$/, '')}/audio/transcriptions`, {
      method: 'POST',
      body: form,
      signal: controller.signal,
      headers: endpoint.apiKey ? { Authorization: `Bearer ${endpoint.apiKey}` } : {},
    });
    if (!res.ok) return undefined;
    const body = (await res.json()) as {
      text?: unknown;
      segments?: Array<{ start?: unknown; end?: unknown; text?: unknown }>;
    };
    const seconds = (v: unknown, otherwise: number): number => (typeof v === 'number' && v >= 0 ? v : otherwise);
    const segments = (body.segments ?? [])
      .filter((s) => typeof s.text === 'string' && s.text.trim())
      .map((s) => {
        const start = seconds(s.start, 0);
        return { start, end: seconds(s.end, start), text: String(s.text).trim() };
      });
    if (segments.length) return segments;
    const text = typeof body.text === 'string' ? body.text.trim() : '';
    return text ? [{ start: 0, end: 0, text }] : undefined;
  } catch {
    return undefined;
  } finally {
    clearTimeout(timer);
  }
}
