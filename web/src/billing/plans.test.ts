import { describe, expect, it } from 'vitest';
import { PLANS, planBonusLabel, pricePerLead } from './plans';

const [starter, growth, agency] = PLANS;

describe('plans', () => {
  it('shows the price per lead with 3 decimals', () => {
    expect(PLANS.map(pricePerLead)).toEqual(['$0.190', '$0.148', '$0.090']);
  });

  it('describes the bonus of plans that have one', () => {
    expect(planBonusLabel(starter)).toBeNull();
    expect(planBonusLabel(growth)).toBe('300 leads + 30 bonus');
    expect(planBonusLabel(agency)).toBe('1,000 leads + 100 bonus');
  });
});
