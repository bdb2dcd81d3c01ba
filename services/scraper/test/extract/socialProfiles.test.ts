import { describe, expect, it } from 'vitest';
import { socialProfile } from '../../src/extract/socialProfiles.ts';

describe('social profile links', () => {
  it.each([
    ['https://www.facebook.com/cukierniaroyal.wroclaw/', 'facebook', 'https://www.facebook.com/cukierniaroyal.wroclaw'],
    ['https://m.facebook.com/pages/Ski-Hundepensjonat/194026370657183', 'facebook', 'https://www.facebook.com/pages/Ski-Hundepensjonat/194026370657183'],
    ['https://www.facebook.com/profile.php?id=100063', 'facebook', 'https://www.facebook.com/profile.php?id=100063'],
    ['https://instagram.com/bakery_muller?igshid=abc', 'instagram', 'https://www.instagram.com/bakery_muller'],
    ['https://uk.linkedin.com/company/bakery-muller/about', 'linkedin', 'https://www.linkedin.com/company/bakery-muller'],
    ['https://twitter.com/bakerymuller', 'x', 'https://x.com/bakerymuller'],
    ['https://x.com/bakerymuller', 'x', 'https://x.com/bakerymuller'],
    ['https://www.youtube.com/@bakerymuller', 'youtube', 'https://www.youtube.com/@bakerymuller'],
    ['https://www.youtube.com/channel/UC123abc', 'youtube', 'https://www.youtube.com/channel/UC123abc'],
    ['https://www.tiktok.com/@bakerymuller?lang=en', 'tiktok', 'https://www.tiktok.com/@bakerymuller'],
  ])('%s', (href, network, url) => {
    expect(socialProfile(href)).toEqual({ network, url });
  });

  it.each([
    'https://www.facebook.com/sharer/sharer.php?u=https://bakery.de',
    'https://www.facebook.com/',
    'https://www.facebook.com/tr?id=123&ev=PageView',
    'https://twitter.com/intent/tweet?text=hi',
    'https://www.linkedin.com/shareArticle?mini=true',
    'https://www.instagram.com/p/Cx1/',
    'https://www.youtube.com/watch?v=abc',
    'https://www.youtube.com/embed/abc',
    'https://www.tiktok.com/embed/123',
    'https://bakery.de/facebook',
    'mailto:facebook@bakery.de',
  ])('is not a profile: %s', (href) => {
    expect(socialProfile(href)).toBeUndefined();
  });
});
