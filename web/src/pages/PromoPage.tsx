import { AuthShell } from '../components/AuthShell';
import { ComingSoon } from '../components/ComingSoon';

export function PromoPage() {
  return (
    <AuthShell>
      <ComingSoon title="CBC Special: 500 leads for $19" description="This limited-time offer for new users opens soon." />
    </AuthShell>
  );
}
