import { Link, NavLink } from 'react-router-dom';
import { useBalance } from '../billing/balance';
import { formatCount } from '../billing/plans';
import { useAuth } from '../auth/useAuth';
import { isAdmin } from '../auth/user';
import { Icon } from '../components/Icon';
import { Logo } from '../components/Logo';
import { UserMenu } from './UserMenu';

const navClass = ({ isActive }: { isActive: boolean }) => (isActive ? 'nav-link active' : 'nav-link');

export function Header() {
  const { session, user } = useAuth();
  const balance = useBalance();

  return (
    <header className="site-header">
      <div className="container header-inner">
        <Logo />
        {user ? (
          <>
            <nav className="main-nav" aria-label="Main">
              <NavLink to="/dashboard" className={navClass}>
                Dashboard
              </NavLink>
              <NavLink to="/searches" className={navClass}>
                Searches
              </NavLink>
              <NavLink to="/credits" className={navClass}>
                Credits
              </NavLink>
              <NavLink to="/affiliate" className={navClass}>
                Affiliate
              </NavLink>
              {isAdmin(user) && (
                <NavLink to="/admin" className={navClass}>
                  Admin
                </NavLink>
              )}
            </nav>
            <div className="header-actions">
              <Link to="/credits" className="credit-badge" data-testid="credit-badge" title="Credit balance">
                <Icon name="zap" className="icon-sm" />
                <span>
                  {balance === undefined ? '…' : formatCount(balance)}
                  <span className="credit-badge-unit"> credits</span>
                </span>
              </Link>
              <UserMenu user={user} />
            </div>
          </>
        ) : (
          // While the session check runs, show no sign-in links that may be wrong a moment later.
          session.status === 'anonymous' && (
            <>
              <nav className="main-nav" aria-label="Main">
                <NavLink to="/" end className={navClass}>
                  Home
                </NavLink>
                <NavLink to="/contact" className={navClass}>
                  Contact
                </NavLink>
              </nav>
              <div className="header-actions">
                <Link to="/login" className="btn btn-ghost">
                  Login
                </Link>
                <Link to="/register" className="btn btn-primary">
                  Get Started
                </Link>
              </div>
            </>
          )
        )}
      </div>
    </header>
  );
}
