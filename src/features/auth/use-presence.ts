/** Placeholder until its feature lands. */
export function usePresence(_uid: string): void {}
