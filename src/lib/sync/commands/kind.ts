import { z } from 'zod';
import type { NotificationPreferencesBody } from '../../../../domain/notification-preferences.ts';
import type { NotificationReadBody } from '../../../../domain/notification-reads.ts';
import type { SeenBody } from '../../../../domain/push.ts';
import type { ContactBody, InitialFormBody, RefundBody, ReplyBody } from '../../../../domain/schemas.ts';
import type { NoteBody } from '../../../../domain/staff.ts';
import type { CommandKind, FormPayload, OutboxCommand, PortalDb } from '../../db.ts';

/** What a purchase sends: the tool's values (numbers as numbers, dates as timestamps) and, for multipart tools, its files. */
export interface PurchaseBody {
  values: Record<string, string | number>;
  files: FormPayload['files'];
}

/** The body of each kind of command, as its feature's form produces it and the server's schema accepts it. */
export interface CommandBodies {
  purchase: PurchaseBody;
  refund: RefundBody;
  contact: ContactBody;
  contactReply: ReplyBody;
  initialForm: z.infer<typeof InitialFormBody>;
  staffReply: ReplyBody;
  staffNote: NoteBody;
  notificationsRead: NotificationReadBody;
  notificationPreferences: NotificationPreferencesBody;
  seen: SeenBody;
}

/** What the sender needs of a kind: which commands it must follow, how to read the server's answer and put it in the replica. */
export interface AnswerHandler {
  /**
   * The lane the command is sent in: commands of one lane reach the server in the order they were queued, other
   * lanes' go at the same time (docs/decisions/019-outbox-replay.md). Without it, the row it writes (`target`).
   */
  lane?(command: OutboxCommand): string;
  /** Validates the server's `data` of a successful answer. */
  answer: z.ZodType;
  /** Replaces the optimistic row with the server's, inside the transaction that removes the command; parses `data` with `answer`. */
  confirm(db: PortalDb, command: OutboxCommand, data: unknown): Promise<void>;
}

/**
 * One kind of command, defined once: its body (read back from the outbox with the kind's schema, so a command
 * queued by an older app is checked like a new one), how that body is stored and shown before it is sent, how
 * Discard takes it back, and what the server's answer does. Which feature form edits it is `CommandEditors`.
 */
export interface CommandKindDef<Body> extends AnswerHandler {
  /** The body stored on `command`, parsed with the kind's schema; null when it does not parse. */
  read(command: OutboxCommand): Body | null;
  /** The feature's schema applied to an edited body: what the server would refuse is refused here. */
  validate(command: OutboxCommand, body: unknown): z.ZodSafeParseResult<Body>;
  /** How the body is stored on the command and sent: JSON, or multipart for tools with files. */
  payload(command: Pick<OutboxCommand, 'path'>, body: Body): Pick<OutboxCommand, 'json' | 'form'>;
  /** The outbox panel's name for the command, when the body names it (a message's subject). */
  label?(body: Body): string;
  /** Writes the optimistic row for `body` (created at enqueue, updated by Edit), inside the command's transaction. */
  show(db: PortalDb, command: ShownCommand, body: Body): Promise<void>;
  /** Discard's undo, inside the transaction that has just deleted the command. */
  revert(db: PortalDb, command: OutboxCommand): Promise<void>;
}

/** What writing a command's optimistic row needs of it: the row is keyed by `target.id`; a reply's path names its thread. */
export type ShownCommand = Pick<OutboxCommand, 'commandId' | 'path' | 'target'>;

export type CommandKinds = { [K in CommandKind]: CommandKindDef<CommandBodies[K]> };

/** A reply's stored body, by shape only (see kinds.ts): client and staff replies share ReplyBody. */
export const StoredReply = z.object({ reply: z.object({ message: z.string() }) });

const repliesPath = /^\/(?:staff\/threads|contact)\/([^/]+)\/replies$/;

/** The thread a reply command goes to: its path carries it (the stored shape has no other place for it). */
export function threadIdOf(command: Pick<OutboxCommand, 'path'>): string | null {
  const id = repliesPath.exec(command.path)?.[1];
  return id ? decodeURIComponent(id) : null;
}
