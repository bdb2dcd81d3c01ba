import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { errorDetail } from '../api/client';
import { FormAlert } from '../components/FormAlert';
import { TextField } from '../components/TextField';
import { affiliateKeys, savePayoutEmail, type AffiliateStats } from './affiliateApi';

const SOURCE_NOTE: Record<AffiliateStats['payout_email_source'], string> = {
  set: 'the address you set',
  application: 'the email of your application, until you set one here',
  account: 'your account email, until you set one here',
};

/** Where commissions are paid: shown as it stands, and set explicitly here. */
export function PayoutEmailCard({ stats }: { stats: AffiliateStats }) {
  const queryClient = useQueryClient();
  const [value, setValue] = useState('');
  const save = useMutation({
    mutationFn: savePayoutEmail,
    onSuccess: (address) => {
      setValue('');
      // The answer says where payouts now go: show it at once, not after the stats are read again.
      queryClient.setQueryData<AffiliateStats>(affiliateKeys.stats, (stats) => (stats ? { ...stats, ...address } : stats));
    },
  });
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    save.mutate(value);
  };

  return (
    <section className="card payout-email-card" aria-labelledby="payout-email-title">
      <h2 id="payout-email-title">PayPal payouts</h2>
      <p data-testid="payout-email">
        Commissions are paid to <strong className="affiliate-break">{stats.payout_email}</strong>{' '}
        <span className="muted">({SOURCE_NOTE[stats.payout_email_source]}).</span>
      </p>
      <form onSubmit={submit} noValidate className="payout-email-form">
        <FormAlert message={save.isError ? errorDetail(save.error, 'The address could not be saved. Please try again.') : ''} />
        {save.isSuccess && <div className="alert application-success" role="status">Payouts now go to {save.data.payout_email}.</div>}
        <TextField label="PayPal email for payouts" name="paypal_email" type="email" autoComplete="email" value={value} onChange={(event) => setValue(event.target.value)} />
        <button type="submit" className="btn btn-secondary" disabled={save.isPending}>{save.isPending ? 'Saving...' : 'Save PayPal email'}</button>
      </form>
    </section>
  );
}
