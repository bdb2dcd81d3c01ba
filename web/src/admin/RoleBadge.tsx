import type { Role } from '@leadforge/contracts';

export function RoleBadge({ role }: { role: Role }) {
  return <span className={role === 'admin' ? 'admin-badge admin-badge-admin' : 'admin-badge'}>{role}</span>;
}
