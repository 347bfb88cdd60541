import { beforeEach, describe, expect, it, vi } from 'vitest';

const shellSystem = vi.fn(() => ({ name: 'shell' }));
vi.mock('./theme.ts', () => ({ shellSystem }));
vi.mock('./full-theme.ts', () => ({ fullSystem: { name: 'full' } }));

describe('prepareAppSystem', () => {
  beforeEach(() => {
    vi.resetModules();
    shellSystem.mockClear();
  });

  it("builds the shell's system before the first render needs it", async () => {
    const { prepareAppSystem } = await import('./app-system.ts');
    expect(shellSystem).not.toHaveBeenCalled();
    await prepareAppSystem();
    expect(shellSystem).toHaveBeenCalledTimes(1);
  });

  it('builds nothing when the full system is in (a signed-in start draws with it)', async () => {
    const { loadFullSystem, prepareAppSystem } = await import('./app-system.ts');
    await loadFullSystem();
    await prepareAppSystem();
    expect(shellSystem).not.toHaveBeenCalled();
  });
});
