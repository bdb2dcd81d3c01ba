import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router-dom';
import { ReferralCapture } from './affiliate/ReferralCapture';
import { AuthProvider } from './auth/AuthProvider';
import { router } from './router';
import './styles.css';

const container = document.getElementById('root');
if (!container) throw new Error('Missing #root element');

createRoot(container).render(
  <StrictMode>
    <AuthProvider>
      <ReferralCapture />
      <RouterProvider router={router} />
    </AuthProvider>
  </StrictMode>,
);
