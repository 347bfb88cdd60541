import { Link as ChakraLink } from '@chakra-ui/react';
import { Link } from '@tanstack/react-router';
import { ArrowLeft } from 'lucide-react';

/** Back to the queue, as the staff member left it (the tab and search live in the URL, restored by history). */
export function BackToQueue() {
  return (
    <ChakraLink asChild color="brand.fg" fontWeight="medium" alignSelf="start">
      <Link to="/staff">
        <ArrowLeft size={16} aria-hidden="true" />
        Back to queue
      </Link>
    </ChakraLink>
  );
}
