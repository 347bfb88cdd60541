// `npm run dev`: Auth emulator + demo seed + API server restarted on change (`node --watch`)
// + Vite dev server with hot reload on 5173 (VITE_PORT), which proxies /api to the API server.
// Same env as `npm start` (PORT, AUTH_EMULATOR_PORT, DATA_DIR); Ctrl-C stops everything.
import { runStack } from './start.ts';

const raw = process.env.VITE_PORT;
const vitePort = raw ? Number(raw) : 5173;
if (!Number.isInteger(vitePort) || vitePort <= 0 || vitePort > 65535) {
  console.error(`VITE_PORT=${raw} is not a valid port`);
  process.exit(2);
}
process.env.NODE_ENV ??= 'development';

await runStack({ watch: true, vitePort });
