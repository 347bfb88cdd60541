import { Code } from '@chakra-ui/react';
import { fraudTypeLabel } from '../../../../domain/enums.ts';
import { formatDate, formatMoney } from '../../../../domain/format.ts';
import type { StaffClient } from '../../../../domain/staff.ts';
import { Facts } from '../shared/facts.tsx';
import { yesNo } from '../shared/format.ts';
import { EmptyText, SectionCard } from '../shared/section-card.tsx';

export function ProfileCard({ client }: { client: StaffClient }) {
  return (
    <SectionCard title="Profile">
      <Facts
        label="Profile"
        items={[
          { label: 'Name', value: [client.firstName, client.lastName].filter(Boolean).join(' ') || '—' },
          { label: 'Email', value: client.email },
          { label: 'Phone', value: client.phone || '—' },
          { label: 'Country', value: client.country || '—' },
          { label: 'Signed up', value: formatDate(client.createdAt) },
          { label: 'Activity status', value: client.activityStatus === 'ACTIVE' ? 'Active' : client.activityStatus === 'IN_ACTIVE' ? 'Inactive' : client.activityStatus },
          { label: 'Approved', value: yesNo(client.isClient) },
        ]}
      />
    </SectionCard>
  );
}

/** The initial form as the client filled it in. The fraud URL is a scammer's address: shown, never linked. */
export function InitialFormCard({ client }: { client: StaffClient }) {
  const form = client.initialForm;
  return (
    <SectionCard title="Initial form">
      {form ? (
        <Facts
          label="Initial form"
          items={[
            { label: 'Name', value: form.name },
            { label: 'Fraud type', value: fraudTypeLabel[form.fraudType] },
            { label: 'Money lost', value: formatMoney(form.moneyLost) },
            { label: 'Last funds transfer', value: formatDate(form.lastFundsTransfer) },
            {
              label: 'Fraud URL',
              value: (
                <Code size="sm" variant="surface" wordBreak="break-all" whiteSpace="normal">
                  {form.fraudUrl}
                </Code>
              ),
            },
          ]}
        />
      ) : (
        <EmptyText>The initial form has not been filled in yet.</EmptyText>
      )}
    </SectionCard>
  );
}
