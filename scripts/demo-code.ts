// `npm run demo-code`: the current authenticator codes of the demo staff and admin accounts, from the secrets they
// are seeded with (server/seed/seed-data.ts), for the second-factor screen of a local demo. No server needed.
import { Secret, TOTP } from 'otpauth';
import { DEMO_TOTP_SECRETS } from '../server/seed/seed-data.ts';

const accounts = [
  ['staff@demo.test', DEMO_TOTP_SECRETS.staff],
  ['admin@demo.test', DEMO_TOTP_SECRETS.admin],
] as const;

const now = Date.now();
const secondsLeft = 30 - Math.floor(now / 1000) % 30;
for (const [email, secret] of accounts) {
  const code = new TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(secret) }).generate({ timestamp: now });
  console.log(`${email.padEnd(17)} ${code.slice(0, 3)} ${code.slice(3)}   (secret ${secret})`);
}
console.log(`Valid for ${secondsLeft} more seconds; each code is accepted once per account. Run again for the next one.`);
