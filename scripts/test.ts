// `npm test`: every stage in order (type check, lint, unit, server, end to end), stopping at the first that
// fails, then each stage's time, so a slow stage shows in every run's last lines (CI's included).
import { spawn } from 'node:child_process';
import { loadavg } from 'node:os';

const STAGES = ['typecheck', 'lint', 'test:unit', 'test:server', 'test:e2e'] as const;

function run(script: string): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '-s', script], { stdio: 'inherit' });
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

const minutes = (ms: number) => `${(ms / 60_000).toFixed(1)} min`;
const times: { stage: string; ms: number; code: number }[] = [];
const started = Date.now();
let failed: string | undefined;
for (const stage of STAGES) {
  const t0 = Date.now();
  const code = await run(stage);
  times.push({ stage, ms: Date.now() - t0, code });
  if (code !== 0) {
    failed = stage;
    break;
  }
}

console.log(`\nnpm test: stage times (load average ${loadavg()[0].toFixed(2)} at the end)`);
for (const t of times) console.log(`  ${t.stage.padEnd(12)} ${minutes(t.ms).padStart(9)}${t.code === 0 ? '' : `  FAILED (exit ${t.code})`}`);
for (const stage of STAGES.slice(times.length)) console.log(`  ${stage.padEnd(12)}   not run`);
console.log(`  ${'total'.padEnd(12)} ${minutes(Date.now() - started).padStart(9)}`);
process.exit(failed ? 1 : 0);
