export function NoticeBanners({ success, error, onDismiss }: { success: string; error: string; onDismiss(): void }) {
  if (!success && !error) return null;
  return (
    <div className="admin-notices">
      {error && (
        <div className="alert alert-error admin-notice" role="alert">
          <span>{error}</span>
          <button type="button" className="admin-notice-close" onClick={onDismiss} aria-label="Dismiss message">×</button>
        </div>
      )}
      {success && (
        <div className="alert alert-success admin-notice" role="status">
          <span>{success}</span>
          <button type="button" className="admin-notice-close" onClick={onDismiss} aria-label="Dismiss message">×</button>
        </div>
      )}
    </div>
  );
}
