import { countOf, countOfIndustry } from '@leadforge/contracts';
import { PRODUCT_NAME, utcMinute, type Letter, type LetterSite, type Mailer } from '@leadforge/kit/mail';

export interface MonitorRunNotice {
  name: string;
  industry: string;
  location: string;
  newLeads: number;
  searchId: string;
}

/** The leads service's emails: a long search's leads are ready, what a monitor's run found (or why it did not run), an opt-out to confirm. */
export const SEARCH_MAILS = {
  /** Someone asked for this address to be left out of the leads: nothing changes until its owner confirms. */
  'opt-out-confirmation': ({ confirmUrl }: { confirmUrl: string }): Letter => ({
    subject: `Confirm that ${PRODUCT_NAME} should leave out your email address`,
    greeting: 'Hello,',
    paragraphs: [
      `Someone asked ${PRODUCT_NAME} to leave this email address out of the business contacts it finds.`,
      'If it was you, confirm with the link below (it works for 48 hours): the address is then removed from every search, past and future.',
      'If it was not you, ignore this email: nothing changes.',
    ],
    action: { label: 'Confirm the opt-out', url: confirmUrl },
  }),

  'search-ready': ({ name, resultsCount, finishedAt }: { name: string; resultsCount: number; finishedAt: string }, { publicUrl }: LetterSite): Letter => {
    const leads = countOf(resultsCount, 'lead');
    return {
      subject: `Your leads are ready: ${leads}`,
      greeting: `Hello ${name},`,
      paragraphs: [`Your lead search finished at ${utcMinute(finishedAt)} with ${leads}. They are in your search history, ready to view and export.`],
      action: { label: 'See your leads', url: `${publicUrl}/dashboard` },
      closing: 'You get this email when a search takes more than a minute. You can turn it off in your account settings.',
    };
  },

  /** A monitor's run found businesses the user never had: "3 new dentists in Würzburg", linking the run's leads. */
  'monitor-new-leads': (run: MonitorRunNotice, { publicUrl }: LetterSite): Letter => ({
    subject: `${countOfIndustry(run.newLeads, run.industry.toLowerCase(), 'new')} in ${run.location}`,
    greeting: `Hello ${run.name},`,
    paragraphs: [
      `Your monitor for ${run.industry} in ${run.location} found ${countOf(run.newLeads, 'business')} you never had before (1 credit each).`,
    ],
    action: { label: 'See the new leads', url: `${publicUrl}/monitors?run=${encodeURIComponent(run.searchId)}` },
    closing: 'You get this email because the monitor has email notices on. You can turn them off on the Monitors page.',
  }),

  /** A monitor's run could not start for want of credits: nothing charged, the monitor stays on. */
  'monitor-no-credits': (run: Pick<MonitorRunNotice, 'name' | 'industry' | 'location'>, { publicUrl }: LetterSite): Letter => ({
    subject: `Your monitor for ${run.industry} in ${run.location} could not run: no credits left`,
    greeting: `Hello ${run.name},`,
    paragraphs: [
      `Your monitor for ${run.industry} in ${run.location} was due to run, but your balance has no credits left, so it did not run and nothing was charged.`,
      'The monitor stays on: it runs again at its next time, or at once when you press "Run now" after buying credits.',
    ],
    action: { label: 'Buy credits', url: `${publicUrl}/credits` },
  }),
};

export type SearchMailer = Mailer<typeof SEARCH_MAILS>;
