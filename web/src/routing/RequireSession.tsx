import { Navigate, Outlet, useLocation } from 'react-router-dom';
import { useAuth } from '../auth/useAuth';
import { FullScreenLoading } from '../components/FullScreenLoading';
import { guardDecision } from './guardDecision';

export function RequireSession({ adminOnly = false }: { adminOnly?: boolean }) {
  const { session } = useAuth();
  const location = useLocation();
  const decision = guardDecision(session, { adminOnly });

  switch (decision.kind) {
    case 'loading':
      return <FullScreenLoading />;
    case 'toLogin':
      return <Navigate to="/login" state={{ from: location }} replace />;
    case 'toDashboard':
      return <Navigate to="/dashboard" replace />;
    case 'allow':
      return <Outlet />;
  }
}
