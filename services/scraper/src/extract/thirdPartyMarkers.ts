// Impressum / mentions-légales pages and footers list other organisations' contacts next to the
// business's own: supervisory bodies, chambers, insurers, hosts, web designers. These words
// introduce such a block (as a heading or a "Label:" line) or an inline credit.

const THIRD_PARTY_LABEL = new RegExp(
  [
    'aufsicht',
    '\\p{L}*kammer\\b',
    'berufshaftpflicht',
    'haftpflichtversicherung',
    'versicherer',
    'schlichtung',
    'streitbeilegung',
    'datenschutzbeauftragte',
    'bildnachweis',
    'bildquellen',
    'fotonachweis',
    'web\\s?design',
    '\\bdesign\\b',
    'konzeption',
    'umsetzung',
    'realisierung',
    'programmierung',
    'gestaltung',
    'web\\s?hosting',
    'hosting',
    'hoster\\b',
    'data protection officer',
    'supervisory (?:authority|body)',
    'regulat(?:or|ory|ed by)',
    'professional (?:indemnity|liability)',
    'insurer',
    'ombudsman',
    'dispute resolution',
    '(?:image|photo) credits',
    'h[ée]bergeu?r',
    'h[ée]bergement',
    'conception',
    'r[ée]alisation',
    'realizzazione',
    'alojamiento',
  ].join('|'),
  'iu',
);

const INLINE_CREDIT = new RegExp(
  [
    '\\b(?:designed|developed|created|built|powered|hosted|realised|realized|made)\\s+(?:by|with)\\b',
    '\\b(?:web\\s?)?(?:site|design)\\s+by\\b',
    '\\bdesign\\s*:',
    '\\bweb\\s?design\\b',
    '\\b(?:template|theme)\\s+by\\b',
    '\\b(?:realisiert|umgesetzt|erstellt|gestaltet|programmiert)\\s+(?:von|durch)\\b',
    '\\br[ée]alis[ée]\\s+par\\b',
    '\\bcon[çc]u\\s+par\\b',
    '\\brealizzato\\s+da\\b',
    '\\b(?:dise[ñn]ad[oa]|desarrollad[oa])\\s+por\\b',
  ].join('|'),
  'iu',
);

const MAX_LABEL_LENGTH = 60;

/** A heading that opens a block of someone else's contacts ("Aufsichtsbehörde", "Hosting"). */
export function isThirdPartyHeading(text: string): boolean {
  return text.length <= MAX_LABEL_LENGTH && THIRD_PARTY_LABEL.test(text);
}

/** A "Label: …" line that opens such a block; the word must be in the label, before the colon. */
export function isThirdPartyLabel(line: string): boolean {
  const colon = line.indexOf(':');
  return colon > 0 && line.length <= MAX_LABEL_LENGTH && THIRD_PARTY_LABEL.test(line.slice(0, colon));
}

/** Where in a line a credit to someone else starts ("Design by …"), or -1. */
export function inlineCreditStart(line: string): number {
  const match = INLINE_CREDIT.exec(line);
  return match ? match.index : -1;
}
