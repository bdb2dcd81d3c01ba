export const MIN_PASSWORD_LENGTH = 6;

export interface LoginForm {
  email: string;
  password: string;
}

export interface RegistrationForm {
  name: string;
  email: string;
  password: string;
  confirmPassword: string;
}

const isBlank = (value: string) => value.trim() === '';

/** The message to show for an invalid login form, or null when it may be sent. */
export function validateLogin(form: LoginForm): string | null {
  if (isBlank(form.email) || form.password === '') return 'Please fill in all fields';
  return null;
}

/** The message to show for an invalid registration form, or null when it may be sent. */
export function validateRegistration(form: RegistrationForm): string | null {
  if (isBlank(form.name) || isBlank(form.email) || form.password === '' || form.confirmPassword === '') {
    return 'Please fill in all fields';
  }
  if (form.password !== form.confirmPassword) return 'Passwords do not match';
  if (form.password.length < MIN_PASSWORD_LENGTH) {
    return `Password must be at least ${MIN_PASSWORD_LENGTH} characters long`;
  }
  return null;
}

/** The message to show for a new password (reset or change) and its confirmation, or null. */
export function validateNewPassword(password: string, confirmPassword: string): string | null {
  if (password === '' || confirmPassword === '') return 'Please fill in all fields';
  if (password !== confirmPassword) return 'Passwords do not match';
  if (password.length < MIN_PASSWORD_LENGTH) return `Password must be at least ${MIN_PASSWORD_LENGTH} characters long`;
  return null;
}
