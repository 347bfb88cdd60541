import { Box, Field, Input, InputGroup } from '@chakra-ui/react';
import { Search } from 'lucide-react';
import { useEffect, useEffectEvent, useState } from 'react';

/** Long enough to let a name be typed, short enough to feel immediate. */
export const SEARCH_DEBOUNCE_MS = 300;

/**
 * The queue's search box. It types freely and hands the text over after a pause, so each keystroke does
 * not become a request and a history entry. A new `value` from outside (back button) replaces the text.
 */
export function QueueSearch({ value, onSearch }: { value: string; onSearch(q: string): void }) {
  const [text, setText] = useState(value);
  const [shown, setShown] = useState(value);
  if (value !== shown) {
    setShown(value);
    if (value !== text.trim()) setText(value);
  }

  // The parent hands a new callback on every render; only the text should restart the pause.
  const search = useEffectEvent((q: string) => onSearch(q));
  useEffect(() => {
    const q = text.trim();
    if (q === value) return;
    const timer = setTimeout(() => search(q), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text, value]);

  return (
    <Field.Root width={{ base: '100%', md: '320px' }}>
      <Field.Label srOnly>Search</Field.Label>
      <InputGroup startElement={<Search size={18} aria-hidden="true" />}>
        <Input
          type="search"
          value={text}
          maxLength={200}
          placeholder="Name, email or request id"
          autoComplete="off"
          bg="portal.white"
          onChange={(e) => setText(e.target.value)}
        />
      </InputGroup>
      <Box as="span" srOnly aria-live="polite">
        {value ? `Showing results for ${value}` : ''}
      </Box>
    </Field.Root>
  );
}
