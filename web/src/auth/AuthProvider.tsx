import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import { api } from '../api/client';
import { AuthContext, type AuthContextValue } from './AuthContext';
import {
  anonymous,
  authenticated,
  changePasswordRequest,
  loginRequest,
  registerRequest,
  restoreSession,
  updateNameRequest,
  type RegisterPayload,
  type Session,
  type SessionDeps,
} from './session';
import { tokenStorage } from '../api/tokenStorage';

const deps: SessionDeps = { http: api, tokens: tokenStorage };

export function AuthProvider({ children }: { children: ReactNode }) {
  const [session, setSession] = useState<Session>({ status: 'loading' });
  const queryClient = useQueryClient();

  useEffect(() => {
    let active = true;
    void restoreSession(deps).then((restored) => {
      if (active) setSession(restored);
    });
    return () => {
      active = false;
    };
  }, []);

  const login = useCallback(async (email: string, password: string) => {
    const user = await loginRequest(deps, email, password);
    // Cached reads belonged to whoever used this browser before. Mutations stay: this very login
    // runs as one.
    queryClient.removeQueries();
    setSession(authenticated(user));
    return user;
  }, [queryClient]);

  const register = useCallback(async (payload: RegisterPayload) => {
    const user = await registerRequest(deps, payload);
    queryClient.removeQueries();
    setSession(authenticated(user));
    return user;
  }, [queryClient]);

  const logout = useCallback(() => {
    tokenStorage.clear();
    queryClient.removeQueries();
    setSession(anonymous);
  }, [queryClient]);

  const changePassword = useCallback(async (currentPassword: string, newPassword: string, keepApiKeys: boolean) => {
    const changed = await changePasswordRequest(deps, currentPassword, newPassword, keepApiKeys);
    setSession(authenticated(changed.user));
    return changed;
  }, []);

  const updateName = useCallback(async (name: string) => {
    const user = await updateNameRequest(deps, name);
    setSession(authenticated(user));
    return user;
  }, []);

  const value = useMemo<AuthContextValue>(
    () => ({
      session,
      user: session.status === 'authenticated' ? session.user : null,
      login,
      register,
      logout,
      changePassword,
      updateName,
    }),
    [session, login, register, logout, changePassword, updateName],
  );

  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}
