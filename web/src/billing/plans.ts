export type PlanId = 'starter' | 'growth' | 'agency';

export interface Plan {
  id: PlanId;
  name: string;
  price: number;
  credits: number;
  bonus: number;
}

export const PLANS: readonly Plan[] = [
  { id: 'starter', name: 'Starter', price: 19, credits: 100, bonus: 0 },
  { id: 'growth', name: 'Growth', price: 49, credits: 330, bonus: 30 },
  { id: 'agency', name: 'Agency', price: 99, credits: 1100, bonus: 100 },
];

export const formatCount = (value: number): string => value.toLocaleString('en-US');

export const pricePerLead = (plan: Plan): string => `$${(plan.price / plan.credits).toFixed(3)}`;

/** "300 leads + 30 bonus" for plans with a bonus, else null. */
export function planBonusLabel(plan: Plan): string | null {
  if (plan.bonus === 0) return null;
  return `${formatCount(plan.credits - plan.bonus)} leads + ${formatCount(plan.bonus)} bonus`;
}
