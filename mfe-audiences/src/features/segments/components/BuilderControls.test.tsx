import { FluentProvider, webLightTheme } from '@fluentui/react-components';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AudienceField } from '@mailroom/api-client';
import { useState } from 'react';
import type { RuleGroupType } from 'react-querybuilder';
import { describe, expect, it } from 'vitest';
import { SegmentBuilder } from './SegmentBuilder';
import { fieldsByName, segmentFields } from './segment-fields';

const FIELDS: AudienceField[] = [
  { key: 'city', label: 'City', type: 'TEXT', options: null, required: false, editableByPerson: false, position: 1 },
];
const groups = segmentFields(FIELDS);
const byName = fieldsByName(groups);

function Harness({ onQuery }: { onQuery?: (q: RuleGroupType) => void }) {
  const [query, setQuery] = useState<RuleGroupType>({ combinator: 'and', rules: [] });
  return (
    <FluentProvider theme={webLightTheme}>
      <SegmentBuilder
        fields={groups}
        byName={byName}
        campaigns={[{ id: 9, name: 'May news' }]}
        query={query}
        onChange={(q) => {
          setQuery(q);
          onQuery?.(q);
        }}
      />
    </FluentProvider>
  );
}

const selectValue = (name: string) => (screen.getByRole('combobox', { name }) as HTMLSelectElement).value;

describe('The builder in Fluent controls', () => {
  it('is reached and used by keyboard alone, every control named after its condition', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    // Tab order: the combinator, then "Add condition".
    await user.tab();
    expect(document.activeElement).toBe(screen.getByRole('combobox', { name: 'Match contacts by' }));
    await user.tab();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Add condition' }));
    await user.keyboard('{Enter}');
    expect(selectValue('What condition 1 compares')).toBe('fields.city');
    expect(selectValue('How condition 1 compares')).toBe('equals');
    screen.getByRole('textbox', { name: 'Value of condition 1' }).focus();
    await user.keyboard('Oslo');
    expect((screen.getByRole('textbox', { name: 'Value of condition 1' }) as HTMLInputElement).value).toBe('Oslo');
    await user.tab();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Remove condition 1' }));
    await user.keyboard('{Enter}');
    expect(screen.queryByRole('combobox', { name: 'What condition 1 compares' })).toBeNull();
  });

  it('nests groups one level only', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    await user.click(screen.getByRole('button', { name: 'Add group' }));
    expect(screen.getByRole('combobox', { name: 'Match the conditions of group 1 by' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Add condition to group 1' })).toBeTruthy();
    // The only "Add group" is the rule's own: a group holds conditions, not groups.
    expect(screen.getAllByRole('button', { name: 'Add group' })).toHaveLength(1);
    expect(screen.getByRole('combobox', { name: 'What condition 1 of group 1 compares' })).toBeTruthy();
  });

  it('edits each condition with the control its field and operator need', async () => {
    const user = userEvent.setup();
    let last: RuleGroupType | undefined;
    render(<Harness onQuery={(q) => (last = q)} />);
    await user.click(screen.getByRole('button', { name: 'Add condition' }));
    const what = screen.getByRole('combobox', { name: 'What condition 1 compares' });

    await user.selectOptions(what, 'engagement.opened');
    expect(selectValue('How condition 1 compares')).toBe('anyOfLast');
    expect((screen.getByRole('spinbutton', { name: 'Value of condition 1' }) as HTMLInputElement).value).toBe('3');
    await user.selectOptions(screen.getByRole('combobox', { name: 'How condition 1 compares' }), 'never');
    expect(screen.queryByRole('spinbutton', { name: 'Value of condition 1' })).toBeNull();
    await user.selectOptions(screen.getByRole('combobox', { name: 'How condition 1 compares' }), 'since');
    expect((screen.getByLabelText('Value of condition 1') as HTMLInputElement).type).toBe('date');

    await user.selectOptions(what, 'subscription');
    expect(selectValue('Value of condition 1')).toBe('subscribed');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Value of condition 1' }), 'suppressed:HARD_BOUNCE');

    await user.selectOptions(what, 'campaign.received');
    expect(selectValue('Value of condition 1')).toBe('9');
    expect(screen.getByRole('option', { name: 'May news' })).toBeTruthy();
    expect(last!.rules[0]).toMatchObject({ field: 'campaign.received', operator: 'is', value: '9' });
  });
});
