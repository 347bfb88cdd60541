import { Card, Image, VStack } from '@chakra-ui/react';
import type { ReactNode } from 'react';

/** The centred card with the logo that the screens outside the shell (login, initial password) share. */
export function AuthCard({ children }: { children: ReactNode }) {
  return (
    <VStack as="main" minHeight="100dvh" justifyContent="center" px="4" py="8" bg="portal.background">
      <Card.Root width="100%" maxWidth="420px" variant="outline" bg="portal.white">
        <Card.Body gap="6" px={{ base: '5', md: '8' }} py="8">
          <Image src="/logo.svg" alt="" boxSize="64px" mx="auto" />
          {children}
        </Card.Body>
      </Card.Root>
    </VStack>
  );
}
