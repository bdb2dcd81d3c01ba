import { startTransition, useEffect, useId, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { useAuth } from '../auth/useAuth';
import { isAdmin, type User } from '../auth/user';
import { Icon } from '../components/Icon';

export function UserMenu({ user }: { user: User }) {
  const { logout } = useAuth();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const rootRef = useRef<HTMLDivElement>(null);
  const panelId = useId();

  useEffect(() => {
    if (!open) return;
    const closeOnOutsideClick = (event: PointerEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) setOpen(false);
    };
    const closeOnEscape = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setOpen(false);
    };
    document.addEventListener('pointerdown', closeOnOutsideClick);
    document.addEventListener('keydown', closeOnEscape);
    return () => {
      document.removeEventListener('pointerdown', closeOnOutsideClick);
      document.removeEventListener('keydown', closeOnEscape);
    };
  }, [open]);

  // Never rejects (the router keeps a failed navigation in its own state): the button calls it with `void`.
  const handleLogout = async () => {
    // Leave a guarded page before the session ends, or its guard would send the user to /login.
    // The router commits locations in a transition, so the logout must be one too to land after it.
    await navigate('/');
    startTransition(logout);
  };

  return (
    <div className="user-menu" ref={rootRef}>
      <button
        type="button"
        className="user-menu-button"
        data-testid="user-menu-button"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen((value) => !value)}
      >
        <span className="avatar" aria-hidden="true">
          {user.name.trim().charAt(0).toUpperCase() || '?'}
        </span>
        <span className="user-menu-name">{user.name}</span>
        <Icon name="chevronDown" className="icon-sm" />
      </button>
      {open && (
        <div className="user-menu-panel" id={panelId}>
          <div className="user-menu-identity">
            <strong>{user.name}</strong>
            <span>{user.email}</span>
          </div>
          <nav aria-label="Account" onClick={() => setOpen(false)}>
            <Link to="/dashboard">Dashboard</Link>
            <Link to="/monitors">Monitors</Link>
            <Link to="/credits">Buy Credits</Link>
            <Link to="/settings">Settings</Link>
            <Link to="/developers">Developers</Link>
            <Link to="/contact">Contact</Link>
            {isAdmin(user) && <Link to="/admin">Admin Panel</Link>}
          </nav>
          <button type="button" className="user-menu-logout" onClick={() => void handleLogout()}>
            Log out
          </button>
        </div>
      )}
    </div>
  );
}
