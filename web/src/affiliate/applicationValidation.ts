import type { ApplicationForm } from './affiliateApi';

export const emptyApplication: ApplicationForm = { name: '', email: '', website: '', message: '' };

/** The spec's check before sending: name and email are required. */
export function validateApplication(form: ApplicationForm): string | null {
  if (!form.name.trim() || !form.email.trim()) return 'Please fill in all required fields';
  return null;
}
