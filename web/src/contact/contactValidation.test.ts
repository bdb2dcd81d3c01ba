import { describe, expect, it } from 'vitest';
import { CONTACT_MESSAGES, validateContactForm } from './contactValidation';

describe('validateContactForm', () => {
  it('requires name, email and message', () => {
    expect(validateContactForm({ name: 'Ada', email: 'ada@example.com', message: ' ' })).toBe(CONTACT_MESSAGES.required);
    expect(validateContactForm({ name: '', email: 'ada@example.com', message: 'Hi' })).toBe('Please fill in all required fields');
    expect(validateContactForm({ name: 'Ada', email: 'ada@example.com', message: 'Hi' })).toBeNull();
  });
});
