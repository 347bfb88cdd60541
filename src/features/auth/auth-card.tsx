import { Card, Text, VStack } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { LogoMark } from '../../components/logo-mark.tsx';
import { productName } from '../../components/product-name.ts';

/** The centred card with the logo and the product's name that the screens outside the shell (login, initial password) share. */
export function AuthCard({ children }: { children: ReactNode }) {
  return (
    <VStack as="main" minHeight="100dvh" justifyContent="center" px="4" py="8" bg="portal.background">
      <Card.Root width="100%" maxWidth="420px" variant="outline" bg="portal.white">
        <Card.Body gap="6" px={{ base: '5', md: '8' }} py="8">
          <VStack gap="2">
            <LogoMark size={64} />
            <Text fontWeight="bold" fontSize="md" color="portal.text" data-testid="product-name">
              {productName}
            </Text>
          </VStack>
          {children}
        </Card.Body>
      </Card.Root>
    </VStack>
  );
}
