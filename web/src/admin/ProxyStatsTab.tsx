import { ProxyStatusCard } from './ProxyStatusCard';
import { ScraperTestCard } from './ScraperTestCard';
import { UsageStatsCard } from './UsageStatsCard';

export function ProxyStatsTab() {
  return (
    <div className="admin-tab-body">
      <ProxyStatusCard />
      <UsageStatsCard />
      <ScraperTestCard />
    </div>
  );
}
