import { createContext } from 'react';
import type { PasswordChanged, RegisterPayload, Session } from './session';
import type { User } from './user';

export interface AuthContextValue {
  session: Session;
  /** The signed-in user, or null while loading or when anonymous. */
  user: User | null;
  login(email: string, password: string): Promise<User>;
  register(payload: RegisterPayload): Promise<User>;
  logout(): void;
  changePassword(currentPassword: string, newPassword: string, keepApiKeys: boolean): Promise<PasswordChanged>;
  updateName(name: string): Promise<User>;
}

export const AuthContext = createContext<AuthContextValue | null>(null);
