/** The metric names a PromQL expression reads (good enough for the expressions we write). */
const KEYWORDS = new Set(['by', 'without', 'on', 'ignoring', 'group_left', 'group_right', 'bool', 'and', 'or', 'unless', 'offset', 'inf', 'nan']);

export function metricNames(expr: string): string[] {
  const stripped = expr
    .replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'/g, '""') // strings
    .replace(/\{[^}]*\}/g, '') // label matchers
    .replace(/\[[^\]]*\]/g, '') // ranges
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, '') // label lists
    .replace(/\$\w+/g, ''); // Grafana variables
  const names = new Set<string>();
  for (const match of stripped.matchAll(/[a-zA-Z_:][a-zA-Z0-9_:]*(\s*\()?/g)) {
    const [token, call] = [match[0].replace(/\s*\($/, ''), match[1]];
    if (call || KEYWORDS.has(token.toLowerCase()) || /^\d/.test(token)) continue;
    names.add(token);
  }
  return [...names];
}

/** Series names an exposition offers: histogram and summary families expand to their series. */
export function exportedSeries(exposition: string): Set<string> {
  const series = new Set<string>();
  for (const line of exposition.split('\n')) {
    const type = line.match(/^# TYPE (\S+) (\w+)/);
    if (type) {
      const [, name, kind] = type;
      series.add(name);
      if (kind === 'histogram') for (const suffix of ['_bucket', '_sum', '_count']) series.add(name + suffix);
      if (kind === 'summary') for (const suffix of ['_sum', '_count']) series.add(name + suffix);
      continue;
    }
    const sample = line.match(/^([a-zA-Z_:][a-zA-Z0-9_:]*)/);
    if (sample) series.add(sample[1]);
  }
  return series;
}
