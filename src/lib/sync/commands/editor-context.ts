import { type ComponentType, createContext, useContext, useState } from 'react';
import type { CommandBodies } from './kind.ts';
import type { CommandKind, OutboxCommand } from '../../db.ts';

/**
 * The outbox panel's Edit opens the form the user filled, from the feature that owns it. The panel cannot import
 * features, so the app gives it one editor per kind through this context (src/app/feature-edit-dialogs.tsx).
 */
export interface CommandEditorProps<K extends EditableKind> {
  command: OutboxCommand;
  /** The command's body as stored, read with its kind's schema: the form opens prefilled with it. */
  body: CommandBodies[K];
  /** Replaces the command and its optimistic row; rejects with the reason when the kind's schema refuses the body. */
  onSave(body: CommandBodies[K]): Promise<void>;
  onClose(): void;
}

/** Kinds the user fills in a form. A read marker, a switch or a seen mark has nothing to edit: the panel offers Retry and Discard only. */
export type EditableKind = Exclude<CommandKind, 'notificationsRead' | 'notificationPreferences' | 'seen'>;

const UNEDITABLE: readonly CommandKind[] = ['notificationsRead', 'notificationPreferences', 'seen'];

export function isEditableKind(kind: CommandKind): kind is EditableKind {
  return !UNEDITABLE.includes(kind);
}

export type CommandEditors = { [K in EditableKind]: ComponentType<CommandEditorProps<K>> };

export const CommandEditorsContext = createContext<CommandEditors | null>(null);

export function useCommandEditors(): CommandEditors | null {
  return useContext(CommandEditorsContext);
}

/** Labels on the edit forms' save button: the command goes back in the queue at once. */
export const saveAndSendLabel = 'Save and send';

/**
 * An edit form's save: busy while it runs, and the reason when the kind's schema (or the device) refused it,
 * for the form to show; resolves true once the command was replaced.
 */
export function useSaveEdit<T>(onSave: (body: T) => Promise<void>): { busy: boolean; refused: string | null; save(body: T): Promise<boolean> } {
  const [busy, setBusy] = useState(false);
  const [refused, setRefused] = useState<string | null>(null);
  async function save(body: T): Promise<boolean> {
    setBusy(true);
    setRefused(null);
    try {
      await onSave(body);
      return true;
    } catch (err) {
      setRefused(err instanceof Error ? err.message : 'This change could not be saved.');
      return false;
    } finally {
      setBusy(false);
    }
  }
  return { busy, refused, save };
}
