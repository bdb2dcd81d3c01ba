import { findPhoneNumbersInText, type CountryCode, type PhoneNumber } from 'libphonenumber-js/max';
import { numberRole } from './phoneContext.ts';
import { digitsOf, plainDigitsText, trunkPrefixOf } from './phoneNumber.ts';

const LABEL_WINDOW = 40;
const DATE = /^\d{1,4}([./-])\d{1,2}\1\d{1,4}$/;
const CURRENCY_BEFORE = /[$€£¥₹]\s*$/;
const CURRENCY_AFTER = /^\s*(?:[$€£¥₹]|eur|usd|gbp|chf|pln|zł|czk|kč|kr|sek|nok|dkk)(?![\p{L}])/iu;
const VERSION_BEFORE = /\bv(?:ersion)?\.?\s*$/i;
const SHORT_NATIONAL_NUMBER = 8;

/**
 * Open numbering plans (DE, AT …) accept short numbers, so postcodes and ids parse as valid. People
 * write such short numbers with the trunk prefix ("0871 840"); without it they are something else.
 */
function shortWithoutTrunkPrefix(raw: string, number: PhoneNumber): boolean {
  if (raw.trim().startsWith('+') || number.nationalNumber.length >= SHORT_NATIONAL_NUMBER) return false;
  return !digitsOf(raw).startsWith(trunkPrefixOf(number));
}

/**
 * Phone numbers in one line of visible text, in E.164. Besides the parser's validity check a
 * number must not be glued to letters or other digit groups (ids, bank accounts, URLs), must not
 * look like a date, price or version, must not be a short number missing its trunk prefix, and
 * must not be labelled as fax or as an identifier (VAT, tax, company, bank numbers).
 */
export function phonesInText(line: string, defaultCountry: CountryCode | undefined): string[] {
  const text = plainDigitsText(line);
  const found: string[] = [];
  let previousEnd = 0;
  for (const match of findPhoneNumbersInText(text, { defaultCountry })) {
    const { startsAt, endsAt } = match;
    const before = text.slice(Math.max(previousEnd, startsAt - LABEL_WINDOW), startsAt);
    const after = text.slice(endsAt);
    const raw = text.slice(startsAt, endsAt);
    previousEnd = endsAt;
    const glued = /[\p{L}\p{N}]$/u.test(text.slice(0, startsAt)) || /^[\p{L}\p{N}]/u.test(after);
    const longerRun = /\d[\s.-]?$/.test(text.slice(0, startsAt)) || /^[\s.-]?\d/.test(after);
    if (glued || longerRun || DATE.test(raw)) continue;
    if (shortWithoutTrunkPrefix(raw, match.number)) continue;
    if (CURRENCY_BEFORE.test(before) || CURRENCY_AFTER.test(after) || VERSION_BEFORE.test(before)) continue;
    const role = numberRole(before);
    if (role === 'fax' || role === 'identifier') continue;
    found.push(match.number.number);
  }
  return found;
}
