import { describe, expect, it } from 'vitest';
import { validateLogin, validateRegistration } from './formValidation';

describe('validateLogin', () => {
  it('requires both fields', () => {
    expect(validateLogin({ email: '', password: 'secret' })).toBe('Please fill in all fields');
    expect(validateLogin({ email: '  ', password: 'secret' })).toBe('Please fill in all fields');
    expect(validateLogin({ email: 'a@b.co', password: '' })).toBe('Please fill in all fields');
  });

  it('accepts a filled form', () => {
    expect(validateLogin({ email: 'a@b.co', password: 'x' })).toBeNull();
  });
});

describe('validateRegistration', () => {
  const valid = { name: 'Ada', email: 'ada@example.com', password: 'secret1', confirmPassword: 'secret1' };

  it('accepts a valid form', () => {
    expect(validateRegistration(valid)).toBeNull();
  });

  it.each(['name', 'email', 'password', 'confirmPassword'] as const)('requires %s', (field) => {
    expect(validateRegistration({ ...valid, [field]: '' })).toBe('Please fill in all fields');
  });

  it('requires matching passwords', () => {
    expect(validateRegistration({ ...valid, confirmPassword: 'secret2' })).toBe('Passwords do not match');
  });

  it('requires at least 6 characters', () => {
    expect(validateRegistration({ ...valid, password: '12345', confirmPassword: '12345' })).toBe(
      'Password must be at least 6 characters long',
    );
    expect(validateRegistration({ ...valid, password: '123456', confirmPassword: '123456' })).toBeNull();
  });

  it('reports a mismatch before a short password', () => {
    expect(validateRegistration({ ...valid, password: '123', confirmPassword: '1234' })).toBe('Passwords do not match');
  });
});
