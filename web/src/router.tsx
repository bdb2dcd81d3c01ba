import { Navigate, Outlet, Route, ScrollRestoration, createBrowserRouter, createRoutesFromElements } from 'react-router-dom';
import { AppLayout } from './layout/AppLayout';
import { AdminPage } from './pages/AdminPage';
import { AffiliatePage } from './pages/AffiliatePage';
import { ContactPage } from './pages/ContactPage';
import { OptOutPage } from './pages/OptOutPage';
import { CreditsPage } from './pages/CreditsPage';
import { DashboardPage } from './pages/DashboardPage';
import { DevelopersPage } from './developers/DevelopersPage';
import { ForgotPasswordPage } from './pages/ForgotPasswordPage';
import { HomePage } from './pages/HomePage';
import { LoginPage } from './pages/LoginPage';
import { MonitorsPage } from './monitors/MonitorsPage';
import { PromoPage } from './pages/PromoPage';
import { RegisterPage } from './pages/RegisterPage';
import { ResetPasswordPage } from './pages/ResetPasswordPage';
import { SearchesPage } from './pages/SearchesPage';
import { SearchPage } from './pages/SearchPage';
import { SettingsPage } from './pages/SettingsPage';
import { RequireSession } from './routing/RequireSession';

function Root() {
  return (
    <>
      <ScrollRestoration />
      <Outlet />
    </>
  );
}

export const router = createBrowserRouter(
  createRoutesFromElements(
    <Route element={<Root />}>
      <Route path="/login" element={<LoginPage />} />
      <Route path="/register" element={<RegisterPage />} />
      <Route path="/forgot-password" element={<ForgotPasswordPage />} />
      <Route path="/reset-password" element={<ResetPasswordPage />} />
      <Route path="/promo/cbc500" element={<PromoPage />} />

      <Route element={<AppLayout />}>
        <Route index element={<HomePage />} />
        <Route path="/contact" element={<ContactPage />} />
        <Route path="/opt-out" element={<OptOutPage />} />
      </Route>

      {/* The guard sits outside the layout so its loading state can fill the screen. */}
      <Route element={<RequireSession />}>
        <Route element={<AppLayout />}>
          <Route path="/dashboard" element={<DashboardPage />} />
          <Route path="/searches" element={<SearchesPage />} />
          <Route path="/searches/:id" element={<SearchPage />} />
          <Route path="/monitors" element={<MonitorsPage />} />
          <Route path="/credits" element={<CreditsPage />} />
          <Route path="/affiliate" element={<AffiliatePage />} />
          <Route path="/settings" element={<SettingsPage />} />
          <Route path="/developers" element={<DevelopersPage />} />
        </Route>
      </Route>
      <Route element={<RequireSession adminOnly />}>
        <Route element={<AppLayout />}>
          <Route path="/admin" element={<AdminPage />} />
        </Route>
      </Route>

      <Route path="*" element={<Navigate to="/" replace />} />
    </Route>,
  ),
);
