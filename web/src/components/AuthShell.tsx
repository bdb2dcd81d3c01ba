import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { Logo } from './Logo';

/** Header-less frame for the sign-in, sign-up and promo pages. */
export function AuthShell({ children }: { children: ReactNode }) {
  return (
    <div className="auth-shell">
      <div className="auth-shell-top">
        <Logo />
      </div>
      <main className="auth-shell-main">{children}</main>
      <p className="auth-shell-back">
        <Link to="/">← Back to Home</Link>
      </p>
    </div>
  );
}
