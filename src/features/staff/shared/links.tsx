import { Link as ChakraLink, type LinkProps } from '@chakra-ui/react';
import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';

type StyleProps = Omit<LinkProps, 'asChild' | 'href' | 'children'>;

/** A client's page in the workspace. */
export function ClientLink({ uid, children, ...style }: { uid: string; children: ReactNode } & StyleProps) {
  return (
    <ChakraLink asChild color="brand.fg" fontWeight="medium" {...style}>
      <Link to="/staff/clients/$uid" params={{ uid }}>
        {children}
      </Link>
    </ChakraLink>
  );
}

/** A request's page in the workspace. */
export function RequestLink({ requestId, children, ...style }: { requestId: string; children: ReactNode } & StyleProps) {
  return (
    <ChakraLink asChild color="brand.fg" fontWeight="medium" {...style}>
      <Link to="/staff/requests/$requestId" params={{ requestId }}>
        {children}
      </Link>
    </ChakraLink>
  );
}

/** The id of a conversation on its client's page, so a link opens the page at that conversation. */
export function threadAnchor(threadId: string): string {
  return `thread-${threadId}`;
}

/** A support thread: its client's page, scrolled to the conversation. */
export function ThreadLink({ uid, threadId, children, ...style }: { uid: string; threadId: string; children: ReactNode } & StyleProps) {
  return (
    <ChakraLink asChild color="brand.fg" fontWeight="medium" {...style}>
      <Link to="/staff/clients/$uid" params={{ uid }} hash={threadAnchor(threadId)}>
        {children}
      </Link>
    </ChakraLink>
  );
}
