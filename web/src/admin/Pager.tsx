/** Previous / next paging for server-side lists. */
export function Pager({ page, pageSize, total, onPage, busy }: { page: number; pageSize: number; total: number; onPage(page: number): void; busy?: boolean }) {
  const pages = Math.max(1, Math.ceil(total / pageSize));
  if (pages <= 1) return null;
  return (
    <nav className="admin-pager" aria-label="Pages">
      <button type="button" className="btn btn-secondary btn-sm" disabled={busy || page <= 1} onClick={() => onPage(page - 1)}>Previous</button>
      <span>Page {page} of {pages}</span>
      <button type="button" className="btn btn-secondary btn-sm" disabled={busy || page >= pages} onClick={() => onPage(page + 1)}>Next</button>
    </nav>
  );
}
