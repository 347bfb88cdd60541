/** Placeholder until its feature lands. */
export function ToolPage({ toolId }: { toolId: string }) {
  return <p>Tool {toolId}</p>;
}
