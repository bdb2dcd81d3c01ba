import { formatCount } from '../billing/plans';
import { COMMISSION_EXAMPLES, COMMISSION_PERCENT, formatUsd } from './programme';

/** What one sale of each pack earns. */
export function CommissionTable() {
  return (
    <section className="affiliate-section" aria-labelledby="commission-table-title">
      <h2 id="commission-table-title">Commission structure</h2>
      <div className="table-scroll card" tabIndex={0} role="region" aria-label="Commission structure">
        <table className="commission-table">
          <thead>
            <tr>
              <th scope="col">Pack</th>
              <th scope="col">Price</th>
              <th scope="col">Leads</th>
              <th scope="col">Commission ({COMMISSION_PERCENT}%)</th>
            </tr>
          </thead>
          <tbody>
            {COMMISSION_EXAMPLES.map(({ plan, commission }) => (
              <tr key={plan.id}>
                <th scope="row">{plan.name}</th>
                <td>{formatUsd(plan.price)}</td>
                <td>{formatCount(plan.credits)}</td>
                <td className="commission-amount">{formatUsd(commission)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
