const TOKEN_KEY = 'token';

export interface TokenStore {
  read(): string | null;
  write(token: string): void;
  clear(): void;
}

export const tokenStorage: TokenStore = {
  read: () => localStorage.getItem(TOKEN_KEY),
  write: (token) => localStorage.setItem(TOKEN_KEY, token),
  clear: () => localStorage.removeItem(TOKEN_KEY),
};
