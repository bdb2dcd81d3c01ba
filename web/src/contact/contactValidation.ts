import type { ContactForm } from './contactApi';

export const emptyContactForm: ContactForm = { name: '', email: '', message: '' };

export const CONTACT_MESSAGES = {
  required: 'Please fill in all required fields',
  checkMissing: 'Please complete the reCAPTCHA verification',
  checkNotLoaded: 'reCAPTCHA is not loaded. Please refresh the page and try again.',
  checkFailed: 'reCAPTCHA verification failed. Please try again.',
  sendFailed: 'Failed to send message. Please try again.',
} as const;

export function validateContactForm(form: ContactForm): string | null {
  if (!form.name.trim() || !form.email.trim() || !form.message.trim()) return CONTACT_MESSAGES.required;
  return null;
}
