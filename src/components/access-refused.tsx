import { Card, HStack, Text } from '@chakra-ui/react';
import { ErrorComponent, type ErrorComponentProps } from '@tanstack/react-router';
import { ShieldAlert } from 'lucide-react';
import { iconSize } from './theme-tokens.ts';

/** Thrown by a route guard when the signed-in user lacks the role; the message is what they are told. */
export class AccessRefused extends Error {}

/**
 * A guarded route's errorComponent: a clear refusal instead of a form the server would refuse with 403
 * anyway; any other error gets the router's own error screen.
 */
export function AccessRefusedPanel({ error }: ErrorComponentProps) {
  if (!(error instanceof AccessRefused)) return <ErrorComponent error={error} />;
  return (
    <Card.Root variant="elevated" bg="portal.white" maxWidth="640px">
      <Card.Body>
        <HStack role="alert" gap="3" p="4" borderRadius="l2" bg="orange.50" color="orange.800" borderWidth="1px" borderColor="orange.200">
          <ShieldAlert size={iconSize} aria-hidden="true" />
          <Text fontWeight="medium">{error.message}</Text>
        </HStack>
      </Card.Body>
    </Card.Root>
  );
}
