import { texts } from '../../../../domain/texts.ts';
import { NetworkError, apiRequest, toApiError } from '../../../lib/api.ts';
import { dispositionName, saveBlob } from '../../../lib/save-file.ts';
import { showMessage } from '../../../lib/ui-state.ts';
import { failureText } from '../../../lib/use-online-action.ts';

/**
 * Saves one of a client's files (evidence, final report, general file). The download needs the bearer
 * token, so it is fetched and saved as a blob rather than linked.
 */
export async function downloadStaffFile(file: { id: string; name: string }): Promise<void> {
  if (navigator.onLine === false) {
    showMessage(texts.needsConnection, 'warning');
    return;
  }
  try {
    const res = await apiRequest(`/staff/files/${encodeURIComponent(file.id)}`);
    if (!res.ok) {
      const payload: unknown = await res.json().catch(() => null);
      throw toApiError(res.status, payload);
    }
    saveBlob(await res.blob(), dispositionName(res.headers.get('content-disposition'), file.name));
  } catch (err) {
    if (err instanceof NetworkError) showMessage(texts.needsConnection, 'warning');
    else showMessage(failureText(err), 'error');
  }
}
