import type { App } from '@leadforge/kit/service';
import { handle } from '@leadforge/kit/http';
import { ADMIN_ROUTES, type ActivityType, type EnhancedStatsResponse as EnhancedStats, type STATS_SECTIONS } from '@leadforge/contracts';
import { listActivity } from '../domain/activityFeed.ts';
import { listContactSubmissions } from '../domain/contactSubmissions.ts';
import { overviewStats } from '../domain/overviewStats.ts';
import { listUsers, type UserFilter } from '../domain/userDirectory.ts';
import { userProfile } from '../domain/userProfile.ts';
import type { AdminRuntime } from '../runtime.ts';

type Section = (typeof STATS_SECTIONS)[number];

/** The panel's read side: the read models, and for one user's ledger and API keys their owners' internal routes. */
export async function statsRoutes(app: App, { ctx }: AdminRuntime): Promise<void> {
  handle(app, ADMIN_ROUTES.stats, async (request) => {
    const q = request.query;
    const sections = new Set<Section>((q.include ?? 'stats,users,contact_submissions').split(',') as Section[]);
    const filter: UserFilter = { search: q.search, role: (q.role ?? 'all') as UserFilter['role'] };
    const [stats, users, contacts] = await Promise.all([
      sections.has('stats') ? overviewStats(ctx.db) : undefined,
      sections.has('users') ? listUsers(ctx.db, filter, q.users_page ?? 1, q.users_page_size ?? 50) : undefined,
      sections.has('contact_submissions') ? listContactSubmissions(ctx.db, q.contacts_page ?? 1, q.contacts_page_size ?? 20) : undefined,
    ]);
    const answer: EnhancedStats = { generated_at: new Date().toISOString() };
    if (stats) answer.stats = stats;
    if (users) Object.assign(answer, { users: users.users, users_page: users.page });
    if (contacts) Object.assign(answer, { contact_submissions: contacts.submissions, contact_submissions_page: contacts.page });
    return answer;
  });

  handle(app, ADMIN_ROUTES.activity, async (request) => {
    const q = request.query;
    return listActivity(ctx.db, { type: q.type as ActivityType | undefined, limit: q.limit ?? 50, cursor: q.cursor });
  });

  handle(app, ADMIN_ROUTES.user, async (request) => userProfile(ctx, request.params.id));
}
