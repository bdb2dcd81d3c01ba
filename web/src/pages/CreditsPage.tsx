import { ComingSoon } from '../components/ComingSoon';

export function CreditsPage() {
  return (
    <div className="container page">
      <ComingSoon title="Credits" description="Check your balance, buy credit packs and review your purchase history." />
    </div>
  );
}
