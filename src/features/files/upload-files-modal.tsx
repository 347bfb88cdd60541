/** Placeholder until its feature lands. */
export function UploadFilesModal(_props: { open: boolean; onClose(): void }) {
  return null;
}
