import type { KeyboardEvent } from 'react';

export const ADMIN_TABS = [
  { id: 'overview', label: 'Overview' },
  { id: 'users', label: 'User Management' },
  { id: 'decodo', label: 'Decodo Stats' },
  { id: 'activity', label: 'Activity Logs' },
  { id: 'contacts', label: 'Contact Forms' },
  { id: 'credits', label: 'Credit Manager' },
  { id: 'refunds', label: 'Refunds' },
  { id: 'opt-outs', label: 'Opt-outs' },
  { id: 'affiliates', label: 'Affiliates' },
  { id: 'parked-work', label: 'Parked work' },
] as const;

export type AdminTabId = (typeof ADMIN_TABS)[number]['id'];

export const isAdminTab = (value: string | null): value is AdminTabId => ADMIN_TABS.some((t) => t.id === value);

/** The tab bar (WAI-ARIA tabs: arrow keys move between tabs). */
export function AdminTabs({ active, onSelect }: { active: AdminTabId; onSelect(tab: AdminTabId): void }) {
  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
    if (!step) return;
    const index = ADMIN_TABS.findIndex((t) => t.id === active);
    const next = ADMIN_TABS[(index + step + ADMIN_TABS.length) % ADMIN_TABS.length];
    onSelect(next.id);
    document.getElementById(`admin-tab-${next.id}`)?.focus();
  }
  return (
    <div className="admin-tabs" role="tablist" aria-label="Admin sections" onKeyDown={onKeyDown}>
      {ADMIN_TABS.map((tab) => (
        <button
          key={tab.id}
          id={`admin-tab-${tab.id}`}
          type="button"
          role="tab"
          aria-selected={tab.id === active}
          aria-controls="admin-tab-panel"
          tabIndex={tab.id === active ? 0 : -1}
          className={tab.id === active ? 'admin-tab active' : 'admin-tab'}
          onClick={() => onSelect(tab.id)}
        >
          {tab.label}
        </button>
      ))}
    </div>
  );
}
