// Operator CLI: npm run admin -- grant|revoke EMAIL
import path from 'node:path';
import { openDatabase } from '#db/client';
import { loadConfig } from './config';
import { setAdminRole } from './modules/auth/admin-bootstrap';

const [action, email] = process.argv.slice(2);
if ((action !== 'grant' && action !== 'revoke') || !email) {
  console.error('Usage: npm run admin -- grant|revoke EMAIL');
  process.exit(64);
}
const config = loadConfig();
const database = await openDatabase({
  databaseUrl: config.DATABASE_URL,
  dataDir: config.DATABASE_URL ? undefined : path.resolve(config.DATA_DIR),
});
await database.migrate();
const found = await setAdminRole(database.db, email, action === 'grant');
await database.close();
if (!found) {
  console.error(`No account with email ${email}.`);
  process.exit(1);
}
console.log(`${action === 'grant' ? 'Granted' : 'Revoked'} the admin role for ${email}.`);
