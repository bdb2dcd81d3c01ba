// A scraper replica in a process of its own, for the test that kills one with SIGKILL:
// REPLICA_DATABASE_URL (Postgres), FIXTURE_WEB_PORT, REPLICA_OWNER; SCRAPER_* tune it.
import { openDatabase } from '@leadforge/kit/db';
import { fixtureWebAt } from '../fixtureWeb/fixtureWeb.ts';
import { startReplica } from './replicas.ts';

const db = openDatabase({ service: 'scraper', url: process.env.REPLICA_DATABASE_URL });
const tuning = Object.fromEntries(Object.entries(process.env).filter(([name]) => name.startsWith('SCRAPER_')));
startReplica({ db, web: fixtureWebAt(Number(process.env.FIXTURE_WEB_PORT)), owner: process.env.REPLICA_OWNER ?? 'child-replica', env: tuning });
console.log('replica started');
