import { describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from '../src/domain/passwords.ts';

describe('password hashing', () => {
  it('verifies the right password and refuses a wrong one', async () => {
    const hash = await hashPassword('correct horse');
    expect(hash.startsWith('scrypt$')).toBe(true);
    expect(await verifyPassword('correct horse', hash)).toBe(true);
    expect(await verifyPassword('correct hors', hash)).toBe(false);
  });

  it('salts every hash', async () => {
    expect(await hashPassword('same')).not.toEqual(await hashPassword('same'));
  });

  it('refuses malformed stored hashes', async () => {
    expect(await verifyPassword('x', 'plain-text')).toBe(false);
  });
});
