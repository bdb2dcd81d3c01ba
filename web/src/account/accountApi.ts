import { api } from '../api/client';

interface Message {
  message: string;
}

/** Asks for a reset link; the server answers the same whether or not the account exists. */
export async function requestPasswordReset(email: string): Promise<string> {
  const { data } = await api.post<Message>('/api/auth/password-reset', { email });
  return data.message;
}

export async function confirmPasswordReset(token: string, password: string): Promise<string> {
  const { data } = await api.post<Message>('/api/auth/password-reset/confirm', { token, password });
  return data.message;
}

/** Deletes the signed-in user's account; their password confirms it. */
export async function deleteAccount(password: string): Promise<string> {
  const { data } = await api.delete<Message>('/api/account', { data: { password } });
  return data.message;
}

export const searchReadyEmailsKey = ['account', 'search-ready-emails'] as const;

/** Whether a search that runs more than a minute emails "your leads are ready". */
export async function readSearchReadyEmails(): Promise<boolean> {
  const { data } = await api.get<{ notify_search_ready?: boolean }>('/api/auth/me');
  return data.notify_search_ready !== false;
}

export async function setSearchReadyEmails(on: boolean): Promise<boolean> {
  const { data } = await api.patch<{ notify_search_ready?: boolean }>('/api/auth/me', { notify_search_ready: on });
  return data.notify_search_ready !== false;
}

/** Spends the token of the link mailed at registration; the answer says whether the account became an administrator. */
export async function verifyEmail(token: string): Promise<string> {
  const { data } = await api.post<Message>('/api/auth/verify-email', { token });
  return data.message;
}
