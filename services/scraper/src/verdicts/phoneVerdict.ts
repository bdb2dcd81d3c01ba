import { parsePhoneNumberFromString } from 'libphonenumber-js/max';

/** libphonenumber's number types, snake-cased; `unknown` when its metadata cannot tell. */
export type PhoneType =
  | 'mobile' | 'fixed_line' | 'fixed_line_or_mobile' | 'toll_free' | 'premium_rate' | 'shared_cost' | 'voip'
  | 'personal_number' | 'pager' | 'uan' | 'voicemail' | 'unknown';

export interface PhoneVerdict {
  type: PhoneType;
  /** International format with spaces, for people ("+49 3322 4288333"); exports keep E.164. */
  display: string;
}

/** The type and display form of a number in E.164, from libphonenumber-js's full metadata. */
export function judgePhone(e164: string): PhoneVerdict | undefined {
  const number = parsePhoneNumberFromString(e164);
  if (!number) return undefined;
  return { type: (number.getType()?.toLowerCase() as PhoneType | undefined) ?? 'unknown', display: number.formatInternational() };
}
