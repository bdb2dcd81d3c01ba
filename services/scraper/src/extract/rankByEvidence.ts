/**
 * Distinct values ordered by a preference group first (lower is better), then by how often they
 * were seen, then by first appearance.
 */
export function rankByEvidence<T>(values: T[], keyOf: (value: T) => string, group: (value: T) => number = () => 0): T[] {
  const seen = new Map<string, { value: T; count: number; first: number }>();
  values.forEach((value, index) => {
    const key = keyOf(value);
    const entry = seen.get(key);
    if (entry) entry.count += 1;
    else seen.set(key, { value, count: 1, first: index });
  });
  return [...seen.values()]
    .sort((a, b) => group(a.value) - group(b.value) || b.count - a.count || a.first - b.first)
    .map((entry) => entry.value);
}
