/**
 * One scrape of a /metrics endpoint. Read here rather than with parse-prometheus-text-format,
 * which merges the labelled series of a histogram into one and loses their labels.
 */
export interface Scrape {
  /** Every metric family the endpoint declares (`# TYPE` lines), with samples or not. */
  families: Map<string, string>;
  /** Sum of the samples of `name` whose labels include `labels`; 0 when none match. */
  value(name: string, labels?: Record<string, string>): number;
}

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

export async function scrapeMetrics(url: string): Promise<Scrape> {
  const res = await fetch(url);
  if (res.status !== 200) throw new Error(`${url} answered ${res.status}`);
  const families = new Map<string, string>();
  const samples: Array<{ name: string; labels: Record<string, string>; value: number }> = [];
  for (const line of (await res.text()).split('\n')) {
    const type = /^# TYPE (\S+) (\S+)/.exec(line);
    if (type) families.set(type[1]!, type[2]!);
    const sample = line.startsWith('#') ? null : SAMPLE.exec(line);
    if (!sample) continue;
    const labels = Object.fromEntries([...(sample[2] ?? '').matchAll(LABEL)].map((m) => [m[1]!, m[2]!]));
    samples.push({ name: sample[1]!, labels, value: Number(sample[3]) });
  }
  return {
    families,
    value: (name, labels = {}) =>
      samples
        .filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
        .reduce((sum, s) => sum + s.value, 0),
  };
}
