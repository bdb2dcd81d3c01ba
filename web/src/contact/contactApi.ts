import type { ContactConfigResponse } from '@leadforge/contracts';
import { api } from '../api/client';

export type RobotCheckConfig = ContactConfigResponse;

export interface ContactForm {
  name: string;
  email: string;
  message: string;
}

/** Query key of the robot check's settings (its kind and site key). */
export const robotCheckConfigKey = ['contact', 'config'] as const;

export async function fetchRobotCheckConfig(): Promise<RobotCheckConfig> {
  const { data } = await api.get<RobotCheckConfig>('/api/contact/config');
  return data;
}

export async function sendContactMessage(form: ContactForm, recaptchaToken: string): Promise<void> {
  await api.post('/api/contact', {
    name: form.name.trim(),
    email: form.email.trim(),
    message: form.message.trim(),
    recaptcha_token: recaptchaToken,
  });
}
