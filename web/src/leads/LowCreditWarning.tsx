import { Link } from 'react-router-dom';
import { LOW_CREDIT_THRESHOLD } from './searchForm';

/** The spec's yellow warning below 10 credits, with the way to more. */
export function LowCreditWarning({ credits }: { credits: number }) {
  if (credits >= LOW_CREDIT_THRESHOLD) return null;
  return (
    <div className="low-credit-warning" role="status" data-testid="low-credit-warning">
      <strong>Low credits:</strong> you have {credits} {credits === 1 ? 'credit' : 'credits'} left. Each lead costs 1 credit.{' '}
      <Link to="/credits">Buy more credits</Link>
    </div>
  );
}
