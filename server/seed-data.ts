import type { Db } from './db/client.ts';

/** The demo client's requests, deals, files and visits (filled by the tools work). */
export async function seedClientData(_db: Db, _uid: string): Promise<void> {}
