import { fetchProxyUsage } from './adminApi';
import { ProxyStatusCard } from './ProxyStatusCard';
import { ScraperTestCard } from './ScraperTestCard';
import { UsageStatsCard } from './UsageStatsCard';
import { useRemoteData } from './useRemoteData';

export function ProxyStatsTab() {
  const usage = useRemoteData(fetchProxyUsage, 'proxy-usage');
  return (
    <div className="admin-tab-body">
      <ProxyStatusCard />
      <UsageStatsCard usage={usage} />
      <ScraperTestCard onScraped={usage.reload} />
    </div>
  );
}
