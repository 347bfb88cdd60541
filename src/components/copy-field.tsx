import { HStack, IconButton, Input, Text } from '@chakra-ui/react';
import { Check, Copy } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { texts } from '../../domain/texts.ts';
import { showMessage } from '../lib/ui-state.ts';
import { iconSize } from './theme-tokens.ts';

/** Spec section 9: the copy icon confirms for 3 s. */
const copiedForMs = 3000;

async function copyText(text: string, fallbackInput: HTMLInputElement | null): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    // No clipboard permission (or an old browser): copy the selected field the old way.
    fallbackInput?.select();
    if (!document.execCommand('copy')) throw new Error('copy refused');
  }
}

/**
 * A read-only value with a copy button, and "Copied" said aloud (role=status) after a copy. The field
 * itself can be selected by hand where copying is refused. Put it inside a Field.Root for its label.
 */
export function CopyField({ value, copyLabel, mono = true }: { value: string; copyLabel: string; mono?: boolean }) {
  // The value that was copied: a new value (a new password) is not "Copied" yet.
  const [copiedValue, setCopiedValue] = useState<string | null>(null);
  const copied = copiedValue !== null && copiedValue === value;
  const inputRef = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (copiedValue === null) return;
    const timer = setTimeout(() => setCopiedValue(null), copiedForMs);
    return () => clearTimeout(timer);
  }, [copiedValue]);

  const copy = () => {
    copyText(value, inputRef.current).then(
      () => setCopiedValue(value),
      () => showMessage(texts.somethingWentWrong, 'error'),
    );
  };

  return (
    <>
      <HStack gap="2" width="100%">
        <Input ref={inputRef} readOnly value={value} fontFamily={mono ? 'mono' : undefined} flex="1" minWidth="0" onFocus={(e) => e.target.select()} />
        <IconButton aria-label={copyLabel} variant="outline" color={copied ? 'green.700' : 'portal.nav'} disabled={!value} onClick={copy}>
          {copied ? <Check size={iconSize} /> : <Copy size={iconSize} />}
        </IconButton>
      </HStack>
      <Text role="status" aria-live="polite" color="green.700" fontSize="sm" minHeight="1lh">
        {copied ? 'Copied' : ''}
      </Text>
    </>
  );
}
