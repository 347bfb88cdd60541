/**
 * Final files are downloaded from signed, expiring links `/api/download/<fileId>.<expires>.<signature>`.
 * The service worker keeps a downloaded file under a key without the signature, so the copy outlives the
 * link and opens offline; the page asks the same key to know whether a saved copy exists.
 */
export const FINAL_FILES_CACHE = 'final-files';

export function finalFileCacheKey(pathname: string): string | null {
  const match = /^\/api\/download\/([0-9a-f-]{36})\./.exec(pathname);
  return match ? `/api/download/${match[1]}` : null;
}
