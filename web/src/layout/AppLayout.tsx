import { Outlet } from 'react-router-dom';
import { Header } from './Header';
import { SiteFooter } from './SiteFooter';

export function AppLayout() {
  return (
    <div className="app-layout">
      <a href="#main" className="skip-link">
        Skip to content
      </a>
      <Header />
      <main id="main" className="app-main" tabIndex={-1}>
        <Outlet />
      </main>
      <SiteFooter />
    </div>
  );
}
