export function StatCard({ label, value, detail, testId }: { label: string; value: string; detail: string; testId: string }) {
  return (
    <div className="card admin-stat" data-testid={testId}>
      <p className="admin-stat-label">{label}</p>
      <p className="admin-stat-value">{value}</p>
      <p className="admin-stat-detail">{detail}</p>
    </div>
  );
}
