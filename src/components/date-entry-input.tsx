import { IconButton, Input, InputGroup } from '@chakra-ui/react';
import { CalendarDays } from 'lucide-react';
import { useRef } from 'react';
import { dateEntryToIso, datePlaceholder, isoToDateEntry } from '../lib/date-entry.ts';
import { iconSize } from './theme-tokens.ts';

export interface DateEntryInputProps {
  /** The typed text, DD/MM/YYYY when complete. */
  value: string;
  onChange(value: string): void;
}

/** Does not repeat the field's label: a search by that label must find the text input only. */
export const calendarButtonLabel = 'Pick the day from a calendar';

/**
 * A day typed as DD/MM/YYYY (lib/date-entry.ts), with a calendar button. The calendar is the browser's own,
 * opened on a hidden native date input: it picks a day whatever the locale, while the text the user reads and
 * types stays day first. Put it inside a Field.Root: the text input takes the field's label and error.
 */
export function DateEntryInput({ value, onChange }: DateEntryInputProps) {
  const calendar = useRef<HTMLInputElement>(null);

  const openCalendar = () => {
    const input = calendar.current;
    if (!input) return;
    input.value = dateEntryToIso(value);
    try {
      input.showPicker();
    } catch {
      // No picker in this browser (or not allowed now): typing the date still works.
    }
  };

  return (
    <InputGroup
      endElementProps={{ pe: '1' }}
      endElement={
        <>
          <IconButton type="button" variant="ghost" size="sm" color="portal.nav" aria-label={calendarButtonLabel} onClick={openCalendar}>
            <CalendarDays size={iconSize} aria-hidden="true" />
          </IconButton>
          {/* Under the button so the browser opens its calendar there; out of the tab order and of the accessibility tree. */}
          <input
            ref={calendar}
            type="date"
            tabIndex={-1}
            aria-hidden="true"
            onChange={(e) => {
              const picked = isoToDateEntry(e.target.value);
              if (picked) onChange(picked);
            }}
            style={{ position: 'absolute', right: 0, bottom: 0, width: '2.5rem', height: '1px', opacity: 0, pointerEvents: 'none', border: 0, padding: 0 }}
          />
        </>
      }
    >
      <Input
        type="text"
        inputMode="numeric"
        autoComplete="off"
        placeholder={datePlaceholder}
        maxLength={10}
        value={value}
        onChange={(e) => onChange(e.target.value)}
      />
    </InputGroup>
  );
}
