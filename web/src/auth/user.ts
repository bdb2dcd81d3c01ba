import type { User } from '@leadforge/contracts';

export type { Role, User, UserStatus } from '@leadforge/contracts';

export const isAdmin = (user: User): boolean => user.role === 'admin';
