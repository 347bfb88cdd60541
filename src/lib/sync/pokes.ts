import { getIdToken } from '../firebase.ts';
import { noteSessionAnswer } from '../session-signals.ts';

/**
 * Listens to GET /api/events (SSE over fetch, so the ID token travels in a header, never in a URL)
 * and calls onPoke for each poke. Reconnects with back-off; stops when the signal aborts.
 */
export async function listenForPokes(onPoke: () => void, signal: AbortSignal): Promise<void> {
  let failures = 0;
  while (!signal.aborted) {
    try {
      const token = await getIdToken();
      if (!token) return;
      const res = await fetch('/api/events', { headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' }, signal });
      // A session ended on the server: reconnecting cannot help, and the app signs out.
      if (await noteSessionAnswer(res)) return;
      if (!res.ok || !res.body) throw new Error(`events: ${res.status}`);
      failures = 0;
      // A (re)connection may have missed pokes: pull once.
      onPoke();
      await readEvents(res.body, (event) => event === 'poke' && onPoke());
    } catch {
      if (signal.aborted) return;
      failures++;
    }
    await delay(Math.min(30_000, 1000 * 2 ** Math.min(failures, 5)) * (0.5 + Math.random() / 2), signal);
  }
}

async function readEvents(body: ReadableStream<Uint8Array>, onEvent: (name: string) => void): Promise<void> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += decoder.decode(value, { stream: true });
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const name = /^event: (.+)$/m.exec(block)?.[1];
      if (name) onEvent(name.trim());
    }
  }
}

function delay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(t);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const t = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}
