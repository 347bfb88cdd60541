import { Button, Heading, Image, VStack } from '@chakra-ui/react';
import { Link } from '@tanstack/react-router';
import { texts } from '../../domain/texts.ts';

/** Any unknown path (spec section 2). Rendered outside the shell, so it brings its own background. */
export function NotFoundPage() {
  return (
    <VStack as="main" minHeight="100dvh" justifyContent="center" gap="6" px="4" bg="portal.background">
      <Image src="/logo.svg" alt="" boxSize="96px" />
      <Heading as="h1" textStyle="h1" color="portal.text" textAlign="center">
        {texts.pageNotFound}
      </Heading>
      <Button colorPalette="brand" asChild>
        <Link to="/">{texts.goToDashboard}</Link>
      </Button>
    </VStack>
  );
}
