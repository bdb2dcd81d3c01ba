import type { SocialLink, SocialNetwork } from './types.ts';

interface NetworkRule {
  network: SocialNetwork;
  hosts: string[];
  canonicalHost: string;
  /** The profile path of a URL path, or undefined for share buttons, posts, help pages … */
  profilePath(segments: string[], url: URL): string | undefined;
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

const handle = (segment: string | undefined): boolean => !!segment && /^[\p{L}\p{N}._-]+$/u.test(segment);

const RULES: NetworkRule[] = [
  {
    network: 'facebook',
    hosts: ['facebook.com', 'fb.com', 'fb.me'],
    canonicalHost: 'www.facebook.com',
    profilePath(segments, url) {
      const [first, second, third] = segments;
      if (first === 'profile.php') {
        const id = url.searchParams.get('id');
        return id && /^\d+$/.test(id) ? `profile.php?id=${id}` : undefined;
      }
      if (first === 'pages' && second) return ['pages', second, third].filter(Boolean).join('/');
      const notProfiles = new Set([
        'sharer', 'sharer.php', 'share', 'share.php', 'dialog', 'plugins', 'tr', 'login', 'login.php',
        'help', 'policy', 'policies', 'privacy', 'legal', 'terms', 'watch', 'photo', 'photo.php',
        'video.php', 'groups', 'events', 'hashtag', 'search', 'l.php', 'permalink.php', 'story.php',
        'media', 'ads', 'business', 'home.php', '2008', 'people', 'marketplace', 'gaming', 'reel',
      ]);
      return handle(first) && !notProfiles.has(first.toLowerCase()) ? first : undefined;
    },
  },
  {
    network: 'instagram',
    hosts: ['instagram.com', 'instagr.am'],
    canonicalHost: 'www.instagram.com',
    profilePath([first]) {
      const notProfiles = new Set(['p', 'reel', 'reels', 'explore', 'accounts', 'stories', 'tv', 'direct', 'about', 'legal', 'developer']);
      return handle(first) && !notProfiles.has(first.toLowerCase()) ? first : undefined;
    },
  },
  {
    network: 'linkedin',
    hosts: ['linkedin.com'],
    canonicalHost: 'www.linkedin.com',
    profilePath([first, second]) {
      return ['company', 'in', 'school', 'showcase'].includes(first) && handle(second) ? `${first}/${second}` : undefined;
    },
  },
  {
    network: 'x',
    hosts: ['twitter.com', 'x.com'],
    canonicalHost: 'x.com',
    profilePath([first]) {
      const notProfiles = new Set([
        'intent', 'share', 'home', 'search', 'hashtag', 'i', 'privacy', 'tos', 'login', 'signup',
        'settings', 'explore', 'notifications', 'messages', 'widgets.js',
      ]);
      return handle(first) && !notProfiles.has(first.toLowerCase()) ? first : undefined;
    },
  },
  {
    network: 'youtube',
    hosts: ['youtube.com'],
    canonicalHost: 'www.youtube.com',
    profilePath([first, second]) {
      if (first?.startsWith('@') && handle(first.slice(1))) return first;
      return ['channel', 'c', 'user'].includes(first) && handle(second) ? `${first}/${second}` : undefined;
    },
  },
  {
    network: 'tiktok',
    hosts: ['tiktok.com'],
    canonicalHost: 'www.tiktok.com',
    profilePath([first]) {
      return first?.startsWith('@') && handle(first.slice(1)) ? first : undefined;
    },
  },
];

/** The social profile a link points to, in a canonical form, or undefined for anything else. */
export function socialProfile(href: string): SocialLink | undefined {
  let url: URL;
  try {
    url = new URL(href.trim().replace(/^\/\//, 'https://'));
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  const host = url.hostname.toLowerCase();
  const rule = RULES.find((candidate) => candidate.hosts.some((h) => host === h || host.endsWith(`.${h}`)));
  if (!rule) return undefined;
  const segments = url.pathname.split('/').filter(Boolean).map(decodeSegment);
  const path = rule.profilePath(segments, url);
  return path ? { network: rule.network, url: `https://${rule.canonicalHost}/${path}` } : undefined;
}
