import { ComingSoon } from '../components/ComingSoon';

export function AdminPage() {
  return (
    <div className="container page">
      <ComingSoon title="Admin Panel" description="Users, credits, statistics, activity logs, contact submissions and proxy monitoring." />
    </div>
  );
}
