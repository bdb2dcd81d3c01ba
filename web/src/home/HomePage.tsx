import { AffiliateBanner } from './AffiliateBanner';
import { Faq } from './Faq';
import { Features } from './Features';
import { FinalCta } from './FinalCta';
import { Hero } from './Hero';
import { HowItWorks } from './HowItWorks';
import { PricingTeaser } from './PricingTeaser';
import { TrustStats } from './TrustStats';

export function HomePage() {
  return (
    <>
      <Hero />
      <TrustStats />
      <Features />
      <HowItWorks />
      <PricingTeaser />
      <Faq />
      <AffiliateBanner />
      <FinalCta />
    </>
  );
}
