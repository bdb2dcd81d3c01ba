import { AffiliateBanner } from './home/AffiliateBanner';
import { Faq } from './home/Faq';
import { Features } from './home/Features';
import { FinalCta } from './home/FinalCta';
import { Hero } from './home/Hero';
import { HowItWorks } from './home/HowItWorks';
import { PricingTeaser } from './home/PricingTeaser';
import { TrustStats } from './home/TrustStats';

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
