// Coverage of an area, through the gateway, on the simulated world (test/support/simulatedWorld.ts):
// for the simulated city and 50, 100 and 200 dentists, each searched twice by two new users
// (POST /api/generate-leads, which answers when the search has ended): delivered / requested,
// provider requests (Nominatim, Overpass, Google) per delivered lead, delivered leads outside the
// city's boundary, the overlap of the two runs' businesses and the wall time; then the small town.
// Sources: PLACES_SOURCES (default "osm,google"); BENCH_LABEL labels the run in its record.
// Targets: 200 of 200, 0 outside, <= 0.15 provider requests per lead, >= 95% overlap.
import { spawn } from 'node:child_process';
import readline from 'node:readline';
import { bearer } from '../test/support/api.ts';
import { startProductInWorld } from '../test/support/productInWorld.ts';
import { startSimulatedWorld, WORLD_CITY, WORLD_SMALL_TOWN, type WorldBusiness } from '../test/support/simulatedWorld.ts';
import { reportFigures } from './benchResults.ts';

const sources = process.env.PLACES_SOURCES ?? 'osm,google';
// The world answers from its own process: the product's busy event loop must not delay it.
const served = spawn(process.execPath, ['--import', 'tsx', new URL('../test/support/simulatedWorld.ts', import.meta.url).pathname], { stdio: ['ignore', 'pipe', 'inherit'] });
const { port } = JSON.parse(await new Promise<string>((resolve) => readline.createInterface({ input: served.stdout! }).once('line', resolve))) as { port: number };
const world = await startSimulatedWorld({ servedAt: port });
const product = await startProductInWorld(world, { PLACES_SOURCES: sources, PLACES_SOURCE: sources.split(',')[0] });
const byPhone = new Map(world.businesses.flatMap((b) => (b.phone ? [[b.phone, b] as const] : [])));

/** The world's business behind a lead: its website's host, else its phone. */
function businessOf(lead: { website?: string | null; phone?: string | null }): WorldBusiness | undefined {
  const host = lead.website ? new URL(lead.website).hostname : undefined;
  return (host && world.businessOfHost(host)) || (lead.phone ? byPhone.get(lead.phone) : undefined);
}

let users = 0;
async function search(location: string, quantity: number) {
  const user = await product.register(`bench-coverage-${users++}@example.com`);
  await product.setCredits(user.id, user.token, 1000);
  await world.refreshCounts();
  const before = { ...world.requests };
  const started = performance.now();
  const res = await product.api('POST', '/api/generate-leads', { industry: 'Dentists', location, quantity }, bearer(user.token));
  const wallMs = Math.round(performance.now() - started);
  if (res.status !== 200) throw new Error(`generate-leads: ${res.status} ${JSON.stringify(res.body)}`);
  await world.refreshCounts();
  const providerRequests = Object.entries(world.requests).reduce((sum, [name, count]) => sum + count - before[name as keyof typeof before], 0);
  const leads = res.body.leads as { website?: string; phone?: string }[];
  const businesses = leads.map(businessOf);
  return {
    delivered: leads.length,
    providerRequests,
    outside: businesses.filter((b) => b?.town !== location).length,
    unknown: businesses.filter((b) => !b).length,
    ids: new Set(businesses.flatMap((b) => (b ? [b.index] : []))),
    wallMs,
    coverage: res.body.stats?.coverage,
  };
}

const figures: Record<string, unknown> = { sources, city_contactable_inside: world.contactableIn(WORLD_CITY).length };
for (const quantity of [50, 100, 200]) {
  const first = await search(WORLD_CITY, quantity);
  const second = await search(WORLD_CITY, quantity);
  const shared = [...first.ids].filter((id) => second.ids.has(id)).length;
  figures[`city_${quantity}`] = {
    delivered_per_requested: `${first.delivered}/${quantity}`,
    provider_requests: first.providerRequests,
    provider_requests_per_lead: Number((first.providerRequests / Math.max(1, first.delivered)).toFixed(3)),
    outside_boundary: first.outside,
    overlap_of_two_runs: Number((shared / Math.max(1, Math.max(first.ids.size, second.ids.size))).toFixed(3)),
    wall_ms: [first.wallMs, second.wallMs],
    coverage: first.coverage,
  };
}
const town = await search(WORLD_SMALL_TOWN, 100);
figures.small_town_100 = {
  contactable_there: world.contactableIn(WORLD_SMALL_TOWN).length,
  delivered: town.delivered,
  from_the_town: town.delivered - town.outside,
  outside_boundary: town.outside,
  provider_requests: town.providerRequests,
  wall_ms: town.wallMs,
  coverage: town.coverage,
};
reportFigures('coverage', process.env.BENCH_LABEL ? { label: process.env.BENCH_LABEL, ...figures } : figures);
await product.close();
await world.close();
served.kill('SIGTERM');
process.exit(0);
