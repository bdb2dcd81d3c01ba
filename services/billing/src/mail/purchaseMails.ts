import { PRODUCT_NAME, utcMinute, type Letter, type LetterSite, type Mailer } from '@leadforge/kit/mail';

function formatAmount(amount: number, currency: string): string {
  try {
    return new Intl.NumberFormat('en-US', { style: 'currency', currency }).format(amount);
  } catch {
    return amount.toFixed(2);
  }
}

export interface Receipt {
  name: string;
  purchaseId: string;
  planName: string;
  credits: number;
  amount: number;
  currency: string;
  completedAt: string;
}

export interface RefundNotice {
  name: string;
  purchaseId: string;
  amount: number;
  currency: string;
  creditsReversed: number;
  refundedAt: string;
}

/** Billing's emails: a receipt for each purchase, a notice for each refund. */
export const PURCHASE_MAILS = {
  receipt: (receipt: Receipt, { publicUrl }: LetterSite): Letter => ({
    subject: `Your ${PRODUCT_NAME} receipt: ${receipt.credits.toLocaleString('en-US')} credits`,
    greeting: `Hello ${receipt.name},`,
    paragraphs: [`Thank you for your purchase. The credits are in your account and ready to use.`],
    details: [
      ['Plan', receipt.planName],
      ['Credits', receipt.credits.toLocaleString('en-US')],
      ['Amount paid', `${formatAmount(receipt.amount, receipt.currency)} ${receipt.currency}`],
      ['Date', utcMinute(receipt.completedAt)],
      ['Reference', receipt.purchaseId],
    ],
    action: { label: 'See your credits and purchases', url: `${publicUrl}/credits` },
    closing: 'Keep this email as your receipt.',
  }),

  refund: (refund: RefundNotice, { publicUrl }: LetterSite): Letter => {
    const amount = formatAmount(refund.amount, refund.currency);
    return {
      subject: `Your ${PRODUCT_NAME} refund: ${amount}`,
      greeting: `Hello ${refund.name},`,
      paragraphs: [
        'A purchase of yours was refunded. The money goes back to the PayPal account or card you paid with; your bank may take a few days to show it.',
        'The credits of that purchase were taken back from your balance (those already spent could not be).',
      ],
      details: [
        ['Amount refunded', `${amount} ${refund.currency}`],
        ['Credits taken back', refund.creditsReversed.toLocaleString('en-US')],
        ['Date', utcMinute(refund.refundedAt)],
        ['Reference', refund.purchaseId],
      ],
      action: { label: 'See your credits and purchases', url: `${publicUrl}/credits` },
    };
  },
};

export type PurchaseMailer = Mailer<typeof PURCHASE_MAILS>;
