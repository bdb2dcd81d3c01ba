import { createContext, useContext } from 'react';

/** The success and error banners at the top of the panel; every tab reports through them. */
export interface Notices {
  success(message: string): void;
  error(message: string): void;
  clear(): void;
}

export const NoticesContext = createContext<Notices | null>(null);

export function useNotices(): Notices {
  const notices = useContext(NoticesContext);
  if (!notices) throw new Error('useNotices must be used within the admin panel');
  return notices;
}
