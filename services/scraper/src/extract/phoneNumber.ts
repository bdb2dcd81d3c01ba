import { parsePhoneNumberFromString, type CountryCode, type PhoneNumber } from 'libphonenumber-js/max';

/** Unicode dashes and spaces that pages put inside numbers, made plain so the parser reads them. */
export function plainDigitsText(text: string): string {
  return text.replace(/[\u2010-\u2015\u2212]/g, '-').replace(/[\u00a0\u2000-\u200b\u202f\u205f]/g, ' ');
}

/** A valid number in E.164, read with the default country for national formats. */
export function validE164(raw: string, defaultCountry: CountryCode | undefined): string | undefined {
  const parsed = parsePhoneNumberFromString(plainDigitsText(raw), defaultCountry);
  return parsed?.isValid() ? parsed.number : undefined;
}

const PLACEHOLDER = /0123456|1234567|2345678|3456789|9876543|(\d)\1{5}/;

/**
 * An international number ("+…") of plausible length that the metadata does not (yet) accept, e.g.
 * after a national numbering-plan change. Only for numbers the site itself shows as phones.
 */
export function plausibleInternationalE164(raw: string): string | undefined {
  const text = plainDigitsText(raw).trim();
  if (!text.startsWith('+')) return undefined;
  const parsed = parsePhoneNumberFromString(text);
  if (!parsed) return undefined;
  const national = parsed.nationalNumber;
  if (national.length < 7 || national.length > 12 || PLACEHOLDER.test(national)) return undefined;
  return parsed.number;
}

export function digitsOf(text: string): string {
  return text.replace(/\D/g, '');
}

/** The trunk prefix a number's country writes before it nationally ("0" for 030 1234567), or "". */
export function trunkPrefixOf(number: PhoneNumber): string {
  const national = digitsOf(number.formatNational());
  return national.endsWith(number.nationalNumber) ? national.slice(0, -number.nationalNumber.length) : '';
}
