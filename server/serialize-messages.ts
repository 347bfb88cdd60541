// routes/sync.ts and sync-requests.ts, which the sync feed's work owns, still import this path: it re-exports
// the moved module until their imports follow, and then goes.
export * from './serialize/messages.ts';
