// `npm run user:promote -- EMAIL`: makes an existing account an administrator.
// Run it with the product stopped: the embedded database belongs to one process at a time.
import { loadKitConfig } from '@leadforge/kit/config';
import { migrate, openDatabase } from '@leadforge/kit/db';
import { promoteAdmins } from '../services/auth/src/domain/users.ts';
import { normaliseEmail } from '../services/auth/src/domain/emailAddress.ts';

const email = process.argv[2];
if (!email || !email.includes('@')) {
  console.error('Usage: npm run user:promote -- someone@example.com');
  process.exit(2);
}
const config = loadKitConfig('auth');
const db = openDatabase({ service: 'auth', url: config.databaseUrl, dataDir: config.dataDir });
try {
  await migrate(db, new URL('../services/auth/src/db/migrations', import.meta.url).pathname);
  const user = await db('users').where({ email: normaliseEmail(email) }).first();
  if (!user) {
    console.error(`No account with the email ${email}. Register it first, then run this again.`);
    process.exitCode = 1;
  } else if (user.role === 'admin') {
    console.log(`${user.email} is already an administrator.`);
  } else {
    await promoteAdmins(db, [email], { verifiedOnly: false });
    console.log(`${user.email} is now an administrator (the change is announced to other services at the next start).`);
  }
} finally {
  await db.destroy();
}
