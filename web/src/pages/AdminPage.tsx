import { useCallback, useEffect, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { errorDetail } from '../api/client';
import { useAuth } from '../auth/useAuth';
import { isAdmin } from '../auth/user';
import { ActivityLogsTab } from '../admin/ActivityLogsTab';
import { fetchEnhancedStats } from '../admin/adminApi';
import { AdminTabs, isAdminTab, type AdminTabId } from '../admin/AdminTabs';
import { ContactFormsTab } from '../admin/ContactFormsTab';
import { CreditManagerTab } from '../admin/CreditManagerTab';
import { NoticeBanners } from '../admin/NoticeBanners';
import { NoticesContext, type Notices } from '../admin/notices';
import { OptOutsTab } from '../admin/OptOutsTab';
import { OverviewTab } from '../admin/OverviewTab';
import { ProxyStatsTab } from '../admin/ProxyStatsTab';
import { UserManagementTab } from '../admin/UserManagementTab';
import { useRemoteData } from '../admin/useRemoteData';
import '../admin/admin.css';

const SUCCESS_VISIBLE_MS = 6000;

export function AdminPage() {
  const { user, refreshUser } = useAuth();
  const admin = user ? isAdmin(user) : false;
  const [params, setParams] = useSearchParams();
  const tabParam = params.get('tab');
  const tab: AdminTabId = isAdminTab(tabParam) ? tabParam : 'overview';
  const [success, setSuccess] = useState('');
  const [error, setError] = useState('');
  // Bumped after every change an admin makes, so each tab reloads the data it shows.
  const [version, setVersion] = useState(0);
  const changed = useCallback(() => {
    setVersion((v) => v + 1);
    // The admin may have changed their own credits: the header's balance follows.
    void refreshUser();
  }, [refreshUser]);

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
  const overview = useRemoteData(() => fetchEnhancedStats({ include: ['stats'] }), String(version), admin);
  useEffect(() => {
    if (overview.failure) setError(errorDetail(overview.failure, 'Failed to fetch admin data'));
  }, [overview.failure]);

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
        {!overview.data && overview.loading ? (
          <div className="admin-loading" role="status"><span className="spinner" aria-hidden="true" />Loading admin data...</div>
        ) : (
          <>
            <AdminTabs active={tab} onSelect={selectTab} />
            <div id="admin-tab-panel" role="tabpanel" aria-labelledby={`admin-tab-${tab}`}>
              {tab === 'overview' && (overview.data?.stats ? <OverviewTab stats={overview.data.stats} /> : (
                <p className="muted">The overview could not be loaded. <button type="button" className="btn btn-secondary btn-sm" onClick={overview.reload}>Try again</button></p>
              ))}
              {tab === 'users' && <UserManagementTab currentUserId={user.id} version={version} onChanged={changed} />}
              {tab === 'decodo' && <ProxyStatsTab />}
              {tab === 'activity' && <ActivityLogsTab version={version} />}
              {tab === 'contacts' && <ContactFormsTab version={version} />}
              {tab === 'credits' && <CreditManagerTab version={version} onChanged={changed} />}
              {tab === 'opt-outs' && <OptOutsTab version={version} />}
            </div>
          </>
        )}
      </div>
    </NoticesContext.Provider>
  );
}
