/** Marks a purchase made through the built-in test checkout: no money moved, not revenue. */
export function TestMoneyBadge() {
  return <span className="admin-badge admin-badge-warning" title="Paid through the built-in test checkout: no money moved, not counted as revenue">test</span>;
}
