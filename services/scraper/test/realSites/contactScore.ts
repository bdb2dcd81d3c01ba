import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js';

/** Counts for micro-averaged precision and recall; optional values neither reward nor penalise. */
export interface Tally {
  truePositives: number;
  falsePositives: number;
  falseNegatives: number;
  missed: string[];
  extra: string[];
}

export const emptyTally = (): Tally => ({ truePositives: 0, falsePositives: 0, falseNegatives: 0, missed: [], extra: [] });

export function tally(into: Tally, label: string, found: string[], expected: string[], optional: string[]): void {
  const expectedSet = new Set(expected);
  const acceptable = new Set([...expected, ...optional]);
  for (const value of new Set(found)) {
    if (expectedSet.has(value)) into.truePositives += 1;
    else if (!acceptable.has(value)) {
      into.falsePositives += 1;
      into.extra.push(`${label}: ${value}`);
    }
  }
  for (const value of expectedSet) {
    if (!found.includes(value)) {
      into.falseNegatives += 1;
      into.missed.push(`${label}: ${value}`);
    }
  }
}

export const precision = (t: Tally): number =>
  t.truePositives + t.falsePositives === 0 ? 1 : t.truePositives / (t.truePositives + t.falsePositives);

export const recall = (t: Tally): number =>
  t.truePositives + t.falseNegatives === 0 ? 1 : t.truePositives / (t.truePositives + t.falseNegatives);

/** A labelled phone as digits with country code ("+441793770248"), read in the place's country. */
export function phoneKey(written: string, country: CountryCode | undefined): string {
  const plain = written.replace(/&[a-z]+;/gi, ' ');
  return parsePhoneNumberFromString(plain, country)?.number ?? `+${plain.replace(/\D/g, '')}`;
}

/** A person's name as labels and extraction are compared: titles ("Dr.", "Prof.") off, case and spacing folded. */
export const personKey = (name: string): string =>
  name.normalize('NFC').replace(/^(?:(?:dr|prof)\.?\s+)+/iu, '').replace(/\s+/g, ' ').trim().toLowerCase();
