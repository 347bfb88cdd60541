import { ContactReplyEditDialog } from '../features/client/contact/contact-thread.tsx';
import { ContactEditDialog } from '../features/client/contact/contact-us-page.tsx';
import { InitialFormEditDialog } from '../features/client/profile/initial-form-page.tsx';
import { RefundEditDialog } from '../features/client/requests/refund-dialog.tsx';
import { PurchaseEditDialog } from '../features/client/tools/purchase-dialog.tsx';
import { StaffReplyEditDialog } from '../features/staff/client-file/conversations.tsx';
import { StaffNoteEditDialog } from '../features/staff/shared/notes-section.tsx';
import type { CommandEditors } from '../lib/sync/commands/editor-context.ts';

/**
 * Which feature's form edits each kind of command: the outbox panel's Edit opens it. The registry names React
 * dialogs of several features, so it sits in src/app, the one layer that may import features (src/lib may not, and
 * features cannot import each other); src/lib/sync/commands/editor-context.ts is the context that carries it.
 */
export const commandEditors: CommandEditors = {
  purchase: PurchaseEditDialog,
  refund: RefundEditDialog,
  contact: ContactEditDialog,
  contactReply: ContactReplyEditDialog,
  initialForm: InitialFormEditDialog,
  staffReply: StaffReplyEditDialog,
  staffNote: StaffNoteEditDialog,
};
