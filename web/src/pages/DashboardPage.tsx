import { ComingSoon } from '../components/ComingSoon';

export function DashboardPage() {
  return (
    <div className="container page">
      <ComingSoon title="Dashboard" description="Generate leads by industry and location, review the results and export them to CSV." />
    </div>
  );
}
