import { Link } from '@chakra-ui/react';
import { Link as RouterLink } from '@tanstack/react-router';

/** The way out of an empty list (no notifications, no messages yet): write to support. */
export function ContactSupportLink() {
  return (
    <Link asChild color="brand.fg" fontWeight="semibold">
      <RouterLink to="/contact-us">Contact Support</RouterLink>
    </Link>
  );
}
