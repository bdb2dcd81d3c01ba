import { PRODUCT_NAME, type Letter, type LetterSite, type Mailer } from '@leadforge/kit/mail';

interface Addressee { name: string }

const apiKeyCount = (n: number) => `${n} API key${n === 1 ? '' : 's'}`;

/** What a password change did to the account's API keys, in the confirmation email's words. */
function apiKeysParagraph(apiKeys: { revoked: number; kept: number }): string {
  if (apiKeys.revoked > 0) {
    return `${apiKeyCount(apiKeys.revoked)} ${apiKeys.revoked === 1 ? 'was' : 'were'} revoked: scripts and integrations using ${apiKeys.revoked === 1 ? 'it' : 'them'} need a new key from the Developers page.`;
  }
  if (apiKeys.kept > 0) return `No API key was revoked: you chose to keep your ${apiKeyCount(apiKeys.kept)}.`;
  return 'No API key was revoked: the account had none.';
}

/** Auth's emails: those about the account itself. */
export const ACCOUNT_MAILS = {
  'email-verification': ({ name, token }: Addressee & { token: string }, { publicUrl }: LetterSite): Letter => ({
    subject: `Confirm your ${PRODUCT_NAME} email address`,
    greeting: `Hello ${name},`,
    paragraphs: [
      `Welcome to ${PRODUCT_NAME}. Please confirm that this address is yours: the link below works for 48 hours.`,
      'If you did not create an account, ignore this email.',
    ],
    action: { label: 'Confirm my email address', url: `${publicUrl}/verify-email?token=${encodeURIComponent(token)}` },
  }),

  'password-reset': ({ name, token }: Addressee & { token: string }, { publicUrl }: LetterSite): Letter => ({
    subject: `Reset your ${PRODUCT_NAME} password`,
    greeting: `Hello ${name},`,
    paragraphs: [
      `Someone (hopefully you) asked to reset the password of your ${PRODUCT_NAME} account.`,
      'The link below works once, for one hour. If you did not ask for it, ignore this email: your password stays as it is.',
    ],
    action: { label: 'Choose a new password', url: `${publicUrl}/reset-password?token=${encodeURIComponent(token)}` },
  }),

  'password-changed': ({ name, how, apiKeys }: Addressee & { how: 'reset' | 'changed'; apiKeys: { revoked: number; kept: number } }, { publicUrl }: LetterSite): Letter => ({
    subject: `Your ${PRODUCT_NAME} password was ${how === 'reset' ? 'reset' : 'changed'}`,
    greeting: `Hello ${name},`,
    paragraphs: [
      `The password of your ${PRODUCT_NAME} account was just ${how === 'reset' ? 'reset through a link sent to this address' : 'changed from the account settings'}, and every other session was signed out.`,
      apiKeysParagraph(apiKeys),
      'If this was not you, reset your password now and contact us.',
    ],
    action: { label: 'Reset your password', url: `${publicUrl}/forgot-password` },
  }),

  'account-deleted': ({ name }: Addressee): Letter => ({
    subject: `Your ${PRODUCT_NAME} account was deleted`,
    greeting: `Hello ${name},`,
    paragraphs: [
      `Your ${PRODUCT_NAME} account was deleted at your request: your name and this address were removed from it, remaining credits were forfeited and every session was signed out.`,
      'If this was not you, reply to this email or contact us at once.',
    ],
    closing: 'Thank you for having used Leadforge.',
  }),
};

export type AccountMailer = Mailer<typeof ACCOUNT_MAILS>;
