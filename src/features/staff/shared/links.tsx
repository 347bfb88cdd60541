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
