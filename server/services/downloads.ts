import { eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { files } from '../db/schema.ts';
import type { SignedLinks } from '../files/signed-links.ts';
import { UUID } from '../files/storage.ts';
import { HttpError, notFound } from '../platform/errors.ts';

/** The file a signed download link names: the token is the permission, so no user is asked for. */
export async function fileOfSignedLink(db: Db, links: SignedLinks, token: string) {
  const verdict = links.verify(token);
  if (!verdict.ok) {
    if (verdict.reason === 'not-found') throw notFound('File not found');
    throw verdict.reason === 'expired'
      ? new HttpError(410, 'LINK_EXPIRED', 'This download link has expired. Open the download again to get a new one.')
      : new HttpError(403, 'INVALID_LINK', 'This download link is not valid.');
  }
  const [file] = await db.select().from(files).where(eq(files.id, verdict.fileId));
  if (!file) throw notFound('File not found');
  return file;
}

/** Any stored file by its id, for staff (evidence, final report, invoice, general file). */
export async function storedFileById(db: Db, fileId: string) {
  if (!UUID.test(fileId)) throw notFound('File not found');
  const [row] = await db.select().from(files).where(eq(files.id, fileId));
  if (!row) throw notFound('File not found');
  return row;
}
