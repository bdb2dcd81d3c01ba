import { describe, expect, it } from 'vitest';
import { attachmentName } from './dataExport';

describe('the data export file name', () => {
  const day = new Date('2026-11-24T12:00:00Z');

  it('is the one the server gives', () => {
    expect(attachmentName('attachment; filename="leadforge-data-2026-11-23.json"', day)).toBe('leadforge-data-2026-11-23.json');
  });

  it('falls back to a dated name without a header, or with a name holding a path', () => {
    expect(attachmentName(undefined, day)).toBe('leadforge-data-2026-11-24.json');
    expect(attachmentName('attachment; filename="../evil.json"', day)).toBe('leadforge-data-2026-11-24.json');
  });
});
