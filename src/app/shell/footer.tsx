import { HStack, Link, Stack, Text } from '@chakra-ui/react';
import { Link as RouterLink } from '@tanstack/react-router';
import { externalLinks } from '../../../domain/texts.ts';
import { productName } from '../../components/product-name.ts';

const links = [
  { label: 'About', href: externalLinks.about },
  { label: 'Terms & Conditions', href: externalLinks.terms },
  { label: 'Privacy Policy', href: externalLinks.privacy },
] as const;

export function Footer() {
  return (
    <Stack
      as="footer"
      direction={{ base: 'column', md: 'row' }}
      justifyContent="space-between"
      alignItems={{ base: 'flex-start', md: 'center' }}
      gap="2"
      px={{ base: '4', md: '6' }}
      py="4"
      color="fg.muted"
    >
      {/* The spec fixes the year at 2023; it is the product's copyright year, not today's. */}
      <Text>
        © 2023 {productName}. All rights reserved.{' '}
        <Text as="span" fontSize="xs" data-testid="app-version">
          Version {__APP_VERSION__}
        </Text>
      </Text>
      <HStack as="nav" aria-label="Safety and legal" gap="4" flexWrap="wrap">
        {/* Always one click away: how we contact clients and take payments, and the "Was this really us?" check. */}
        <Link asChild color="portal.nav" fontWeight="semibold">
          <RouterLink to="/stay-safe">Stay safe</RouterLink>
        </Link>
        {links.map((link) => (
          <Link key={link.label} href={link.href} target="_blank" rel="noopener" color="portal.nav">
            {link.label}
          </Link>
        ))}
      </HStack>
    </Stack>
  );
}
