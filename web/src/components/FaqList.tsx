export interface FaqEntry {
  q: string;
  a: string;
}

/** Questions that open to their answer; native <details>, so it works with the keyboard and without script. */
export function FaqList({ entries }: { entries: readonly FaqEntry[] }) {
  return (
    <div className="faq-list">
      {entries.map(({ q, a }) => (
        <details key={q} className="faq-item">
          <summary>{q}</summary>
          <p>{a}</p>
        </details>
      ))}
    </div>
  );
}
