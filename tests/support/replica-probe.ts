// Functions that run inside the page (page.evaluate) to look into the app's IndexedDB the way the
// app itself stores it, without any test hook in the production bundle. Shared by e2e tests and benches.
import type { Page } from 'playwright-core';

/** Counts rows of a store in the signed-in user's replica (`portal-<uid>`). */
export function countRows(page: Page, uid: string, store: string): Promise<number> {
  return page.evaluate(
    ([name, storeName]) =>
      new Promise<number>((resolve, reject) => {
        const open = indexedDB.open(name);
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          if (!db.objectStoreNames.contains(storeName)) {
            db.close();
            return resolve(0);
          }
          const req = db.transaction(storeName).objectStore(storeName).count();
          req.onsuccess = () => {
            db.close();
            resolve(req.result);
          };
          req.onerror = () => reject(req.error);
        };
      }),
    [`portal-${uid}`, store] as const,
  );
}

/**
 * Adds contact-message commands straight to the outbox store, exactly as queueContact writes them
 * (minus the optimistic row, which the sender does not need). The app's sender then sends them.
 */
export function addContactCommands(page: Page, uid: string, subjects: string[]): Promise<void> {
  return page.evaluate(
    ([name, list]) =>
      new Promise<void>((resolve, reject) => {
        const open = indexedDB.open(name);
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          const tx = db.transaction('outbox', 'readwrite');
          const store = tx.objectStore('outbox');
          for (const subject of list) {
            const id = crypto.randomUUID();
            store.add({
              commandId: id,
              kind: 'contact',
              label: `Message: ${subject}`,
              method: 'POST',
              path: '/contact',
              json: { contactRequest: { subject, message: `Bench message ${subject}` } },
              status: 'pending',
              attempts: 0,
              nextAttemptAt: 0,
              createdAt: Date.now(),
              target: { table: 'contactRequests', id },
            });
          }
          tx.oncomplete = () => {
            db.close();
            resolve();
          };
          tx.onerror = () => reject(tx.error);
        };
      }),
    [`portal-${uid}`, subjects] as const,
  );
}

/** The signed-in user's current ID token, read from the Firebase SDK's own IndexedDB store. */
export function readIdToken(page: Page): Promise<string> {
  return page.evaluate(
    () =>
      new Promise<string>((resolve, reject) => {
        const open = indexedDB.open('firebaseLocalStorageDb');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const req = open.result.transaction('firebaseLocalStorage').objectStore('firebaseLocalStorage').getAll();
          req.onsuccess = () => {
            const user = (req.result as Array<{ value?: { stsTokenManager?: { accessToken?: string } } }>).find((r) => r.value?.stsTokenManager);
            const token = user?.value?.stsTokenManager?.accessToken;
            open.result.close();
            if (token) resolve(token);
            else reject(new Error('no Firebase user in this browser'));
          };
        };
      }),
  );
}
