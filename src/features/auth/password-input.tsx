import { IconButton, Input, InputGroup, type InputProps } from '@chakra-ui/react';
import { Eye, EyeOff } from 'lucide-react';
import { useState } from 'react';
import { iconSize } from '../../components/theme-tokens.ts';

/** A password input with the show/hide toggle of the login screen. */
export function PasswordInput(props: Omit<InputProps, 'type'>) {
  const [visible, setVisible] = useState(false);
  return (
    <InputGroup
      endElementProps={{ pe: '1' }}
      endElement={
        <IconButton
          type="button"
          variant="ghost"
          size="sm"
          color="portal.nav"
          aria-label={visible ? 'Hide password' : 'Show password'}
          onClick={() => setVisible((v) => !v)}
        >
          {visible ? <EyeOff size={iconSize} /> : <Eye size={iconSize} />}
        </IconButton>
      }
    >
      <Input {...props} type={visible ? 'text' : 'password'} />
    </InputGroup>
  );
}
