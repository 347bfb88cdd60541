import { StaffClient } from '../../../../domain/staff.ts';
import { diffRecords } from '../shared/record-diff.ts';

const clientConflictFields = ['isClient', 'isStaff', 'isAdmin'] as const satisfies readonly (keyof StaffClient)[];

/** What someone else changed on the client's account since we displayed it. */
export function clientConflictChanges(before: StaffClient, after: StaffClient): string[] {
  return diffRecords(before, after, clientConflictFields);
}

export function parseClient(value: unknown): StaffClient | null {
  const parsed = StaffClient.safeParse(value);
  return parsed.success ? parsed.data : null;
}
