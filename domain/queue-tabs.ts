/**
 * The staff queue's tabs, apart from the staff schemas: the queue route checks its search params with them
 * on every page load, and should not pull in every schema for that.
 */
export const queueTabs = ['leads', 'threads', 'refunds', 'pending', 'awaiting', 'inProgress', 'done'] as const;

export type QueueTabName = (typeof queueTabs)[number];

/** The queue page's search params as the URL gives them: a bad or missing value is left out (the page's default). */
export interface QueueSearch {
  tab?: QueueTabName;
  q?: string;
}

/**
 * Reads the queue's search params. A hand-written check rather than zod: the route's search check is part of the
 * first load of every screen, the sign-in screen's included, and zod would add 15 kB gzipped to it.
 * The rules are those of a zod schema with `.catch(undefined)`: only a listed tab, a search of at most 200
 * characters after trimming.
 */
export function readQueueSearch(search: Record<string, unknown>): QueueSearch {
  const tab = queueTabs.find((t) => t === search.tab);
  const q = typeof search.q === 'string' ? search.q.trim() : undefined;
  return { tab, q: q !== undefined && q.length <= 200 ? q : undefined };
}
