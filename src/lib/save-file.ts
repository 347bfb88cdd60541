import { apiRequest, toApiError } from './api.ts';

/** Hands a downloaded blob to the browser as a file with this name. */
export function saveBlob(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  // Revoked later: some browsers read the URL after click() returns.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** The file name a Content-Disposition header gives (RFC 6266: filename* first), or the fallback. */
export function dispositionName(header: string | null, fallback: string): string {
  if (!header) return fallback;
  const extended = /filename\*=UTF-8''([^;]+)/i.exec(header);
  if (extended) {
    try {
      return decodeURIComponent(extended[1]);
    } catch {
      /* fall through to the plain name */
    }
  }
  return /filename="?([^";]+)"?/i.exec(header)?.[1] ?? fallback;
}

/**
 * Downloads a file the API serves only with the bearer token, so it is fetched and saved as a blob rather
 * than linked. Named as the server's Content-Disposition says, or `name`. Throws ApiError / NetworkError.
 */
export async function downloadApiFile(path: string, name: string): Promise<void> {
  const res = await apiRequest(path);
  if (!res.ok) throw toApiError(res.status, await res.json().catch(() => null));
  saveBlob(await res.blob(), dispositionName(res.headers.get('content-disposition'), name));
}
