import { Link } from 'react-router-dom';
import { Logo } from '../components/Logo';

export const SUPPORT_EMAIL = 'support@leadforge.app';

export function SiteFooter() {
  return (
    <footer className="site-footer">
      <div className="container footer-inner">
        <div className="footer-brand">
          <Logo />
          <p>Verified B2B leads from maps listings and business websites.</p>
        </div>
        <nav className="footer-links" aria-label="Footer">
          <Link to="/contact">Contact Us</Link>
          <Link to="/affiliate">Affiliate Program</Link>
          <Link to="/opt-out">Opt out</Link>
          <a href={`mailto:${SUPPORT_EMAIL}`}>{SUPPORT_EMAIL}</a>
        </nav>
      </div>
      <div className="container footer-bottom">
        <p>© {new Date().getFullYear()} Leadforge. All rights reserved.</p>
      </div>
    </footer>
  );
}
