import { useId, useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import type { LocationMatch } from '@leadforge/contracts';
import { FormAlert } from '../components/FormAlert';
import { LocationField } from '../locations/LocationField';
import { PlaceEstimate } from '../locations/PlaceEstimate';
import { DEFAULT_QUANTITY, creditShortfall, maxHint, maxQuantity, parseQuantity, searchFormError, type SearchFormValues } from './searchForm';

interface LeadFormProps {
  credits: number;
  busy: boolean;
  /** The error of the last attempt (server or feed), shown under the form's own. */
  serverError: string;
  onGenerate(industry: string, location: string, quantity: number): void;
}

/** Too few credits for the quantity: the spec's message, and where to buy more. */
function CreditsShort({ message }: { message: string }) {
  return (
    <div className="alert alert-error" role="alert">
      {message} <Link to="/credits">Buy credits</Link>
    </div>
  );
}

/** Industry, location, quantity; the spec's rules and messages; disabled while a search runs. */
export function LeadForm({ credits, busy, serverError, onGenerate }: LeadFormProps) {
  const [values, setValues] = useState<SearchFormValues>({ industry: '', location: '', quantity: String(DEFAULT_QUANTITY) });
  const [formError, setFormError] = useState('');
  const [place, setPlace] = useState<LocationMatch | null>(null);
  const ids = { industry: useId(), location: useId(), quantity: useId(), hint: useId() };
  const quantity = parseQuantity(values.quantity);
  const shortfall = creditShortfall(credits, quantity);

  const change = (field: keyof SearchFormValues) => (e: { target: { value: string } }) => {
    setValues((v) => ({ ...v, [field]: e.target.value }));
    setFormError('');
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const error = searchFormError(values, credits);
    setFormError(error ?? '');
    if (!error) onGenerate(values.industry, values.location, quantity);
  };

  return (
    <form className="card lead-form" onSubmit={submit} noValidate aria-labelledby={`${ids.industry}-title`}>
      <h2 id={`${ids.industry}-title`}>Generate leads</h2>
      <fieldset disabled={busy}>
        <div className="field">
          <label htmlFor={ids.industry}>Industry</label>
          <input id={ids.industry} name="industry" placeholder="e.g. Dentists" maxLength={100} autoComplete="off" value={values.industry} onChange={change('industry')} />
        </div>
        <div className="field">
          <label htmlFor={ids.location}>Location</label>
          <LocationField
            id={ids.location}
            placeholder="e.g. Austin, TX"
            value={values.location}
            chosen={place}
            onChange={(location, chosen) => {
              change('location')({ target: { value: location } });
              setPlace(chosen);
            }}
          />
          <PlaceEstimate chosen={place} industry={values.industry} />
        </div>
        <div className="field">
          <label htmlFor={ids.quantity}>Number of leads</label>
          <input
            id={ids.quantity}
            name="quantity"
            type="number"
            inputMode="numeric"
            min={1}
            max={maxQuantity(credits)}
            step={1}
            aria-describedby={ids.hint}
            value={values.quantity}
            onChange={change('quantity')}
          />
          <p id={ids.hint} className="field-hint">{maxHint(credits)}</p>
        </div>
      </fieldset>
      {shortfall ? <CreditsShort message={shortfall} /> : serverError.startsWith('Insufficient credits') ? <CreditsShort message={serverError} /> : <FormAlert message={formError || serverError} />}
      <button type="submit" className="btn btn-primary btn-lg btn-block" disabled={busy || Boolean(shortfall)}>
        {busy ? 'Generating...' : 'Generate Leads'}
      </button>
      <p className="lead-form-cost muted">1 credit per lead delivered. You pay only for the leads you get.</p>
    </form>
  );
}
