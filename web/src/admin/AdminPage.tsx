import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { errorDetail } from '../api/client';
import { useAuth } from '../auth/useAuth';
import { isAdmin } from '../auth/user';
import { ActivityLogsTab } from './ActivityLogsTab';
import { AffiliatesTab } from './AffiliatesTab';
import { adminKeys, fetchEnhancedStats, type StatsQuery } from './adminApi';
import { AdminTabs, isAdminTab, type AdminTabId } from './AdminTabs';
import { ContactFormsTab } from './ContactFormsTab';
import { CreditManagerTab } from './CreditManagerTab';
import { NoticeBanners } from './NoticeBanners';
import { NoticesContext, type Notices } from './notices';
import { OptOutsTab } from './OptOutsTab';
import { OverviewTab } from './OverviewTab';
import { ParkedWorkTab } from './ParkedWorkTab';
import { ProxyStatsTab } from './ProxyStatsTab';
import { RefundsTab } from './RefundsTab';
import { UserDetailView } from './UserDetailView';
import { UserManagementTab } from './UserManagementTab';
import './admin.css';

const SUCCESS_VISIBLE_MS = 6000;
const OVERVIEW: StatsQuery = { include: ['stats'] };

export function AdminPage() {
  const { user, refreshUser } = useAuth();
  const admin = user ? isAdmin(user) : false;
  const [params, setParams] = useSearchParams();
  const tabParam = params.get('tab');
  const tab: AdminTabId = isAdminTab(tabParam) ? tabParam : 'overview';
  // The Users tab opens one user at /admin?tab=users&user=<id>, so the view survives a reload and Back.
  const openUser = tab === 'users' ? params.get('user') : null;
  const [success, setSuccess] = useState('');
  const [error, setError] = useState('');
  const queryClient = useQueryClient();
  // A user or credit change shows in the user lists, the overview's figures and the activity log alike.
  const changed = useCallback(() => {
    void queryClient.invalidateQueries({ queryKey: adminKeys.statsAll });
    void queryClient.invalidateQueries({ queryKey: adminKeys.activityAll });
    // The admin may have changed their own credits: the header's balance follows.
    void refreshUser();
  }, [queryClient, refreshUser]);

  const notices = useMemo<Notices>(() => ({
    success: (message) => { setError(''); setSuccess(message); },
    error: (message) => { setSuccess(''); setError(message); },
    clear: () => { setSuccess(''); setError(''); },
  }), []);

  useEffect(() => {
    if (!success) return;
    const timer = setTimeout(() => setSuccess(''), SUCCESS_VISIBLE_MS);
    return () => clearTimeout(timer);
  }, [success]);

  // Admin data is fetched only for admins.
  const overview = useQuery({ queryKey: adminKeys.stats(OVERVIEW), queryFn: () => fetchEnhancedStats(OVERVIEW), enabled: admin });

  if (!user || !admin) {
    return (
      <div className="container page">
        <div className="alert alert-error admin-denied" role="alert">Access Denied. Admin privileges required.</div>
      </div>
    );
  }

  const selectTab = (next: AdminTabId) => {
    setParams(next === 'overview' ? {} : { tab: next }, { replace: true });
  };

  return (
    <NoticesContext.Provider value={notices}>
      <div className="container page admin-page">
        <header className="admin-header">
          <h1>Enhanced Admin Panel</h1>
          <p className="muted">Complete system management and analytics</p>
        </header>
        <NoticeBanners success={success} error={error} onDismiss={notices.clear} />
        {overview.isPending ? (
          <div className="admin-loading" role="status"><span className="spinner" aria-hidden="true" />Loading admin data...</div>
        ) : (
          <>
            <AdminTabs active={tab} onSelect={selectTab} />
            <div id="admin-tab-panel" role="tabpanel" aria-labelledby={`admin-tab-${tab}`}>
              {tab === 'overview' && (overview.data?.stats ? <OverviewTab stats={overview.data.stats} /> : (
                <div className="alert alert-error" role="alert">
                  The overview could not be loaded: {errorDetail(overview.error, 'Failed to fetch admin data')}{' '}
                  <button type="button" className="btn btn-secondary btn-sm" onClick={() => void overview.refetch()} disabled={overview.isFetching}>
                    {overview.isFetching ? 'Trying...' : 'Try again'}
                  </button>
                </div>
              ))}
              {tab === 'users' && (openUser
                ? <UserDetailView userId={openUser} onBack={() => setParams({ tab: 'users' })} />
                : <UserManagementTab currentUserId={user.id} onChanged={changed} />)}
              {tab === 'decodo' && <ProxyStatsTab />}
              {tab === 'activity' && <ActivityLogsTab />}
              {tab === 'contacts' && <ContactFormsTab />}
              {tab === 'credits' && <CreditManagerTab onChanged={changed} />}
              {tab === 'refunds' && <RefundsTab onChanged={changed} />}
              {tab === 'opt-outs' && <OptOutsTab />}
              {tab === 'affiliates' && <AffiliatesTab />}
              {tab === 'parked-work' && <ParkedWorkTab />}
            </div>
          </>
        )}
      </div>
    </NoticesContext.Provider>
  );
}
