import { ComingSoon } from '../components/ComingSoon';

export function ContactPage() {
  return (
    <div className="container page">
      <ComingSoon title="Contact Us" description="Send us a message and our team will reply within 1 business day." />
    </div>
  );
}
