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
  const { data } = await api.post<Message>('/api/auth/account-deletion', { password });
  return data.message;
}
