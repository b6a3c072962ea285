import { escapeHidden } from "./text";

/**
 * Text from the chain or another user, rendered as text only (React escapes markup; nothing
 * here uses innerHTML), with hidden characters shown escaped and marked.
 */
export function UserText({ text }: { text: string }) {
  const shown = escapeHidden(text);
  if (shown === text) return <>{text}</>;
  return (
    <span className="escaped" title="This text contains hidden or direction-changing characters, shown escaped">
      {shown}
    </span>
  );
}
