export type NumberRole = 'phone' | 'fax' | 'identifier' | 'unlabelled';

const label = (words: string[]): RegExp =>
  new RegExp(`(?<![\\p{L}\\p{N}])(?:${words.join('|')})(?![\\p{L}])`, 'giu');

const PHONE = label([
  'tel', 'tele?phone', 'telefon', 't[ée]l[ée]phone', 'tel[ée]fono', 'telefoon', 'puhelin', 'phone', 'fon',
  'mobile?', 'mob', 'handy', 'cell', 'gsm', 'call', 'ruf', 'tlf', 'whatsapp', 'hotline', 'zentrale', 'ph',
  // One-letter labels of footers ("T: … F: …") only count with their dot or colon.
  '[tpm](?=\\s*[.:])',
]);
const FAX = label(['fax', 'telefax', 't[ée]l[ée]copie', 'facsimile', 'f(?=\\s*[.:])']);
const IDENTIFIER = label([
  'nip', 'regon', 'krs', 'pesel', 'vat', 'ust', 'ust-?id\\S*', 'uid', 'umsatzsteuer\\S*', 'steuer\\S*',
  'st\\.?-?nr', 'tax', 'tva', 'siret', 'siren', 'rcs', 'naf', 'i[čc]o?', 'di[čc]', 'abn', 'acn',
  'gst\\S*', 'cif', 'nif', 'p\\.?\\s?iva', 'partita', 'codice fiscale', 'c\\.f', 'kvk', 'btw',
  'iban', 'bic', 'swift', 'konto\\S*', 'account', 'acct', 'a/c', 'sort code', 'blz', 'routing', 'hrb',
  'hra', 'handelsregister\\S*', 'register\\S*', 'reg\\.?\\s?no', 'company (?:no|number|reg\\S*)',
  'registration', 'licen[cs]e', 'id', 'org\\.?\\s?nr', 'orgnr', 'organisasjonsnummer', 'cvr', 'y-tunnus',
  'cnpj', 'cpf', 'duns', 'eori', 'nr konta', 'bank\\S*', 'č[ií]slo [úu][čc]tu',
]);

function lastIndex(pattern: RegExp, text: string): number {
  let last = -1;
  for (const match of text.matchAll(pattern)) last = match.index;
  return last;
}

/**
 * What the words just before a number say it is ("Tel.", "Fax", "NIP", "IBAN" …). `before` is the
 * text between the previous number on the line (or the line start) and this one.
 */
export function numberRole(before: string): NumberRole {
  const phone = lastIndex(PHONE, before);
  const fax = lastIndex(FAX, before);
  const identifier = lastIndex(IDENTIFIER, before);
  if (identifier > Math.max(phone, fax)) return 'identifier';
  if (phone >= 0) return 'phone';
  if (fax >= 0) return 'fax';
  return 'unlabelled';
}
