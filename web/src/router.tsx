import { Navigate, Outlet, Route, ScrollRestoration, createBrowserRouter, createRoutesFromElements } from 'react-router-dom';
import { AppLayout } from './layout/AppLayout';
import { AdminPage } from './admin/AdminPage';
import { AffiliatePage } from './affiliate/AffiliatePage';
import { ContactPage } from './contact/ContactPage';
import { OptOutPage } from './optOut/OptOutPage';
import { OptOutConfirmPage } from './optOut/OptOutConfirmPage';
import { CreditsPage } from './billing/CreditsPage';
import { DashboardPage } from './leads/DashboardPage';
import { DevelopersPage } from './developers/DevelopersPage';
import { ForgotPasswordPage } from './account/ForgotPasswordPage';
import { HomePage } from './home/HomePage';
import { LoginPage } from './account/LoginPage';
import { MonitorsPage } from './monitors/MonitorsPage';
import { PromoPage } from './billing/PromoPage';
import { RegisterPage } from './account/RegisterPage';
import { ResetPasswordPage } from './account/ResetPasswordPage';
import { VerifyEmailPage } from './account/VerifyEmailPage';
import { SearchesPage } from './leads/SearchesPage';
import { SearchPage } from './leads/SearchPage';
import { SettingsPage } from './account/SettingsPage';
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
      <Route path="/verify-email" element={<VerifyEmailPage />} />
      <Route path="/promo/cbc500" element={<PromoPage />} />

      <Route element={<AppLayout />}>
        <Route index element={<HomePage />} />
        <Route path="/contact" element={<ContactPage />} />
        <Route path="/opt-out" element={<OptOutPage />} />
        <Route path="/opt-out/confirm" element={<OptOutConfirmPage />} />
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
